//! Snapshots of the terminal and diff cards, text and styles, at 40, 80 and
//! 120 columns in the dark and light themes. Views are copied from the DSH
//! tour capture (`demo-sessions/tour.frames.jsonl`), plus synthetic ones for a
//! multi-hunk diff and `\r` progress output. Durations are fixed.

use std::fmt::Write as _;

use deck::cards::Density;
use deck::session::{Status, ToolCard};
use deck::theme::Theme;
use serde_json::{Value, json};

use crate::common::build::{STARTED, tool_card};
use crate::common::dump::{Runs, THEMES, WIDTHS, render_card, styled};

/// A settled card from a call view and a result view (raw wire JSON): one
/// text block, 45 ms, `status` as the reducer would set it.
fn card(
    tool: &str,
    arguments: &str,
    call: Value,
    result: Option<Value>,
    text: &str,
    status: Status,
) -> ToolCard {
    let mut card = tool_card(
        Some(tool),
        arguments,
        Some(call),
        result,
        Some((text, false, None)),
    );
    card.ended = Some(STARTED + 45);
    card.status = status;
    card
}

fn parse(s: &str) -> Value {
    serde_json::from_str(s).expect("test JSON parses")
}

/// Snapshot a card at every width in both themes (one snapshot per theme).
fn snapshot_all(name: &str, card: &ToolCard) {
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for w in WIDTHS {
            let _ = writeln!(out, "── width {w} ──");
            out.push_str(&styled(
                &render_card(card, &theme, w, Density::Full, name),
                Runs::OneRow,
            ));
        }
        insta::assert_snapshot!(format!("{name}__{theme_name}"), out);
    }
}

fn terminal(args: &str, call: &str, result: &str, text: &str, status: Status) -> ToolCard {
    card("bash", args, parse(call), Some(parse(result)), text, status)
}

fn ls_card() -> ToolCard {
    terminal(
        r#"{"command":"ls -la","description":"List workspace files"}"#,
        r#"{"card":"terminal","title":"ls -la","description":"List workspace files"}"#,
        r#"{"card":"terminal","output":"total 24\ndrwxr-xr-x 4 root root 4096 Nov 30 20:05 .\ndrwxr-xr-x 7 root root 4096 Nov 30 20:05 ..\n-rw-r--r-- 1 root root   52 Nov 30 20:05 README.md\ndrwxr-xr-x 2 root root 4096 Nov 30 20:05 docs\n-rw-r--r-- 1 root root  104 Nov 30 20:05 notes.md\ndrwxr-xr-x 2 root root 4096 Nov 30 20:05 src\n","exitCode":0}"#,
        "total 24\n",
        Status::Ok,
    )
}

fn red_exit_card() -> ToolCard {
    terminal(
        r#"{"command":"printf '\\033[31mred\\033[0m\\n'; exit 3","description":"Print red text and exit 3"}"#,
        r#"{"card":"terminal","title":"printf '\\033[31mred\\033[0m\\n'; exit 3","description":"Print red text and exit 3"}"#,
        r#"{"card":"terminal","output":"\u001b[31mred\u001b[0m","exitCode":3}"#,
        "\u{1b}[31mred\u{1b}[0m\n[exit code: 3]",
        Status::Failed,
    )
}

#[test]
fn terminal_ls() {
    snapshot_all("terminal_ls", &ls_card());
}

#[test]
fn terminal_red_exit_3() {
    snapshot_all("terminal_red_exit_3", &red_exit_card());
}

#[test]
fn terminal_stderr_workdir() {
    let c = terminal(
        r#"{"command":"cat src/app.py | head -3; echo done >&2","description":"Show stdout and stderr","workdir":"/workspace/demo"}"#,
        r#"{"card":"terminal","title":"cat src/app.py | head -3; echo done >&2","description":"Show stdout and stderr","cwd":"/workspace/demo"}"#,
        r#"{"card":"terminal","output":"def add(a, b):\n    return a + b  # checked\n\n[stderr]\ndone\n","exitCode":0}"#,
        "def add(a, b):\n    return a + b  # checked\n\n[stderr]\ndone\n",
        Status::Ok,
    );
    snapshot_all("terminal_stderr_workdir", &c);
}

#[test]
fn terminal_timeout_sigterm() {
    let mut c = terminal(
        r#"{"command":"sleep 30","description":"Sleep past the timeout","timeoutMs":1500}"#,
        r#"{"card":"terminal","title":"sleep 30","description":"Sleep past the timeout"}"#,
        r#"{"card":"terminal","output":"(no output)\n[timed out after 1500ms]","signal":"SIGTERM"}"#,
        "(no output)\n[timed out after 1500ms]\n[killed by signal: SIGTERM]",
        Status::Failed,
    );
    c.started = Some(1_796_069_110_106);
    c.ended = Some(1_796_069_111_611);
    snapshot_all("terminal_timeout_sigterm", &c);
}

/// Synthetic: a progress bar redrawn with `\r`, colours, an erase-line, and
/// a multi-line command longer than any header.
fn progress_card() -> ToolCard {
    let output = "fetching\n[##        ] 20%\r[#####     ] 50%\r[##########] 100%\n\
                  \u{1b}[1;32m✓\u{1b}[0m done \u{1b}[2mat 12:00\u{1b}[0m\n\
                  \u{1b}[33mwarning\u{1b}[39m: temporary \u{1b}]0;title\u{7}file\r\u{1b}[2Kwarning: kept\n";
    let call = json!({
        "card": "terminal",
        "title": "for step in fetch build; do\n  ./run.sh \"$step\" --progress=bar --color=always\ndone",
        "description": "Run the pipeline with a progress bar"
    });
    let result = json!({"card": "terminal", "output": output, "exitCode": 0});
    card("bash", "{}", call, Some(result), output, Status::Ok)
}

#[test]
fn terminal_progress_carriage_returns() {
    snapshot_all("terminal_progress", &progress_card());
}

fn diff_card(call: &str, result: &str, text: &str) -> ToolCard {
    card(
        "edit",
        "{}",
        parse(call),
        Some(parse(result)),
        text,
        Status::Ok,
    )
}

#[test]
fn diff_edit_notes() {
    let c = diff_card(
        r##"{"card":"diff","title":"Edit /workspace/demo/notes.md","diffs":[{"path":"/workspace/demo/notes.md","oldText":"status: draft","newText":"status: reviewed"}],"locations":[{"path":"/workspace/demo/notes.md"}]}"##,
        r##"{"card":"diff","title":"Edit /workspace/demo/notes.md","diffs":[{"path":"/workspace/demo/notes.md","oldText":"# Notes\n\nstatus: draft\n\nTODO: review the wire protocol\nA line with \u001b[1mno\u001b[0m escape in a file is fine.","newText":"# Notes\n\nstatus: reviewed\n\nTODO: review the wire protocol\nA line with \u001b[1mno\u001b[0m escape in a file is fine."}]}"##,
        "The file /workspace/demo/notes.md has been updated successfully.",
    );
    snapshot_all("diff_edit_notes", &c);
}

#[test]
fn diff_edit_python() {
    let c = diff_card(
        r##"{"card":"diff","title":"Edit /workspace/demo/src/app.py","diffs":[{"path":"/workspace/demo/src/app.py","oldText":"return a + b  # checked","newText":"return a + b  # checked twice"}],"locations":[{"path":"/workspace/demo/src/app.py"}]}"##,
        r##"{"card":"diff","title":"Edit /workspace/demo/src/app.py","diffs":[{"path":"/workspace/demo/src/app.py","oldText":"def add(a, b):\n    return a + b  # checked\n\n\ndef sub(a, b):","newText":"def add(a, b):\n    return a + b  # checked twice\n\n\ndef sub(a, b):"}]}"##,
        "The file /workspace/demo/src/app.py has been updated successfully.",
    );
    snapshot_all("diff_edit_python", &c);
}

#[test]
fn diff_write_new_file() {
    let c = diff_card(
        r##"{"card":"diff","title":"Write /workspace/demo/docs/new.md","diffs":[{"path":"/workspace/demo/docs/new.md","oldText":null,"newText":"# New doc\n\nTODO: fill this in\n- item one\n- item two\n"}],"locations":[{"path":"/workspace/demo/docs/new.md"}]}"##,
        r##"{"card":"diff","title":"Write /workspace/demo/docs/new.md","diffs":[{"path":"/workspace/demo/docs/new.md","oldText":null,"newText":"# New doc\n\nTODO: fill this in\n- item one\n- item two\n"}]}"##,
        "<path>/workspace/demo/docs/new.md</path>\n<type>file</type>\n<content>\nCreated file\n</content>",
    );
    snapshot_all("diff_write_new_file", &c);
}

/// Synthetic: two distant changes in one Rust file (two hunks), a second
/// entry for the same path, and a second file.
fn multi_hunk_card() -> ToolCard {
    let old: String = (1..=24)
        .map(|i| match i {
            1 => "use std::fmt;\n".to_string(),
            4 => "fn area(w: u32, h: u32) -> u32 {\n".to_string(),
            5 => "    w * h\n".to_string(),
            6 => "}\n".to_string(),
            20 => "    let total = area(2, 3);\n".to_string(),
            21 => "    println!(\"{total}\");\n".to_string(),
            _ => format!("// line {i}\n"),
        })
        .collect();
    let new = old
        .replace(
            "fn area(w: u32, h: u32) -> u32 {\n",
            "fn area(width: u64, height: u64) -> u64 {\n",
        )
        .replace("    w * h\n", "    width * height\n")
        .replace(
            "    println!(\"{total}\");\n",
            "    println!(\"total = {total}\");\n    assert_eq!(total, 6);\n",
        );
    let call = json!({
        "card": "diff",
        "title": "Edit src/geometry.rs",
        "diffs": [
            {"path": "src/geometry.rs", "oldText": old, "newText": new},
            {"path": "src/geometry.rs", "oldText": "// tail\nconst SIDES: usize = 4;\n", "newText": "// tail\nconst SIDES: usize = 5;\n"},
            {"path": "README.md", "oldText": "# Geometry\n\nComputes areas.\n", "newText": "# Geometry\n\nComputes areas of rectangles.\n"}
        ]
    });
    card("edit", "{}", call.clone(), Some(call), "ok", Status::Ok)
}

#[test]
fn diff_multi_hunk() {
    snapshot_all("diff_multi_hunk", &multi_hunk_card());
}

#[test]
fn diff_multi_hunk_side_by_side() {
    let theme = Theme::dark();
    let lines = render_card(&multi_hunk_card(), &theme, 180, Density::Full, "multi hunk");
    insta::assert_snapshot!(
        "diff_multi_hunk_side_by_side__dark",
        styled(&lines, Runs::OneRow)
    );
}

#[test]
fn densities_line_and_preview() {
    let theme = Theme::dark();
    let line = render_card(&red_exit_card(), &theme, 80, Density::Line, "red exit");
    assert_eq!(line.len(), 1);
    insta::assert_snapshot!("density_line__dark", styled(&line, Runs::OneRow));

    let output: String = (1..=40).map(|i| format!("row {i}\n")).collect();
    let call =
        json!({"card": "terminal", "title": "seq -f 'row %g' 1 40", "description": "Many rows"});
    let result = json!({"card": "terminal", "output": output, "exitCode": 0});
    let c = card("bash", "{}", call, Some(result), &output, Status::Ok);
    let preview = render_card(&c, &theme, 80, Density::Preview, "40 rows");
    // The preview keeps the tail: the last row of output is the last row;
    // how it ended is the header's.
    assert!(preview.last().unwrap().text().contains("row 40"));
    assert!(preview[0].text().contains("exit 0"));
    insta::assert_snapshot!("density_preview__dark", styled(&preview, Runs::OneRow));
}

#[test]
fn every_width_fits_through_the_frame() {
    let theme = Theme::dark();
    let cards = [
        ("ls", ls_card()),
        ("red exit", red_exit_card()),
        ("progress", progress_card()),
        ("multi hunk", multi_hunk_card()),
    ];
    for (name, c) in &cards {
        for w in 1..=400 {
            for d in [Density::Line, Density::Preview, Density::Full] {
                render_card(c, &theme, w, d, name);
            }
        }
    }
}
