//! OpenCode's older session store through the whole of deck, on the real
//! tree of JSON files OpenCode 1.1.65 wrote
//! (`tests/fixtures/agents/opencode/tree/storage/`, by
//! `tests/e2e/agents/opencode/`: the tour's three runs of one session,
//! eleven calls): read from the path of the session's info file, every
//! call listed by `deck inspect` with the status, exit code and duration
//! its `SUMMARY.json` says and the card the database's tour draws, and
//! listed once by `deck sessions` from the data folder OpenCode used.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{card_of, deck_cmd, deck_ok, inspect_lines};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agents/opencode")
        .join(rel)
}

fn summary() -> Value {
    serde_json::from_slice(&std::fs::read(fixture("tree/SUMMARY.json")).unwrap()).unwrap()
}

/// The session's info file: `storage/session/<project>/<id>.json`.
fn info() -> String {
    let file = summary()[0]["file"].as_str().unwrap().to_string();
    fixture("tree").join(file).to_string_lossy().into_owned()
}

#[test]
fn every_call_is_listed_with_the_status_its_summary_says() {
    let got = inspect_lines(&info());
    super::opencode::listed_as_summary_says(&got, &summary());
    // The same cards as the database's tour draws.
    let cards: Vec<String> = got.iter().map(card_of).collect();
    let db: Vec<String> = inspect_lines(&fixture("tour/opencode.db").to_string_lossy())
        .iter()
        .map(card_of)
        .collect();
    assert_eq!(cards, db);
    assert_eq!(got[5]["resultView"]["diffs"][0]["startLine"], 5);
    assert_eq!(got[4]["resultView"]["lines"][0]["number"], 8);
}

#[test]
fn rendered_from_its_info_file() {
    let text = deck_ok(&["render", &info(), "--width", "100"]);
    for want in [
        "[oc-1] Give me a quick tour",
        "ls missing-dir",
        "exit 2",
        "if not xs:",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

fn sessions(home: &Path) -> Vec<Value> {
    let o = deck_cmd()
        .args(["sessions", "--json"])
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env_remove("XDG_DATA_HOME")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_library_lists_it_once_with_its_agent() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join(".local/share/opencode");
    std::fs::create_dir_all(data.join("storage")).unwrap();
    copy_tree(&fixture("tree/storage"), &data.join("storage"));
    let rows = sessions(home.path());
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(
        (rows[0]["agent"].as_str(), rows[0]["calls"].as_u64()),
        (Some("opencode"), Some(11))
    );
    assert_eq!(rows[0]["cwd"], "/workspace/demo");
    assert_eq!(rows[0]["title"], "Tour of the stats helpers");
    assert_eq!(rows[0]["id"], summary()[0]["sessionId"]);
    // A part written since: the session is read again.
    let last = summary()[0]["calls"][10]["partRow"]
        .as_str()
        .unwrap()
        .to_string();
    let folder = data.join(Path::new(&last).parent().unwrap());
    let part = serde_json::json!({"id": "prt_zzzz", "type": "tool", "callID": "call_late", "tool": "bash",
        "state": {"status": "completed", "input": {"command": "true"}, "output": "", "metadata": {"exit": 0},
                  "time": {"start": 1, "end": 2}}});
    std::fs::write(folder.join("prt_zzzz.json"), part.to_string()).unwrap();
    let rows = sessions(home.path());
    assert_eq!(
        (rows.len(), rows[0]["calls"].as_u64()),
        (1, Some(12)),
        "{rows:#?}"
    );
    // Once OpenCode made its database (copying the tree into it), the
    // sessions are listed from there only.
    std::fs::copy(fixture("tour/opencode.db"), data.join("opencode.db")).unwrap();
    let rows = sessions(home.path());
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert!(
        rows[0]["path"].as_str().unwrap().ends_with("opencode.db"),
        "{rows:#?}"
    );
}
