//! The file requests an ACP agent makes of deck (`fs/read_text_file`,
//! `fs/write_text_file`), served only inside the session's working
//! directory: a path is resolved (symbolic links followed, `..` taken) and
//! must lie under the canonical cwd; anything else is refused. A refusal
//! is a [`Refused`] the client answers with a JSON-RPC error and says to
//! the user.

use std::path::{Component, Path, PathBuf};

use agent_client_protocol_schema::v1 as acp;
use serde_json::Value;

use super::protocol;

/// Why a file request is not served: the JSON-RPC error's code and message.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub code: i64,
    pub message: String,
}

impl Refused {
    fn new(code: i64, message: impl Into<String>) -> Refused {
        Refused {
            code,
            message: message.into(),
        }
    }
}

/// JSON-RPC "invalid params": a path outside the cwd, or none.
const INVALID: i64 = -32602;
/// ACP "resource not found": no such file.
const NOT_FOUND: i64 = -32002;
/// JSON-RPC "internal error": the file system said no.
const INTERNAL: i64 = -32603;

/// `path` resolved, when it lies inside `root` (canonical). A file that
/// does not exist yet is resolved through its nearest existing ancestor.
pub fn inside(root: &Path, path: &str) -> Result<PathBuf, Refused> {
    let p = Path::new(path);
    if !p.is_absolute() {
        return Err(Refused::new(INVALID, format!("not an absolute path: {path}")));
    }
    // Walk up to the nearest ancestor that exists, canonicalize it, and
    // put the missing rest back (which must be plain names).
    let mut existing = p.to_path_buf();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    let resolved = loop {
        match existing.canonicalize() {
            Ok(c) => break c,
            Err(_) => {
                let name = existing.file_name().map(|n| n.to_os_string());
                match (name, existing.parent()) {
                    (Some(n), Some(parent)) => {
                        rest.push(n);
                        existing = parent.to_path_buf();
                    }
                    _ => return Err(outside(path, root)),
                }
            }
        }
    };
    let mut full = resolved;
    for n in rest.iter().rev() {
        if Path::new(n).components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(outside(path, root));
        }
        full.push(n);
    }
    if full.starts_with(root) {
        Ok(full)
    } else {
        Err(outside(path, root))
    }
}

fn outside(path: &str, root: &Path) -> Refused {
    Refused::new(
        INVALID,
        format!("{path} is outside the session directory {}", root.display()),
    )
}

/// `fs/read_text_file {path, line?, limit?}`: `{content}`. A file that
/// is not there is "resource not found", as the protocol says.
pub fn read(root: &Path, p: &acp::ReadTextFileRequest) -> Result<Value, Refused> {
    let path = &*p.path.to_string_lossy();
    let full = inside(root, path)?;
    let text = read_at_most(&full, most_served()).map_err(|e| {
        let code = if e.kind() == std::io::ErrorKind::NotFound { NOT_FOUND } else { INTERNAL };
        Refused::new(code, format!("cannot read {path}: {e}"))
    })?;
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

/// A file's bytes, or an error when it holds more than `most` (never read
/// past that).
fn read_at_most(path: &Path, most: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(most as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > most {
        return Err(std::io::Error::other(format!(
            "it holds more than the {most} bytes deck sends an agent"
        )));
    }
    Ok(bytes)
}

/// `fs/write_text_file {path, content}`: `{}` once written.
pub fn write(root: &Path, p: &acp::WriteTextFileRequest) -> Result<Value, Refused> {
    let path = &*p.path.to_string_lossy();
    let content = &p.content;
    let full = inside(root, path)?;
    if let Some(dir) = full.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Refused::new(INTERNAL, format!("cannot write {path}: {e}")))?;
    }
    std::fs::write(&full, content).map_err(|e| Refused::new(INTERNAL, format!("cannot write {path}: {e}")))?;
    Ok(protocol::write_answer())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_what_deck_sends_is_refused_not_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.txt");
        std::fs::write(&p, "x".repeat(5000)).unwrap();
        assert_eq!(read_at_most(&p, 5000).unwrap().len(), 5000);
        let err = read_at_most(&p, 4999).unwrap_err().to_string();
        assert!(err.contains("more than the 4999 bytes"), "{err}");
    }

    #[test]
    fn paths_inside_are_served_and_others_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("a.txt"), "one\ntwo\nthree\n").unwrap();
        let p = |s: &str| root.join(s).to_string_lossy().into_owned();
        let rd = |path: String| acp::ReadTextFileRequest::new("s", path);
        let wr = |path: String, text: &str| acp::WriteTextFileRequest::new("s", path, text);
        let got = read(&root, &rd(p("a.txt")).line(2).limit(1)).unwrap();
        assert_eq!(got["content"], "two\n");
        assert!(read(&root, &rd("/etc/passwd".into())).is_err());
        assert!(read(&root, &rd(p("../x"))).is_err());
        assert!(read(&root, &rd("a.txt".into())).is_err());
        // A file not there: the protocol's "resource not found".
        assert_eq!(read(&root, &rd(p("missing.txt"))).unwrap_err().code, -32002);
        assert!(write(&root, &wr(p("new/b.txt"), "hi")).is_ok());
        assert_eq!(std::fs::read_to_string(root.join("new/b.txt")).unwrap(), "hi");
        assert!(write(&root, &wr(p("nope/../../escape"), "x")).is_err());
        std::os::unix::fs::symlink("/etc", root.join("link")).unwrap();
        assert!(read(&root, &rd(p("link/passwd"))).is_err());
    }
}
