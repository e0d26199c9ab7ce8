//! The folder walks the agents share to list their sessions (for the
//! library) and find the newest one for a directory (for `deck follow
//! --latest`). Only names and metadata are read here.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How deep folders are walked below an agent's folder.
pub const DEPTH: usize = 8;

/// A file's name, `""` when it has none that is UTF-8.
pub fn name(p: &Path) -> &str {
    p.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// Whether `p`'s extension is `ext`.
pub fn has_ext(p: &Path, ext: &str) -> bool {
    p.extension().is_some_and(|e| e == ext)
}

/// The folders right in `dir` (not through symlinks).
pub fn dirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    rd.filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect()
}

/// The files under `dir`, `depth` folders deep at most; symlinked folders
/// are not entered (no loops), symlinked files are listed.
pub fn files_under(dir: &Path, depth: usize) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), depth)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                if depth > 0 {
                    stack.push((e.path(), depth - 1));
                }
            } else {
                out.push(e.path());
            }
        }
    }
    out
}

/// The files right in `dir` (symlinks followed).
pub fn files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default()
}

/// Every file under `dir`, `depth` folders deep at most (symlinks
/// followed).
pub fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            if depth > 0 {
                walk(&p, depth - 1, out);
            }
        } else {
            out.push(p);
        }
    }
}

/// When `p` was last modified.
pub fn modified(p: &Path) -> Option<SystemTime> {
    p.metadata().ok()?.modified().ok()
}

/// The newest of some paths modified at `since` or later: what `deck
/// follow --latest` takes among an agent's sessions of a directory.
pub trait NewestSince: Iterator<Item = PathBuf> + Sized {
    fn newest_since(self, since: SystemTime) -> Option<PathBuf> {
        self.filter_map(|p| Some((modified(&p)?, p)))
            .filter(|(t, _)| *t >= since)
            .max_by_key(|(t, _)| *t)
            .map(|(_, p)| p)
    }
}

impl<I: Iterator<Item = PathBuf>> NewestSince for I {}

/// The most recently modified of `paths`.
pub fn newest(paths: impl Iterator<Item = PathBuf>) -> Option<PathBuf> {
    paths
        .filter_map(|p| Some((modified(&p)?, p)))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, p)| p)
}

/// Sets a file's text and age, for the agents' tests of `latest`.
#[cfg(test)]
pub fn touch(path: &Path, text: &str, age_s: u64) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    let t = std::time::SystemTime::now() - std::time::Duration::from_secs(age_s);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}
