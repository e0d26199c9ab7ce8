//! The VS Code extensions' task folders (Cline's, Roo Code's, Kilo Code's)
//! through the whole of deck, on the tour (`tests/fixtures/agents/
//! cline-tasks/tour/`, hand-written from the extensions' source, not a
//! run): every call listed by `deck inspect` with the status and exit code
//! its result's text says, an edit at no known line (Cline's SEARCH/REPLACE
//! names none), drawn by `deck render`, and listed once by `deck sessions`
//! from each editor's `globalStorage/<extension>/tasks/` under
//! `$XDG_CONFIG_HOME` (`~/.config`).

use crate::common::agent_tour::{Call, Home, assert_calls, fixture, inspect, render, start_lines};

const ID: &str = "1750000000000";

fn history() -> String {
    fixture(&format!(
        "cline-tasks/tour/{ID}/api_conversation_history.json"
    ))
}

#[test]
fn every_call_is_listed_with_its_true_status() {
    let c = |n: u32, tool: &str, card: &str, status: &str, exit: Option<i64>| {
        Call::new(&format!("xml-{n}"), tool, card, status, exit)
    };
    let want = [
        c(1, "list_files", "search", "ok", None),
        c(2, "read_file", "read", "ok", None),
        c(3, "search_files", "search", "ok", None),
        c(4, "replace_in_file", "diff", "ok", None),
        c(5, "write_to_file", "diff", "ok", None),
        c(6, "execute_command", "terminal", "ok", Some(0)),
        c(7, "execute_command", "terminal", "failed", Some(4)),
        c(9, "web_fetch", "web", "ok", None),
        c(10, "write_to_file", "generic", "rejected", None),
        c(11, "execute_command", "terminal", "cancelled", None),
    ];
    let got = inspect(&history(), "cline-tasks");
    assert_calls(&got, &want);
    let at = |id: &str| got.iter().find(|g| g["callId"] == id).unwrap();
    assert_eq!(start_lines(at("xml-4")), [None]);
    assert_eq!(start_lines(at("xml-5")), [Some(1)]);
    // No duration: the files do not say how long a call took.
    assert!(got.iter().all(|g| g["durationMs"].is_null()), "{got:?}");
}

#[test]
fn render_draws_the_prompts_the_words_and_the_cards() {
    let text = render(
        &history(),
        &[
            "[ct-1] Give me a quick tour of this project",
            "[ct-2] Compare spread with the statistics module",
            "[ct-3] Skip the timing run",
            "$ python -m pytest -q",
            "spread now returns 0 for an empty list",
            "Edit src/stats.py",
        ],
    );
    for wrapper in [
        "<task>",
        "<environment_details>",
        "<read_file>",
        "[Response interrupted",
    ] {
        assert!(!text.contains(wrapper), "{wrapper}: {text}");
    }
}

#[test]
fn the_library_lists_each_task_once_with_its_agent() {
    let editors = [
        ("Code", "saoudrizwan.claude-dev"),
        ("Cursor", "rooveterinaryinc.roo-cline"),
        ("VSCodium", "kilocode.kilo-code"),
    ];
    for (moved, (editor, ext)) in [false, true].into_iter().zip(editors) {
        let home = Home::new();
        let config = if moved { "config" } else { ".config" };
        let at =
            |name: &str| format!("{config}/{editor}/User/globalStorage/{ext}/tasks/{ID}/{name}");
        let file = home.put(
            &format!("cline-tasks/tour/{ID}/api_conversation_history.json"),
            &at("api_conversation_history.json"),
        );
        for other in ["ui_messages.json", "task_metadata.json"] {
            home.put(&format!("cline-tasks/tour/{ID}/{other}"), &at(other));
        }
        let dir = home.path().join(config);
        let env: &[(&str, &std::path::Path)] = if moved {
            &[("XDG_CONFIG_HOME", &dir)]
        } else {
            &[]
        };
        let row = home.listed_once(env, &[], &file, "cline-tasks");
        assert_eq!(row["cwd"], "/workspace/demo", "{row}");
    }
    // A folder the user adds: the history is a session; its neighbours not.
    let home = Home::new();
    let file = home.put(
        &format!("cline-tasks/tour/{ID}/api_conversation_history.json"),
        &format!("mine/{ID}/api_conversation_history.json"),
    );
    home.put(
        &format!("cline-tasks/tour/{ID}/ui_messages.json"),
        &format!("mine/{ID}/ui_messages.json"),
    );
    home.listed_once(&[], &[&home.path().join("mine")], &file, "cline-tasks");
}
