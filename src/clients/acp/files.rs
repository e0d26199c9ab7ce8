//! The file requests an ACP agent makes of deck (`fs/read_text_file`,
//! `fs/write_text_file`), served only beneath the session's directory and
//! only when they name a regular file. The directory is opened once
//! ([`Root`], a `cap-std` capability) and every path is opened through it:
//! the kernel resolves it beneath the directory (`openat2` with
//! `RESOLVE_BENEATH` on Linux, cap-std's own walk elsewhere), so a link
//! leading out — dangling or not, absolute or `..` — fails the open itself;
//! nothing is checked first and opened after. A file is opened
//! non-blocking (a FIFO cannot hold deck) and served only when the opened
//! file is a regular one, within a size limit; [`within`] puts a time
//! limit on the whole of it. A refusal is a [`Refused`] the client answers
//! with a JSON-RPC error and says to the user; it names the path asked.
//! What this module must not do: touch a path by name outside [`Root`].

use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use agent_client_protocol_schema::v1 as acp;
use cap_std::fs::{Dir, FileType, FileTypeExt, OpenOptions, OpenOptionsExt};
use serde_json::Value;

use super::protocol::{self, Refused};


/// JSON-RPC "invalid params": a path outside the cwd, not absolute, or not
/// a regular file.
const INVALID: i64 = -32602;
/// ACP "resource not found": no such file.
const NOT_FOUND: i64 = -32002;
/// JSON-RPC "internal error": the file system said no, or took too long.
const INTERNAL: i64 = -32603;

/// How long one file request may take before it is answered with an error.
pub const FILE_TIME: Duration = Duration::from_secs(5);

/// The session's directory, as a capability: the only way in to its files.
#[derive(Debug)]
pub struct Root {
    dir: Dir,
    /// Its canonical path: what the agent's absolute paths start with.
    path: PathBuf,
}

impl Root {
    /// Open `path` (canonical) as the root of what is served.
    pub fn open(path: &Path) -> io::Result<Root> {
        let dir = Dir::open_ambient_dir(path, cap_std::ambient_authority())?;
        Ok(Root {
            dir,
            path: path.to_path_buf(),
        })
    }

    /// The path asked, relative to the root: it must be absolute and start
    /// with the root's path (as written: `..` inside it is resolved by the
    /// open, beneath the root).
    fn relative(&self, asked: &str) -> Result<PathBuf, Refused> {
        let p = Path::new(asked);
        if !p.is_absolute() {
            return Err(Refused::new(INVALID, format!("not an absolute path: {asked}")));
        }
        let rel = p.strip_prefix(&self.path).map_err(|_| self.outside(asked))?;
        if rel.components().all(|c| matches!(c, Component::CurDir)) {
            return Err(Refused::new(
                INVALID,
                format!("{asked} is the session directory, not a file: deck serves regular files only"),
            ));
        }
        Ok(rel.to_path_buf())
    }

    fn outside(&self, asked: &str) -> Refused {
        Refused::new(
            INVALID,
            format!("{asked} is outside the session directory {}", self.path.display()),
        )
    }

    /// The refusal for an error opening, reading or writing `asked`.
    fn failed(&self, asked: &str, rel: &Path, access: Access, e: io::Error) -> Refused {
        let method = access.method();
        if let Some(t) = kind_of(&e) {
            return not_regular(asked, t);
        }
        if escapes(&e) {
            return self.outside(asked);
        }
        if e.kind() == io::ErrorKind::NotFound {
            return Refused::new(NOT_FOUND, format!("{method} {asked}: {e}"));
        }
        // ENXIO: a socket, or a FIFO no one reads; EEXIST: a link where a
        // folder is made; ELOOP, EISDIR …: say what is there (looked up
        // beneath the root, only to say it).
        match self.dir.metadata(rel) {
            Err(m) if escapes(&m) => self.outside(asked),
            Ok(m) if !m.is_file() => not_regular(asked, m.file_type()),
            _ => Refused::new(INTERNAL, format!("{method} {asked}: {e}")),
        }
    }
}

/// Whether `e` is cap-std's "a path led outside of the filesystem" (it
/// carries no OS error, unlike a file the system does not let deck open).
fn escapes(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::PermissionDenied && e.raw_os_error().is_none()
}

/// The refusal of something that is not a regular file, saying what it is.
fn not_regular(asked: &str, t: FileType) -> Refused {
    let what = if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    };
    Refused::new(
        INVALID,
        format!("{asked} is not a regular file ({what}): deck serves regular files only"),
    )
}

/// Options that never block on the open (a FIFO, a device) nor make a
/// terminal deck's controlling one.
fn options() -> OpenOptions {
    let mut o = OpenOptions::new();
    o.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    o
}

/// `f` on a blocking thread, answered within `limit`: past it, an error
/// (the thread is left to finish; the session goes on).
pub async fn within<F>(limit: Duration, f: F) -> Result<Value, Refused>
where
    F: FnOnce() -> Result<Value, Refused> + Send + 'static,
{
    match tokio::time::timeout(limit, tokio::task::spawn_blocking(f)).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => Err(Refused::new(INTERNAL, format!("the file request failed: {e}"))),
        Err(_) => Err(Refused::new(
            INTERNAL,
            format!("the file system did not answer within {} s", limit.as_secs()),
        )),
    }
}

/// `fs/read_text_file {path, line?, limit?}`: `{content}`. A file that
/// is not there is "resource not found", as the protocol says.
pub fn read(root: &Root, p: &acp::ReadTextFileRequest) -> Result<Value, Refused> {
    let asked = &*p.path.to_string_lossy();
    let rel = root.relative(asked)?;
    let text = read_at_most(root, &rel, most_served()).map_err(|e| root.failed(asked, &rel, Access::Read, e))?;
    let text = String::from_utf8_lossy(&text);
    let line = p.line.unwrap_or(1).max(1) as usize;
    let limit = p.limit.map(|l| l as usize);
    let content = if line == 1 && limit.is_none() {
        text.into_owned()
    } else {
        let lines = text.split_inclusive('\n').skip(line - 1);
        match limit {
            Some(n) => lines.take(n).collect(),
            None => lines.collect(),
        }
    };
    Ok(protocol::read_answer(content))
}

/// The most of a file deck sends an agent: its answer is one line of the
/// recording, which must stay readable (escaped text can double).
fn most_served() -> usize {
    crate::source::limits::max_line() / 2
}

/// An error saying what the opened file is, when it is not a regular one.
struct NotRegular(FileType);

impl std::fmt::Debug for NotRegular {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a regular file")
    }
}

impl std::fmt::Display for NotRegular {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a regular file")
    }
}

impl std::error::Error for NotRegular {}

/// The file opened beneath the root, when it is a regular file.
fn open_regular(root: &Root, rel: &Path, o: &OpenOptions) -> io::Result<std::fs::File> {
    let file = root.dir.open_with(rel, o)?;
    let t = file.metadata()?.file_type();
    if !t.is_file() {
        return Err(io::Error::other(NotRegular(t)));
    }
    Ok(file.into_std())
}

/// A file's bytes, or an error when it holds more than `most` (never read
/// past that).
fn read_at_most(root: &Root, rel: &Path, most: usize) -> io::Result<Vec<u8>> {
    let mut o = options();
    o.read(true);
    let mut bytes = Vec::new();
    open_regular(root, rel, &o)?
        .take(most as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > most {
        return Err(io::Error::other(format!(
            "it holds more than the {most} bytes deck sends an agent"
        )));
    }
    Ok(bytes)
}

/// What an agent asked of a file, named in a refusal by the request's
/// method.
#[derive(Debug, Clone, Copy)]
enum Access {
    Read,
    Write,
}

impl Access {
    fn method(self) -> &'static str {
        match self {
            Access::Read => "fs/read_text_file",
            Access::Write => "fs/write_text_file",
        }
    }
}

/// `fs/write_text_file {path, content}`: `{}` once written (its folders
/// made, beneath the root).
pub fn write(root: &Root, p: &acp::WriteTextFileRequest) -> Result<Value, Refused> {
    let asked = &*p.path.to_string_lossy();
    let rel = root.relative(asked)?;
    if let Some(dir) = rel.parent().filter(|d| !d.as_os_str().is_empty()) {
        root.dir
            .create_dir_all(dir)
            .map_err(|e| root.failed(asked, dir, Access::Write, e))?;
    }
    let mut o = options();
    o.write(true).create(true).truncate(true);
    open_regular(root, &rel, &o)
        .and_then(|mut f| f.write_all(p.content.as_bytes()))
        .map_err(|e| root.failed(asked, &rel, Access::Write, e))?;
    Ok(protocol::write_answer())
}

/// What the opened file was, from an error of [`open_regular`] refusing
/// it (else `None`).
fn kind_of(e: &io::Error) -> Option<FileType> {
    e.get_ref()?.downcast_ref::<NotRegular>().map(|n| n.0)
}

#[cfg(test)]
mod tests;
