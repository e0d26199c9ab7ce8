//! Sharing without secrets, for the commands that write a session out
//! (`deck export`, on by default; `deck render --redact`): the chosen
//! session's records redacted before the fold (`session::redact`), the
//! `--redact-report`, the last check of what was written, and writing a
//! file whole or not at all.
//!
//! Fails closed: a rule that does not compile, a string that cannot be
//! scanned, or anything in the finished output that a rule still matches
//! stops the command with a message saying why, and the output is not
//! written. Output is staged in a temporary file (next to the
//! destination, or in the temp folder for stdout) and renamed or copied
//! only once it passed. The staged file is new (never an existing file or a
//! link left in its place) and private (0600: `crate::private`), so a new
//! export is 0600 too; one that replaces a file keeps that file's mode.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::session::redact::{self, Hit};
use crate::source::LoadedSession;
use crate::text::redact::{Redactor, Tally};
use crate::text::{entities, sanitize};

/// The redactor, or why there is none (which stops the command).
pub fn redactor() -> anyhow::Result<&'static Redactor> {
    Redactor::stock().map_err(|e| anyhow::anyhow!("{e}: nothing written"))
}

/// Replace `s`'s records by their redacted copies; what was replaced.
pub fn session(r: &Redactor, s: &mut LoadedSession) -> anyhow::Result<Vec<Hit>> {
    let done = redact::records(r, s.id.as_deref(), &s.records)
        .map_err(|e| anyhow::anyhow!("{e}: nothing written"))?;
    s.records = done.records;
    // The header is not drawn, but nothing unredacted is kept.
    s.header = None;
    Ok(done.hits)
}

/// Session `id` (default: the first) of the input at `path`, taken out of
/// what was loaded (held once), redacted when `redactor` is given — the
/// messages of a load that fails too — and what was replaced. The other
/// sessions of the input are said on stderr (`deck export`, `deck render`).
pub fn take_session(
    path: &str,
    id: Option<&str>,
    redactor: Option<&Redactor>,
) -> anyhow::Result<(LoadedSession, Vec<Hit>)> {
    let scrub = |e: anyhow::Error| match redactor {
        Some(r) => error(r, super::error_message(&e)),
        None => e,
    };
    let mut loaded = crate::source::load_path(path).map_err(|e| scrub(e.into()))?;
    let at = loaded.session(id).map_err(|e| scrub(e.into()))?.id.clone();
    super::report_other_sessions(&loaded, id);
    let mut s = loaded
        .sessions
        .iter()
        .position(|x| x.id == at)
        .map(|i| loaded.sessions.swap_remove(i))
        .unwrap_or_default();
    drop(loaded);
    let hits = match redactor {
        Some(r) => session(r, &mut s)?,
        None => Vec::new(),
    };
    Ok((s, hits))
}

/// One string redacted (a title, a label), or why it cannot be.
pub fn text(r: &Redactor, s: &str) -> anyhow::Result<String> {
    r.redact(s, &mut Tally::default())
        .map(std::borrow::Cow::into_owned)
        .map_err(|e| anyhow::anyhow!("{e}: nothing written"))
}

/// An error whose message may quote the input (a damaged line's
/// snippet), redacted; one that cannot be is replaced by a plain one.
pub fn error(r: &Redactor, e: impl std::fmt::Display) -> anyhow::Error {
    let msg = e.to_string();
    match r.redact(&msg, &mut Tally::default()) {
        Ok(m) => anyhow::anyhow!("{m}"),
        Err(_) => anyhow::anyhow!("the input cannot be read (its message is too long to redact)"),
    }
}

/// Say on stderr what was redacted: with `list`, a line per kind and card
/// (`redacted kind=K session=S card=C count=N`, never a value), then a total.
pub fn report(hits: &[Hit], list: bool) {
    if list {
        for h in hits {
            eprintln!(
                "{}",
                sanitize::inline(&format!(
                    "redacted kind={} session={} card={} count={}",
                    h.kind,
                    h.session.as_deref().unwrap_or("-"),
                    h.card,
                    h.count
                ))
            );
        }
    }
    let n: usize = hits.iter().map(|h| h.count).sum();
    if n > 0 {
        let mut kinds: Vec<&str> = hits.iter().map(|h| h.kind.as_str()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        eprintln!(
            "deck: redacted {n} secret{} ({}){}",
            if n == 1 { "" } else { "s" },
            kinds.join(", "),
            if list {
                ""
            } else {
                "; --redact-report lists them"
            }
        );
    }
}

/// How written output is read for the last check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Markup: tags dropped, entities decoded.
    Html,
    /// An asciicast: each line's JSON strings, terminal controls dropped.
    Cast,
    /// Text, maybe with terminal controls (render's formats).
    Text,
}

/// What a line of output shows a reader: the text the rules are checked on.
pub fn shown(line: &str, shape: Shape) -> Vec<String> {
    match shape {
        Shape::Html => {
            // The text, and the links' targets (inside tags).
            let mut out = vec![entities::decode(&strip_tags(line))];
            let mut rest = line;
            while let Some(at) = rest.find("href=\"") {
                rest = &rest[at + 6..];
                let end = rest.find('"').unwrap_or(rest.len());
                out.push(entities::decode(&rest[..end]));
                rest = &rest[end..];
            }
            out
        }
        Shape::Text => vec![strip_controls(line)],
        Shape::Cast => match serde_json::from_str::<serde_json::Value>(line) {
            Ok(serde_json::Value::Array(a)) => a
                .iter()
                .filter_map(serde_json::Value::as_str)
                .map(strip_controls)
                .collect(),
            // The header (an object) and anything else: as it is.
            _ => vec![line.to_string()],
        },
    }
}

/// The kinds the rules still find in `text` read as `shape`.
pub fn leaks(r: &Redactor, text: &str, shape: Shape) -> anyhow::Result<Tally> {
    let mut all = Tally::default();
    for line in text.lines() {
        for s in shown(line, shape) {
            all.merge(&r.leaks(&s)?);
        }
    }
    Ok(all)
}

fn refuse(found: &Tally) -> anyhow::Error {
    let kinds: Vec<String> = found.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
    anyhow::anyhow!(
        "the output still matches redaction rules ({}) after redacting the session: nothing written",
        kinds.join(", ")
    )
}

/// Where staged output goes once checked.
enum Dest {
    Stdout,
    /// A new or regular file: the staged file (beside it) renamed over it.
    Rename(PathBuf),
    /// Anything else that exists — a device (`/dev/null`), a pipe, a
    /// symbolic link — is written through, never replaced: the staged
    /// file (in the temp folder) copied into it.
    Through(PathBuf),
}

/// Output written to a temporary file first: [`Staged::finish`] checks
/// it and moves it into place; dropped unfinished, it is removed.
pub struct Staged {
    tmp: PathBuf,
    dest: Dest,
    out: BufWriter<File>,
}

impl Staged {
    /// Stage output for `dest` (`-`: stdout).
    pub fn new(dest: &str) -> anyhow::Result<Staged> {
        let pid = std::process::id();
        let in_temp = || std::env::temp_dir().join(format!("deck-export-{pid}"));
        let (base, dest) = if dest == "-" {
            (in_temp(), Dest::Stdout)
        } else {
            let d = PathBuf::from(dest);
            match std::fs::symlink_metadata(&d) {
                Ok(m) if !m.file_type().is_file() => (in_temp(), Dest::Through(d)),
                _ => {
                    let name = d
                        .file_name()
                        .map_or_else(|| "out".to_string(), |n| n.to_string_lossy().into_owned());
                    (
                        d.with_file_name(format!(".{name}.deck-{pid}")),
                        Dest::Rename(d),
                    )
                }
            }
        };
        let (f, tmp) = crate::private::create_new(&base, ".tmp")
            .map_err(|e| anyhow::anyhow!("cannot write {}.tmp: {e}", shown_path(&base)))?;
        Ok(Staged {
            tmp,
            dest,
            out: BufWriter::with_capacity(1 << 16, f),
        })
    }

    /// Where to write.
    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.out
    }

    /// Flush, check with `check` (each line as `shape` shows it), then move
    /// the file into place (or copy it to stdout).
    pub fn finish(mut self, check: Option<(&Redactor, Shape)>) -> anyhow::Result<()> {
        self.out.flush()?;
        if let Some((r, shape)) = check {
            let f = File::open(&self.tmp)?;
            let mut lines = BufReader::new(f);
            let mut line = String::new();
            let mut found = Tally::default();
            loop {
                line.clear();
                if lines.read_line(&mut line)? == 0 {
                    break;
                }
                for s in shown(&line, shape) {
                    found.merge(&r.leaks(&s)?);
                }
            }
            if !found.is_empty() {
                return Err(refuse(&found));
            }
        }
        match &self.dest {
            Dest::Rename(d) => {
                // A file replaced keeps its mode (the user's choice); a new
                // one stays 0600.
                if let Some(m) = std::fs::metadata(d).ok().filter(|m| m.is_file()) {
                    std::fs::set_permissions(&self.tmp, m.permissions())?;
                }
                std::fs::rename(&self.tmp, d)
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", shown_path(d)))?
            }
            Dest::Through(d) => {
                let mut f = File::open(&self.tmp)?;
                let copied = std::fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(d)
                    .and_then(|mut out| std::io::copy(&mut f, &mut out).and_then(|_| out.flush()));
                copied.map_err(|e| anyhow::anyhow!("cannot write {}: {e}", shown_path(d)))?;
            }
            Dest::Stdout => {
                let mut f = File::open(&self.tmp)?;
                let mut out = std::io::stdout().lock();
                super::finish(std::io::copy(&mut f, &mut out).and_then(|_| out.flush()))?;
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        // Finished: moved away (or copied and removed); else never shown.
        let _ = std::fs::remove_file(&self.tmp);
    }
}

fn shown_path(p: &Path) -> String {
    p.display().to_string()
}

/// `s` without markup tags (`<…>`; text `<` is written `&lt;`).
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match (in_tag, c) {
            (false, '<') => in_tag = true,
            (true, '>') => in_tag = false,
            (false, c) => out.push(c),
            _ => {}
        }
    }
    out
}

/// Terminal text as a reader sees it: SGR (styles) dropped, so styled runs
/// join as on screen; other controls (cursor moves, OSC) become line breaks,
/// so what is apart on screen stays apart; an OSC's text (a link's URL) is
/// kept on its own line.
fn strip_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\u{1b}' {
            if c.is_control() && c != '\n' && c != '\t' {
                out.push('\n');
            } else {
                out.push(c);
            }
            continue;
        }
        match it.next() {
            Some('[') => {
                let mut last = None;
                for d in it.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&d) {
                        last = Some(d);
                        break;
                    }
                }
                if last != Some('m') {
                    out.push('\n');
                }
            }
            Some(']') => {
                out.push('\n');
                while let Some(d) = it.next() {
                    if d == '\u{7}' {
                        break;
                    }
                    if d == '\u{1b}' {
                        if it.peek() == Some(&'\\') {
                            it.next();
                        }
                        break;
                    }
                    out.push(d);
                }
                out.push('\n');
            }
            _ => out.push('\n'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::redact::RULES;

    #[test]
    fn html_is_read_as_its_text() {
        let r = Redactor::new(RULES, None).unwrap();
        let line = "<span>password=</span><span style=\"x\">&quot;hunter2&quot;</span>";
        assert!(!leaks(&r, line, Shape::Html).unwrap().is_empty());
        let ok = "<span>password=&quot;‹redacted:password›&quot;</span>";
        assert!(leaks(&r, ok, Shape::Html).unwrap().is_empty());
        let link = "<a href=\"https://u:pw@x.org/\">x.org</a>";
        assert!(!leaks(&r, link, Shape::Html).unwrap().is_empty());
    }

    #[test]
    fn styled_runs_join_and_moves_split() {
        assert_eq!(strip_controls("sk-\u{1b}[31mant\u{1b}[0m"), "sk-ant");
        assert_eq!(strip_controls("a\u{1b}[2;3Hb"), "a\nb");
        assert_eq!(
            strip_controls("\u{1b}]8;;https://x\u{1b}\\link\u{1b}]8;;\u{1b}\\"),
            "\n8;;https://x\nlink\n8;;\n"
        );
        let cast = r#"[0.5, "o", "\u001b[1mAKIAFAKE0\u001b[0mKEY1FOR2DCK"]"#;
        let r = Redactor::new(RULES, None).unwrap();
        assert!(!leaks(&r, cast, Shape::Cast).unwrap().is_empty());
    }

    #[test]
    fn what_is_staged_is_private_and_new() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out.html");
        // A link where the staged file would go is not written through.
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let first = dir
            .path()
            .join(format!(".out.html.deck-{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &first).unwrap();
        for d in [dest.to_str().unwrap(), "-"] {
            let mut s = Staged::new(d).unwrap();
            writeln!(s.writer(), "session text").unwrap();
            s.out.flush().unwrap();
            let mode = std::fs::metadata(&s.tmp).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{}", s.tmp.display());
            assert_ne!(s.tmp, first);
        }
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    }

    #[test]
    fn a_refused_output_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("deck-staged-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.html");
        let r = Redactor::new(RULES, None).unwrap();
        let mut s = Staged::new(dest.to_str().unwrap()).unwrap();
        writeln!(s.writer(), "token=abcdef123").unwrap();
        let err = s.finish(Some((&r, Shape::Html))).unwrap_err();
        assert!(err.to_string().contains("password"), "{err}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let mut s = Staged::new(dest.to_str().unwrap()).unwrap();
        writeln!(s.writer(), "fine").unwrap();
        s.finish(Some((&r, Shape::Html))).unwrap();
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "fine\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn what_is_not_a_regular_file_is_written_through_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let r = Redactor::new(RULES, None).unwrap();
        // A symbolic link: its file gets the output, the link stays.
        let target = dir.path().join("real.html");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.html");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut s = Staged::new(link.to_str().unwrap()).unwrap();
        writeln!(s.writer(), "new").unwrap();
        s.finish(Some((&r, Shape::Html))).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
        // A pipe (as /dev/null is a device): still a pipe, its reader
        // gets the output; nothing staged beside it.
        let fifo = dir.path().join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string, a plain mkfifo(3).
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        let mut s = Staged::new(fifo.to_str().unwrap()).unwrap();
        writeln!(s.writer(), "through").unwrap();
        s.finish(Some((&r, Shape::Html))).unwrap();
        assert_eq!(reader.join().unwrap(), "through\n");
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo()
        );
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
    }
}
