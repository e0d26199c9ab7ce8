//! The library's store: a tantivy full-text index of every session's
//! entries (`tantivy/`) and a manifest of the files it holds
//! (`manifest.json`: each file's path, size and mtime, and its sessions'
//! rows), both under one folder (`$XDG_CACHE_HOME/deck/index`).
//!
//! [`Library::update`] brings it up to date with the files found: only new
//! files and files whose size or mtime changed are read (a file that grew,
//! shrank or was rewritten is read again whole; its old entries deleted in
//! the same commit), files gone are dropped. Work is committed in batches,
//! so a long first build is searchable as it goes and a crash loses one
//! batch. An index that cannot be opened, or was written by another
//! version of deck, is deleted and built again: never fatal. Another deck
//! updating it at the same time is [`LibraryError::Busy`]: the caller
//! searches what is there.
//!
//! It holds session text, so it is private (`crate::private`): its folders
//! 0700, the manifest 0600, and what tantivy writes (0644 by its own
//! choice, in a folder no one else can enter) closed up after each commit.
//! An index opened up by someone is closed up on opening, and
//! [`Library::tightened`] says so for the caller to tell.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TEXT, TextFieldIndexing,
    TextOptions,
};
use tantivy::tokenizer::{LowerCaser, RawTokenizer, TextAnalyzer};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use super::discover::Found;
use super::read::{Doc, Entry, SessionRow, read};
use super::readers::each_on_threads;

/// What the manifest and the index are written as: a deck that reads
/// sessions differently builds its own.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "+library.1");

/// Bytes of session files read between two commits.
const BATCH_BYTES: u64 = 256 << 20;

/// The indexing thread's memory at most, and at least (tantivy's floor
/// is 15 MB).
const WRITER_BUDGET: usize = 64 << 20;
const WRITER_MIN: usize = 16 << 20;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LibraryError {
    #[error("another deck is updating the index in {0}; showing what it holds")]
    Busy(String),
    #[error("session index in {dir}: {source}")]
    Index {
        dir: String,
        #[source]
        source: tantivy::TantivyError,
    },
    #[error("session index in {dir}: {source}")]
    Io {
        dir: String,
        #[source]
        source: std::io::Error,
    },
}

/// One file the index holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct FileEntry {
    path: String,
    size: u64,
    mtime_ns: i64,
    rows: Vec<SessionRow>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    version: String,
    files: Vec<FileEntry>,
    /// `files` by path (built on reading, kept on changing).
    #[serde(skip)]
    by_path: HashMap<String, usize>,
}

impl Manifest {
    fn index(&mut self) {
        self.by_path = self
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.clone(), i))
            .collect();
    }
}

/// The fields of an entry's document.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fields {
    pub file: Field,
    pub session: Field,
    pub agent: Field,
    pub item: Field,
    pub call: Field,
    pub tool: Field,
    pub kind: Field,
    pub text: Field,
    pub path: Field,
    pub error: Field,
    pub time: Field,
}

/// The tokenizer of exact, case-blind fields (`tool:bash` finds `Bash`).
const LOWER_RAW: &str = "lower_raw";

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let lower_raw = TextOptions::default().set_stored().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(LOWER_RAW)
            .set_index_option(IndexRecordOption::Basic),
    );
    let fields = Fields {
        file: b.add_text_field("file", STRING | STORED),
        session: b.add_text_field("session", STRING | STORED),
        agent: b.add_text_field("agent", lower_raw.clone()),
        item: b.add_u64_field("item", STORED),
        call: b.add_text_field("call", STRING | STORED),
        tool: b.add_text_field("tool", lower_raw.clone()),
        kind: b.add_text_field("kind", lower_raw),
        text: b.add_text_field("text", TEXT | STORED),
        path: b.add_text_field("path", TEXT),
        error: b.add_bool_field("error", INDEXED | STORED),
        time: b.add_i64_field("time", INDEXED | STORED | FAST),
    };
    (b.build(), fields)
}

/// How far an update got.
#[derive(Debug, Default)]
pub struct Progress {
    pub files: AtomicUsize,
    pub files_total: AtomicUsize,
    pub bytes: AtomicU64,
    pub bytes_total: AtomicU64,
}

impl Progress {
    /// `indexing 12/40 sessions · 310/900 MB`.
    pub fn line(&self) -> String {
        let mb = |b: u64| b.div_ceil(1 << 20);
        format!(
            "indexing {}/{} sessions · {}/{} MB",
            self.files.load(Ordering::Relaxed),
            self.files_total.load(Ordering::Relaxed),
            mb(self.bytes.load(Ordering::Relaxed)),
            mb(self.bytes_total.load(Ordering::Relaxed)),
        )
    }
}

/// What an update did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Updated {
    /// Files read (new or changed).
    pub read: usize,
    /// Files dropped (gone from disk).
    pub dropped: usize,
    pub bytes: u64,
}

/// The session library's index, open.
pub struct Library {
    dir: PathBuf,
    index: Index,
    reader: IndexReader,
    pub(super) fields: Fields,
    manifest: Mutex<Manifest>,
    /// Why it was built anew on opening, if it was.
    rebuilt: Option<String>,
    /// What was closed up on opening (it was readable by other users).
    tightened: Vec<crate::private::Tightened>,
}

impl Library {
    /// Open (or create) the index in `dir`; one that cannot be read is
    /// deleted and created anew ([`Library::rebuilt`] says why).
    pub fn open(dir: &Path) -> Result<Library, LibraryError> {
        let tightened = Library::close_up(dir)?;
        let mut lib = match Library::open_existing(dir) {
            Ok(lib) => lib,
            Err(why) => {
                let existed = dir.join("manifest.json").exists() || dir.join("tantivy").exists();
                let mut lib = Library::create(dir)?;
                if existed {
                    tracing::info!(dir = %dir.display(), why, "rebuilding the session index");
                    lib.rebuilt = Some(why);
                }
                lib
            }
        };
        lib.tightened = tightened;
        Ok(lib)
    }

    /// Delete the index in `dir` and open an empty one (`--reindex`).
    pub fn reset(dir: &Path) -> Result<Library, LibraryError> {
        let tightened = Library::close_up(dir)?;
        let mut lib = Library::create(dir)?;
        lib.tightened = tightened;
        Ok(lib)
    }

    /// `dir` made (0700) or, when it is there, closed up with all it holds.
    fn close_up(dir: &Path) -> Result<Vec<crate::private::Tightened>, LibraryError> {
        let io = |source| LibraryError::Io {
            dir: dir.display().to_string(),
            source,
        };
        if !dir.exists() {
            crate::private::dir(dir).map_err(io)?;
            return Ok(Vec::new());
        }
        Ok(crate::private::tighten_all(dir).map_err(io)?.into_iter().collect())
    }

    /// What was made private on opening: the index, readable by other
    /// users before (one note for the folder and all it holds).
    pub fn tightened(&self) -> &[crate::private::Tightened] {
        &self.tightened
    }

    /// Why the index was built anew when opened (unreadable, or of another
    /// version), if it was.
    pub fn rebuilt(&self) -> Option<&str> {
        self.rebuilt.as_deref()
    }

    fn open_existing(dir: &Path) -> Result<Library, String> {
        let text = std::fs::read_to_string(dir.join("manifest.json"))
            .map_err(|e| format!("no manifest: {e}"))?;
        let mut manifest: Manifest =
            serde_json::from_str(&text).map_err(|e| format!("manifest unreadable: {e}"))?;
        manifest.index();
        if manifest.version != VERSION {
            return Err(format!("written by deck {}", manifest.version));
        }
        let index = Index::open_in_dir(dir.join("tantivy")).map_err(|e| e.to_string())?;
        let (schema, fields) = schema();
        if index.schema() != schema {
            return Err("another schema".into());
        }
        Library::with(dir, index, fields, manifest).map_err(|e| e.to_string())
    }

    fn create(dir: &Path) -> Result<Library, LibraryError> {
        let io = |source| LibraryError::Io {
            dir: dir.display().to_string(),
            source,
        };
        let store = dir.join("tantivy");
        match std::fs::remove_dir_all(&store) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e)),
            _ => {}
        }
        crate::private::dir(&store).map_err(io)?;
        let (schema, fields) = schema();
        let index = Index::create_in_dir(&store, schema).map_err(|e| LibraryError::Index {
            dir: dir.display().to_string(),
            source: e,
        })?;
        let manifest = Manifest {
            version: VERSION.into(),
            ..Manifest::default()
        };
        save(dir, &manifest).map_err(io)?;
        Library::with(dir, index, fields, manifest)
    }

    fn with(
        dir: &Path,
        index: Index,
        fields: Fields,
        manifest: Manifest,
    ) -> Result<Library, LibraryError> {
        index.tokenizers().register(
            LOWER_RAW,
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(LowerCaser)
                .build(),
        );
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| LibraryError::Index {
                dir: dir.display().to_string(),
                source: e,
            })?;
        Ok(Library {
            dir: dir.to_path_buf(),
            index,
            reader,
            fields,
            manifest: Mutex::new(manifest),
            rebuilt: None,
            tightened: Vec::new(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub(super) fn index(&self) -> &Index {
        &self.index
    }

    /// A searcher over what was committed last.
    pub(super) fn searcher(&self) -> tantivy::Searcher {
        if let Err(e) = self.reader.reload() {
            tracing::warn!(error = %e, "reloading the session index");
        }
        self.reader.searcher()
    }

    /// Every session the index holds, newest first.
    pub fn rows(&self) -> Vec<SessionRow> {
        let m = self.manifest.lock().unwrap_or_else(|e| e.into_inner());
        let mut rows: Vec<SessionRow> = m.files.iter().flat_map(|f| f.rows.clone()).collect();
        sort_rows(&mut rows);
        rows
    }

    /// The row of session `id` (or the file's first) of file `path`.
    pub fn row(&self, path: &str, id: Option<&str>) -> Option<SessionRow> {
        let m = self.manifest.lock().unwrap_or_else(|e| e.into_inner());
        let f = m.files.get(*m.by_path.get(path)?)?;
        f.rows
            .iter()
            .find(|r| r.id.as_deref() == id)
            .or(f.rows.first())
            .cloned()
    }

    /// The files of `found` that are new or changed since indexed, and the
    /// paths indexed that are gone.
    fn stale(&self, found: &[Found]) -> (Vec<Found>, Vec<String>) {
        let m = self.manifest.lock().unwrap_or_else(|e| e.into_inner());
        let known: HashMap<&str, (u64, i64)> = m
            .files
            .iter()
            .map(|f| (f.path.as_str(), (f.size, f.mtime_ns)))
            .collect();
        let todo = found
            .iter()
            .filter(|f| known.get(f.path.to_string_lossy().as_ref()) != Some(&(f.size, f.mtime_ns)))
            .cloned()
            .collect();
        let here: std::collections::HashSet<String> = found
            .iter()
            .map(|f| f.path.to_string_lossy().into_owned())
            .collect();
        let gone = m
            .files
            .iter()
            .filter(|f| !here.contains(&f.path))
            .map(|f| f.path.clone())
            .collect();
        (todo, gone)
    }

    /// Bring the index up to date with `found`: read what is new or
    /// changed, drop what is gone; `progress` counts as it goes.
    pub fn update(&self, found: &[Found], progress: &Progress) -> Result<Updated, LibraryError> {
        let (todo, gone) = self.stale(found);
        let bytes_total: u64 = todo.iter().map(|f| f.size).sum();
        progress.files_total.store(todo.len(), Ordering::Relaxed);
        progress.bytes_total.store(bytes_total, Ordering::Relaxed);
        if todo.is_empty() && gone.is_empty() {
            return Ok(Updated::default());
        }
        let dir = self.dir.display().to_string();
        // The indexing arena grows with the work, up to its cap: a small
        // update does not cost a large one's memory.
        let budget = usize::try_from(bytes_total / 4)
            .unwrap_or(WRITER_BUDGET)
            .clamp(WRITER_MIN, WRITER_BUDGET);
        let mut writer: IndexWriter = self
            .index
            .writer_with_num_threads(1, budget)
            .map_err(|e| match e {
                tantivy::TantivyError::LockFailure(..) => LibraryError::Busy(dir.clone()),
                e => LibraryError::Index {
                    dir: dir.clone(),
                    source: e,
                },
            })?;
        let index_err = |e| LibraryError::Index {
            dir: dir.clone(),
            source: e,
        };
        for path in &gone {
            writer.delete_term(Term::from_field_text(self.fields.file, path));
        }
        let mut out = Updated {
            dropped: gone.len(),
            ..Updated::default()
        };
        let mut done: Vec<FileEntry> = Vec::new();
        let mut batch: Vec<Found> = Vec::new();
        let mut batch_bytes = 0;
        let mut todo = todo.into_iter().peekable();
        while let Some(f) = todo.next() {
            batch_bytes += f.size;
            batch.push(f);
            if batch_bytes < BATCH_BYTES && todo.peek().is_some() {
                continue;
            }
            for f in &batch {
                let path = f.path.to_string_lossy();
                writer.delete_term(Term::from_field_text(self.fields.file, &path));
            }
            let entries = Mutex::new(Vec::with_capacity(batch.len()));
            let read_one = |f: &Found| -> tantivy::Result<()> {
                let path = f.path.to_string_lossy().into_owned();
                let mut failed = None;
                let done = read(f, &mut |entry| match entry {
                    Entry::Doc(d) => {
                        if failed.is_none()
                            && let Err(e) = writer.add_document(self.document(&path, d))
                        {
                            failed = Some(e);
                        }
                    }
                    // The file is read again whole: what it gave so far
                    // goes (a delete drops the documents added before it).
                    Entry::Again => {
                        writer.delete_term(Term::from_field_text(self.fields.file, &path));
                    }
                });
                if let Some(e) = failed {
                    return Err(e);
                }
                // Keyed by what was read: its size and time at the start.
                entries
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(FileEntry {
                        path,
                        size: done.size,
                        mtime_ns: done.mtime_ns,
                        rows: done.rows,
                    });
                progress.files.fetch_add(1, Ordering::Relaxed);
                progress.bytes.fetch_add(f.size, Ordering::Relaxed);
                Ok(())
            };
            each_on_threads(&batch, |f| f.size, read_one).map_err(index_err)?;
            writer.commit().map_err(index_err)?;
            self.close_up_store()?;
            out.read += batch.len();
            out.bytes += batch_bytes;
            done.extend(entries.into_inner().unwrap_or_else(|e| e.into_inner()));
            self.note(&done, &gone)?;
            batch.clear();
            batch_bytes = 0;
        }
        if done.is_empty() {
            writer.commit().map_err(index_err)?;
            self.close_up_store()?;
            self.note(&done, &gone)?;
        }
        Ok(out)
    }

    /// What tantivy wrote (its files are 0644 by its own choice) made
    /// private; no note: they are new, and unreachable meanwhile (their
    /// folder is 0700).
    fn close_up_store(&self) -> Result<(), LibraryError> {
        crate::private::tighten_all(&self.dir.join("tantivy"))
            .map(|_| ())
            .map_err(|source| LibraryError::Io {
                dir: self.dir.display().to_string(),
                source,
            })
    }

    /// The manifest with `done` in and `gone` out, saved.
    fn note(&self, done: &[FileEntry], gone: &[String]) -> Result<(), LibraryError> {
        let mut m = self.manifest.lock().unwrap_or_else(|e| e.into_inner());
        let replaced: std::collections::HashSet<&str> = done
            .iter()
            .map(|f| f.path.as_str())
            .chain(gone.iter().map(String::as_str))
            .collect();
        m.files.retain(|f| !replaced.contains(f.path.as_str()));
        m.files.extend(done.iter().cloned());
        m.index();
        save(&self.dir, &m).map_err(|source| LibraryError::Io {
            dir: self.dir.display().to_string(),
            source,
        })
    }

    fn document(&self, file: &str, d: Doc) -> TantivyDocument {
        let f = &self.fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.file, file);
        if let Some(s) = &d.session {
            doc.add_text(f.session, s);
        }
        doc.add_text(f.agent, &d.agent);
        doc.add_u64(f.item, d.item);
        if let Some(c) = &d.call {
            doc.add_text(f.call, c);
        }
        if let Some(t) = &d.tool {
            doc.add_text(f.tool, t);
        }
        doc.add_text(f.kind, &d.kind);
        doc.add_text(f.text, &d.text);
        for p in &d.paths {
            doc.add_text(f.path, p);
        }
        doc.add_bool(f.error, d.error);
        if let Some(t) = d.time {
            doc.add_i64(f.time, t);
        }
        doc
    }
}

/// Newest first (by the last event, else the first), then by path.
pub fn sort_rows(rows: &mut [SessionRow]) {
    rows.sort_by(|a, b| {
        let t = |r: &SessionRow| r.ended.or(r.started).unwrap_or(i64::MIN);
        t(b).cmp(&t(a)).then_with(|| a.path.cmp(&b.path))
    });
}

/// Write the manifest whole (a temporary file, 0600, renamed over the old
/// one).
fn save(dir: &Path, m: &Manifest) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = dir.join("manifest.json.tmp");
    let text = serde_json::to_vec(m).map_err(std::io::Error::other)?;
    let (mut f, _) = crate::private::keep(
        std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true),
        &tmp,
    )?;
    f.write_all(&text)?;
    drop(f);
    std::fs::rename(&tmp, dir.join("manifest.json"))
}
