//! Writing a file whole or not at all: output is staged in a temporary
//! file (next to the destination, or in the temp folder for stdout and for
//! what is not a regular file), checked by the [`Checker`] when it was
//! redacted, and renamed or copied into place only once it passed. The
//! staged file is new (never an existing file or a link left in its place)
//! and private (0600: `crate::private`), so a new export is 0600 too; one
//! that replaces a file keeps that file's mode.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::check::{Checker, Shape};
use crate::text::redact::{Redactor, Tally};

/// The error of an output the check refused.
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
            let mut lines = BufReader::with_capacity(1 << 16, f);
            let mut line = Vec::new();
            let mut checker = Checker::new(r, shape);
            loop {
                line.clear();
                if lines.read_until(b'\n', &mut line)? == 0 {
                    break;
                }
                checker.line(&String::from_utf8_lossy(&line))?;
            }
            let found = checker.finish()?;
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
                crate::commands::shared::output::finish(
                    std::io::copy(&mut f, &mut out).and_then(|_| out.flush()),
                )?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::redact::STOCK;

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
        let r = Redactor::new(STOCK, None).unwrap();
        let mut s = Staged::new(dest.to_str().unwrap()).unwrap();
        writeln!(s.writer(), "password=abcdef123").unwrap();
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
        let r = Redactor::new(STOCK, None).unwrap();
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
