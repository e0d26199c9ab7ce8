//! Shared test helpers: where the real captures live.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared` beside the repo (CI), else `/work/shared` (helper worktrees).
pub fn shared() -> PathBuf {
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if beside.exists() { beside } else { PathBuf::from("/work/shared") }
}

pub fn capture(name: &str, file: &str) -> PathBuf {
    shared().join("dsh/captures").join(name).join(file)
}

pub fn capture_str(name: &str, file: &str) -> String {
    capture(name, file).to_string_lossy().into_owned()
}
