//! What the tests of one agent's tour through the `deck` binary share
//! (`tests/all/agents/<agent>.rs`): the fixture's files and its
//! `SUMMARY.json`, the calls `deck inspect` lists in the form the tests
//! compare them (id, tool, card, status, exit code), the diffs' lines,
//! `deck render`'s text (no control bytes), `deck export`'s page, and a
//! home folder laid out as the agent keeps its sessions, listed by `deck
//! sessions`. The expectations themselves stay in each agent's test: they
//! come from the raw fixture, never from deck.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{assert_only_sgr_and_osc8, card_of, deck_cmd, deck_ok, inspect_lines};

/// Every variable that moves an agent's folder (and the XDG folders some
/// agents keep theirs under): unset for a test's home, so only its `HOME`
/// counts.
pub const AGENT_VARS: [&str; 14] = [
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "QWEN_HOME",
    "COPILOT_HOME",
    "CURSOR_CONFIG_DIR",
    "PI_CODING_AGENT_DIR",
    "CLINE_DIR",
    "GROK_HOME",
    "KIMI_SHARE_DIR",
    "MSWEA_GLOBAL_CONFIG_DIR",
    "DSH_HOME",
];

/// A file of the agents' fixtures: `tests/fixtures/agents/<rel>`.
pub fn fixture(rel: &str) -> String {
    format!("{}/tests/fixtures/agents/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// A JSON file read whole.
pub fn json_file(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A JSON-lines file's lines, each parsed (line `n` at index `n - 1`).
pub fn json_lines(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}")))
        .collect()
}

/// The calls the `SUMMARY.json` at `path` lists for its (first) file: the
/// kits write a list of files or one file's object.
pub fn summary_calls(path: &str) -> Vec<Value> {
    let s = json_file(path);
    let file = if s.is_array() { &s[0] } else { &s };
    file["calls"]
        .as_array()
        .expect("SUMMARY.json lists calls")
        .clone()
}

/// One call as the tests compare it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub id: String,
    pub tool: String,
    pub card: String,
    pub status: String,
    pub exit: Option<i64>,
}

impl Call {
    pub fn new(id: &str, tool: &str, card: &str, status: &str, exit: Option<i64>) -> Call {
        Call {
            id: id.into(),
            tool: tool.into(),
            card: card.into(),
            status: status.into(),
            exit,
        }
    }

    /// A line of `deck inspect`.
    fn of(line: &Value) -> Call {
        let s = |k: &str| line[k].as_str().unwrap_or_default().to_string();
        Call {
            id: s("callId"),
            tool: s("tool"),
            card: card_of(line),
            status: s("status"),
            exit: line["exitCode"].as_i64(),
        }
    }
}

/// `deck inspect PATH`'s lines, each checked to be drawn by `agent`'s
/// presenters and to carry no exit code but a number.
pub fn inspect(path: &str, agent: &str) -> Vec<Value> {
    let got = inspect_lines(path);
    for g in &got {
        assert_eq!(g["viewSource"], format!("presenter:{agent}"), "{g}");
        assert!(g["exitCode"].is_null() || g["exitCode"].is_i64(), "{g}");
    }
    got
}

/// Panic unless `deck inspect`'s lines are the calls `want`, in order.
pub fn assert_calls(got: &[Value], want: &[Call]) {
    let seen: Vec<Call> = got.iter().map(Call::of).collect();
    assert_eq!(seen, want);
}

/// The card a line draws's diffs' `startLine`s (`None`: at no known line).
pub fn start_lines(line: &Value) -> Vec<Option<u64>> {
    let view = if line["resultView"]["card"] == "diff" {
        &line["resultView"]
    } else {
        &line["callView"]
    };
    assert_eq!(view["card"], "diff", "{line}");
    view["diffs"]
        .as_array()
        .expect("a diff card has diffs")
        .iter()
        .map(|d| d["startLine"].as_u64())
        .collect()
}

/// The line number of a read card's first line.
pub fn first_read_line(line: &Value) -> Option<u64> {
    line["resultView"]["lines"][0]["number"].as_u64()
}

/// The first `@@ -a,b +c,d @@` header of a unified diff: (a, c).
pub fn first_hunk(diff: &str) -> (u64, u64) {
    let h = diff
        .lines()
        .find(|l| l.starts_with("@@ -"))
        .unwrap_or_else(|| panic!("no hunk header in {diff:?}"));
    let num = |p: &str| -> u64 {
        let n = h.split(' ').find_map(|w| w.strip_prefix(p)).unwrap();
        n.split(',').next().unwrap().parse().unwrap()
    };
    (num("-"), num("+"))
}

/// `deck render PATH --width 100`: it must draw every text of `want` and
/// no terminal control byte.
pub fn render(path: &str, want: &[&str]) -> String {
    let text = deck_ok(&["render", path, "--width", "100"]);
    assert!(!text.contains('\u{1b}'), "an escape in the plain render");
    assert_only_sgr_and_osc8(&text);
    for w in want {
        assert!(text.contains(w), "{w:?} missing:\n{text}");
    }
    text
}

/// Panic if `text` (a render) says an exit code anywhere (`exit 0`, `exit 2`).
pub fn assert_no_exit_code(text: &str) {
    for (i, _) in text.match_indices("exit ") {
        let after = &text[i + "exit ".len()..];
        assert!(
            !after.starts_with(|c: char| c.is_ascii_digit() || c == '-'),
            "an exit code drawn: {:?}",
            &text[i..(i + 12).min(text.len())]
        );
    }
}

/// `deck export PATH -o page.html`: it must succeed and the page hold every
/// text of `want`.
pub fn export_html(path: &str, want: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("page.html");
    deck_ok(&["export", path, "-o", out.to_str().unwrap()]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>"),
        "{}",
        &html[..80.min(html.len())]
    );
    for w in want {
        assert!(html.contains(w), "{w:?} missing from the page");
    }
    html
}

/// A home folder of a test's own, the agents' fixtures copied into it.
pub struct Home {
    dir: tempfile::TempDir,
}

impl Default for Home {
    fn default() -> Self {
        Home::new()
    }
}

impl Home {
    pub fn new() -> Home {
        Home {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The fixture `tests/fixtures/agents/<from>` copied to `<home>/<at>`.
    pub fn put(&self, from: &str, at: &str) -> PathBuf {
        let to = self.path().join(at);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(fixture(from), &to).unwrap_or_else(|e| panic!("{from}: {e}"));
        to
    }

    /// `deck sessions --json` in this home (no agent variable set but
    /// `env`'s), looking in `dirs` too: its rows.
    pub fn sessions(&self, env: &[(&str, &Path)], dirs: &[&Path]) -> Vec<Value> {
        let mut cmd = deck_cmd();
        cmd.args(["sessions", "--json"])
            .env("HOME", self.path())
            .env("XDG_CACHE_HOME", self.path().join(".cache"));
        for var in AGENT_VARS {
            cmd.env_remove(var);
        }
        for (var, value) in env {
            cmd.env(var, value);
        }
        for d in dirs {
            cmd.arg("--dir").arg(d);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The one row of `deck sessions` (as [`Home::sessions`]): the file at
    /// `path`, `agent`'s, whose calls `deck inspect` of the listed path
    /// lists as many as the row says.
    pub fn listed_once(
        &self,
        env: &[(&str, &Path)],
        dirs: &[&Path],
        path: &Path,
        agent: &str,
    ) -> Value {
        let rows = self.sessions(env, dirs);
        assert_eq!(rows.len(), 1, "{rows:#?}");
        let row = rows[0].clone();
        assert_eq!(row["path"], *path.to_string_lossy(), "{row}");
        assert_eq!(row["agent"], agent, "{row}");
        let listed = row["path"].as_str().unwrap();
        let calls = inspect_lines(listed);
        assert_eq!(row["calls"].as_u64(), Some(calls.len() as u64), "{row}");
        row
    }
}
