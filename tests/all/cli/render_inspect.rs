//! The `deck` binary end to end: render and inspect over real captures and
//! broken inputs, exit codes and messages.

use std::io::Write;
use std::process::Stdio;

use crate::common::{self, deck, deck_cmd, stderr, stdout};

#[test]
fn render_tour_frames_shows_every_card() {
    let o = deck(&[
        "render",
        &common::capture_str("tour", "frames.jsonl"),
        "--width",
        "100",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for title in [
        "ls -la",
        "Read /workspace/demo/notes.md",
        "Edit /workspace/demo/notes.md",
        "Grep TODO (*.md)",
        "Glob **/*.md",
        "mcp__fake__echo",
        "mcp__nope__missing",
    ] {
        assert!(out.contains(title), "missing {title}");
    }
    assert!(
        out.lines()
            .all(|l| unicode_width::UnicodeWidthStr::width(l) <= 100)
    );
    assert!(!out.contains('\u{1b}'), "text output has no escapes");
}

#[test]
fn render_from_stdin() {
    let bytes = std::fs::read(common::capture("tour", "session.jsonl.zstd")).unwrap();
    let mut child = deck_cmd()
        .args(["render", "-", "--width", "80", "--density", "line"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("ls -la"));
}

#[test]
fn height_keeps_the_last_rows_and_at_stops_early() {
    let path = common::capture_str("tour", "frames.jsonl");
    let o = deck(&["render", &path, "--height", "7"]);
    assert_eq!(stdout(&o).lines().count(), 7);
    let early = stdout(&deck(&["render", &path, "--at", "40"]));
    assert!(early.contains("ls -la"));
    assert!(!early.contains("Grep TODO"));
}

#[test]
fn ansi_output_has_only_sgr_and_osc8() {
    let o = deck(&[
        "render",
        "demo-sessions/showcase.jsonl",
        "--format",
        "ansi",
        "--density",
        "full",
        "--theme",
        "dark",
    ]);
    assert!(o.status.success());
    let out = stdout(&o);
    common::assert_only_sgr_and_osc8(&out);
    assert!(out.contains("\u{1b}["), "ansi output is coloured");
    assert!(
        out.contains("\u{1b}]8;;https://toml.io/"),
        "links are OSC 8"
    );
}

#[test]
fn styled_output_lists_spans() {
    let o = deck(&[
        "render",
        &common::capture_str("tour", "frames.jsonl"),
        "--format",
        "styled",
        "--density",
        "line",
    ]);
    assert!(stdout(&o).contains("    @0-1 fg=#"));
}

#[test]
fn no_color_env_forces_plain_styles() {
    let o = deck_cmd()
        .args([
            "render",
            "demo-sessions/showcase.jsonl",
            "--format",
            "ansi",
            "--theme",
            "dark",
        ])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(!out.contains("38;2;"), "no truecolour with NO_COLOR");
}

#[test]
fn render_ansi_paints_no_theme_background() {
    // Lines, not a screen: the light theme's colours land on the
    // terminal's own background (only styles with a bg of their own set one).
    let o = deck(&[
        "render",
        "demo-sessions/showcase.jsonl",
        "--format",
        "ansi",
        "--theme",
        "light",
    ]);
    let out = stdout(&o);
    assert!(out.contains("38;2;"), "coloured");
    assert!(!out.contains("48;2;255;255;255"), "no page background");
}

#[test]
fn unreadable_and_empty_and_unknown_fail_with_one_line() {
    let o = deck(&["render", "/nonexistent/file.jsonl"]);
    assert!(!o.status.success());
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).starts_with("deck: cannot read /nonexistent/file.jsonl"));

    let dir = std::env::temp_dir().join(format!("deck-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let o = deck(&["render", empty.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("empty input"), "{}", stderr(&o));

    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "hello\nworld\n").unwrap();
    let o = deck(&["render", junk.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unknown format"), "{}", stderr(&o));

    let theme = deck(&[
        "render",
        &common::capture_str("tour", "frames.jsonl"),
        "--theme",
        "nope",
    ]);
    assert!(!theme.status.success());
    assert!(stderr(&theme).contains("theme \"nope\" not found"));
}

#[test]
fn bad_lines_render_and_are_counted() {
    let mut text = common::capture_text("tour", "frames.jsonl");
    text.insert_str(0, "garbage line\n");
    text.push_str("{\"type\":\"server-request\",\"payload\":");
    let dir = std::env::temp_dir().join(format!("deck-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("bad.jsonl");
    std::fs::write(&p, text).unwrap();
    let o = deck(&["render", p.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(stderr(&o).contains("deck: 2 diagnostics"), "{}", stderr(&o));
    assert!(stdout(&o).contains("ls -la"));
    let d = deck(&["inspect", "--diagnostics", p.to_str().unwrap()]);
    let lines: Vec<serde_json::Value> = stdout(&d)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["raw"], "garbage line");
}

#[test]
fn inspect_reports_view_sources() {
    let o = deck(&["inspect", &common::capture_str("tour", "frames.jsonl")]);
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 31);
    let by = |id: &str| rows.iter().find(|r| r["callId"] == id).unwrap().clone();
    assert_eq!(by("call_t1s0_0")["viewSource"], "wire");
    assert_eq!(by("call_t1s0_1")["status"], "failed");
    let mcp = by("call_t1s6_1");
    assert_eq!(mcp["viewSource"], "fallback");
    assert_eq!(mcp["fallbackReason"], "no presentation declared");
    let log = deck(&[
        "inspect",
        &common::capture_str("tour", "session.jsonl.zstd"),
    ]);
    let rows: Vec<serde_json::Value> = stdout(&log)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 31);
    assert!(rows.iter().all(|r| r["viewSource"] != "wire"));
}

#[test]
fn inspect_lists_sessions() {
    let o = deck(&[
        "inspect",
        "--sessions",
        &common::capture_str("tour", "frames.jsonl"),
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["cards"], 31);
    assert_eq!(v["format"], "frame log");
}
