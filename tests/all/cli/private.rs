//! What deck writes is its user's only, through the real binary: the
//! library's index and manifest (and the cache folders deck makes for
//! them) 0700/0600, loosened ones closed up again with a note naming them,
//! a cache folder that was there left as it is; `deck record` and
//! `deck acp --record` outputs and exports created 0600, an output that
//! was there keeping its mode. (The log: `cli/logging.rs`; the prompt history
//! and the export's staging file: their modules' tests.)

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::{self, deck_cmd, stderr};
use crate::library::sessions::fake_home;

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn set(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// Every folder and file under `root` (itself included), links not followed.
fn tree(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf()];
    let mut todo = vec![root.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                todo.push(e.path());
            }
            if !t.is_symlink() {
                out.push(e.path());
            }
        }
    }
    out
}

fn assert_private(root: &Path) {
    let all = tree(root);
    assert!(all.len() > 3, "{all:?}");
    for p in all {
        let want = if p.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode(&p), want, "{} is {:o}", p.display(), mode(&p));
    }
}

/// `deck sessions ARGS` with `home` as the home folder and `cache` as its cache.
fn sessions(home: &Path, cache: &Path, args: &[&str]) -> std::process::Output {
    let o = deck_cmd()
        .arg("sessions")
        .args(args)
        .env("HOME", home)
        .env("XDG_CACHE_HOME", cache)
        .env_remove("DSH_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

#[test]
fn the_index_its_manifest_and_the_cache_folders_deck_makes_are_private() {
    let (home, _) = fake_home();
    let cache = home.path().join("made/by/deck");
    sessions(home.path(), &cache, &["search", "hello", "--json"]);
    // The cache folder deck had to make, and the ones above it.
    assert_eq!(mode(&home.path().join("made")), 0o700);
    assert_eq!(mode(&cache), 0o700);
    let deck = cache.join("deck");
    let index = deck.join("index");
    assert!(index.join("manifest.json").is_file());
    assert_private(&deck);

    // Opened up by someone: closed up again, each said once on stderr.
    set(&deck, 0o755);
    set(&index, 0o755);
    set(&index.join("manifest.json"), 0o644);
    for p in tree(&index.join("tantivy")) {
        set(&p, if p.is_dir() { 0o755 } else { 0o644 });
    }
    // The cache folder itself was there: the user's, not deck's to change.
    set(&cache, 0o755);
    let o = sessions(home.path(), &cache, &["--json"]);
    let err = stderr(&o);
    for p in [&deck, &index] {
        let said = format!("deck: made {} private", p.display());
        assert_eq!(err.matches(&said).count(), 1, "{said:?} in {err}");
    }
    assert_eq!(err.lines().count(), 2, "{err}");
    assert_private(&deck);
    assert_eq!(mode(&cache), 0o755);
    // Nothing to say the next time.
    let o = sessions(home.path(), &cache, &["--json", "--reindex"]);
    assert_eq!(stderr(&o), "");
    assert_private(&deck);
}

#[test]
fn recordings_and_exports_are_created_private_and_a_named_file_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let tour = common::capture_str("tour", "frames.jsonl");
    // deck record, from stdin.
    let rec = dir.path().join("rec.jsonl");
    let o = deck_cmd()
        .args(["record", "-", "-o", rec.to_str().unwrap()])
        .stdin(std::fs::File::open(&tour).unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::metadata(&rec).unwrap().len() > 0);
    assert_eq!(mode(&rec), 0o600);
    // A file that was there is the user's: written, its mode kept.
    set(&rec, 0o640);
    let o = deck_cmd()
        .args(["record", "-", "-o", rec.to_str().unwrap()])
        .stdin(std::fs::File::open(&tour).unwrap())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(mode(&rec), 0o640);

    // deck export, redacted or not.
    for (name, extra) in [("a.html", &[][..]), ("b.cast", &["--no-redact"][..])] {
        let out = dir.path().join(name);
        let o = deck_cmd()
            .args(["export", &tour, "-o", out.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(mode(&out), 0o600, "{name}");
        set(&out, 0o644);
        let o = deck_cmd()
            .args(["export", &tour, "-o", out.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(mode(&out), 0o644, "{name} replaced keeps its mode");
    }
    // Nothing staged is left beside them.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.html", "b.cast", "rec.jsonl"]);
}

#[test]
fn an_acp_recording_is_created_private() {
    let (dir, ws) = crate::acp::live::scratch();
    let rec = dir.path().join("acp.jsonl");
    let o = crate::acp::live::acp(
        &ws,
        &rec,
        &["--prompt", "hi"],
        &["python3", &crate::acp::live::fake()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::metadata(&rec).unwrap().len() > 0);
    assert_eq!(mode(&rec), 0o600);
}
