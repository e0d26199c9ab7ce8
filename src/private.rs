//! What deck writes to disk is its user's only: session text ends up in the
//! library's index and manifest, the log, the prompt history, recordings
//! and staged exports. This module owns how such folders and files are
//! made — folders 0700, files 0600, created so from their first byte (not
//! made and then closed up) — and how one that is already there, readable
//! by other users, is tightened: it hands back a [`Tightened`] note for the
//! caller to say ([`say`] writes it on stderr, before any TUI is drawn).
//!
//! Must not: pick paths (the callers know them), print on its own, or
//! change what is not deck's: a folder above deck's own that exists (a
//! user's `~/.cache`) keeps its mode, and so does a file the user named as
//! an output ([`create`]); only deck's own files ([`keep`]) are tightened.

use std::fs::{DirBuilder, File, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The mode of a folder deck makes.
pub const DIR_MODE: u32 = 0o700;
/// The mode of a file deck makes.
pub const FILE_MODE: u32 = 0o600;

/// Permission bits that let another user in.
const OTHERS: u32 = 0o077;

/// A path deck made private that other users could read, and how many
/// paths under it were (for a folder closed up with what it holds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tightened {
    pub path: PathBuf,
    /// Paths that were open to others: the path itself and those in it.
    pub count: usize,
}

impl std::fmt::Display for Tightened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.count > 1 {
            format!("{} paths in it were", self.count)
        } else {
            "it was".to_string()
        };
        write!(
            f,
            "made {} private: {what} readable by other users",
            self.path.display()
        )
    }
}

/// Say `note` on stderr, one line (sanitized: a path may hold anything).
pub fn say(note: &Tightened) {
    eprintln!(
        "{}",
        crate::text::sanitize::message(&format!("deck: {note}"))
    );
}

/// [`say`] each of `notes`.
pub fn say_all<'a>(notes: impl IntoIterator<Item = &'a Tightened>) {
    for n in notes {
        say(n);
    }
}

/// The folder `path`, made 0700 with every missing folder above it (so a
/// `~/.cache` deck has to make is 0700 too); when it was already there and
/// open to others, it is tightened (the folders above it are not deck's
/// to change).
pub fn dir(path: &Path) -> io::Result<Option<Tightened>> {
    if std::fs::metadata(path).is_ok() {
        return tighten(path);
    }
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(path)?;
    Ok(None)
}

/// Take the bits that let others in off `path` (a file or a folder, its
/// link followed); anything else — a device, a pipe — is left alone.
pub fn tighten(path: &Path) -> io::Result<Option<Tightened>> {
    let meta = std::fs::metadata(path)?;
    let mode = meta.permissions().mode();
    if !(meta.is_file() || meta.is_dir()) || mode & OTHERS == 0 {
        return Ok(None);
    }
    std::fs::set_permissions(path, Permissions::from_mode(mode & 0o7700))?;
    Ok(Some(Tightened {
        path: path.to_path_buf(),
        count: 1,
    }))
}

/// `root` and everything in it tightened (links not followed): one note
/// for all, naming `root`, when anything was open to others.
pub fn tighten_all(root: &Path) -> io::Result<Option<Tightened>> {
    let mut count = usize::from(tighten(root)?.is_some());
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_symlink() {
                continue;
            }
            let path = entry.path();
            // A file tantivy removes meanwhile is not an error.
            match tighten(&path) {
                Ok(t) => count += usize::from(t.is_some()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
            }
            if kind.is_dir() {
                todo.push(path);
            }
        }
    }
    Ok((count > 0).then(|| Tightened {
        path: root.to_path_buf(),
        count,
    }))
}

/// Open `path` as `opts` say; a file it creates is 0600. One that was there
/// keeps its mode: it is the user's (an output they named).
pub fn create(opts: &mut OpenOptions, path: &Path) -> io::Result<File> {
    opts.mode(FILE_MODE).open(path)
}

/// Open one of deck's own files (the log, the history, the manifest) as
/// `opts` say: created 0600, and tightened when it was there open to others.
pub fn keep(opts: &mut OpenOptions, path: &Path) -> io::Result<(File, Option<Tightened>)> {
    let file = create(opts, path)?;
    let meta = file.metadata()?;
    let mode = meta.permissions().mode();
    let mut note = None;
    if meta.is_file() && mode & OTHERS != 0 {
        file.set_permissions(Permissions::from_mode(mode & 0o7700))?;
        note = Some(Tightened {
            path: path.to_path_buf(),
            count: 1,
        });
    }
    Ok((file, note))
}

/// A new file for `path`'s staging, beside it: `path` with `suffix` and,
/// when that name is taken, a number (never an existing file, never
/// through a link someone left there: `O_EXCL`), created 0600.
pub fn create_new(path: &Path, suffix: &str) -> io::Result<(File, PathBuf)> {
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let mut last = None;
    for n in 0..100u32 {
        let tail = if n == 0 { String::new() } else { format!("-{n}") };
        let candidate = path.with_file_name(format!("{name}{tail}{suffix}"));
        match create(OpenOptions::new().write(true).create_new(true), &candidate) {
            Ok(f) => return Ok((f, candidate)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    fn set(p: &Path, m: u32) {
        std::fs::set_permissions(p, Permissions::from_mode(m)).unwrap();
    }

    #[test]
    fn folders_are_made_0700_with_the_missing_ones_above() {
        let root = tempfile::tempdir().unwrap();
        let cache = root.path().join("cache");
        let deck = cache.join("deck/index");
        assert_eq!(dir(&deck).unwrap(), None, "made, not tightened");
        for p in [&cache, &cache.join("deck"), &deck] {
            assert_eq!(mode(p), 0o700, "{}", p.display());
        }
        // Already there and open: tightened with a note; the folder above,
        // not deck's, keeps its mode.
        set(&cache, 0o755);
        set(&deck, 0o755);
        let note = dir(&deck).unwrap().expect("a note");
        assert_eq!(note.path, deck);
        assert!(note.to_string().contains("private"), "{note}");
        assert_eq!(mode(&deck), 0o700);
        assert_eq!(mode(&cache), 0o755);
        assert_eq!(dir(&deck).unwrap(), None, "nothing to say twice");
    }

    #[test]
    fn own_files_are_made_0600_and_closed_up() {
        let root = tempfile::tempdir().unwrap();
        let log = root.path().join("deck.log");
        let (_, note) = keep(OpenOptions::new().create(true).append(true), &log).unwrap();
        assert_eq!((mode(&log), note), (0o600, None));
        set(&log, 0o644);
        let (_, note) = keep(OpenOptions::new().create(true).append(true), &log).unwrap();
        assert_eq!(mode(&log), 0o600);
        assert_eq!(note.map(|n| n.path), Some(log.clone()));
    }

    #[test]
    fn outputs_are_created_0600_and_a_named_one_keeps_its_mode() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("rec.jsonl");
        create(OpenOptions::new().write(true).create(true).truncate(true), &out).unwrap();
        assert_eq!(mode(&out), 0o600);
        set(&out, 0o644);
        create(OpenOptions::new().write(true).create(true).truncate(true), &out).unwrap();
        assert_eq!(mode(&out), 0o644);
        // A device is never touched.
        let null = Path::new("/dev/null");
        let before = mode(null);
        assert_eq!(tighten(null).unwrap(), None);
        assert_eq!(mode(null), before);
    }

    #[test]
    fn a_tree_is_closed_up_with_one_note() {
        let root = tempfile::tempdir().unwrap();
        let index = root.path().join("index");
        std::fs::create_dir_all(index.join("store")).unwrap();
        std::fs::write(index.join("manifest.json"), "{}").unwrap();
        std::fs::write(index.join("store/seg"), "x").unwrap();
        set(&index, 0o755);
        set(&index.join("store"), 0o755);
        set(&index.join("manifest.json"), 0o644);
        set(&index.join("store/seg"), 0o644);
        let note = tighten_all(&index).unwrap().expect("a note");
        assert_eq!((note.path.clone(), note.count), (index.clone(), 4));
        assert!(note.to_string().contains("4 paths"), "{note}");
        assert_eq!(mode(&index.join("store/seg")), 0o600);
        assert_eq!(mode(&index.join("store")), 0o700);
        assert_eq!(tighten_all(&index).unwrap(), None);
    }

    #[test]
    fn staging_files_are_new_and_0600() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("out.html");
        // A link left where the first name would be is not written through.
        let target = root.path().join("victim");
        std::fs::write(&target, "keep").unwrap();
        std::os::unix::fs::symlink(&target, root.path().join("out.html.tmp")).unwrap();
        let (_, staged) = create_new(&dest, ".tmp").unwrap();
        assert_eq!(staged, root.path().join("out.html-1.tmp"));
        assert_eq!(mode(&staged), 0o600);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    }
}
