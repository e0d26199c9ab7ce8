//! What a card shows is true (issue "Every card tells the truth"): no
//! printed text lost to a cleared screen, in any density. Cards are built
//! through `deck::testing`, so they go through the same frames, fold and
//! layout as a live session.

use deck::testing::{Density, ToolCard};
use serde_json::json;

/// A bash call whose output clears the screen between two builds, as a
/// watch loop or `clear && make` does.
fn cleared_build() -> ToolCard {
    let output = "build 1: 3 warnings\nwarning: unused x\n\u{1b}[H\u{1b}[2J\u{1b}[3J\
                  build 2: ok\n\u{1b}[?1049h\u{1b}[Hpager text\u{1b}[?1049lexit\n";
    ToolCard::new("bash")
        .arguments(json!({"command": "clear; make; make; less log"}))
        .result_view(
            json!({"card": "terminal", "title": "clear; make; make; less log",
                            "output": output, "exitCode": 0}),
        )
        .output(output)
}

#[test]
fn a_cleared_screen_loses_no_text_in_any_density() {
    let kept = [
        "build 1: 3 warnings",
        "warning: unused x",
        "── screen cleared ──",
        "build 2: ok",
        "── full-screen output ──",
        "pager text",
        "── end of full-screen output ──",
        "exit",
    ];
    for density in [Density::Preview, Density::Full] {
        let card = cleared_build().render(80, "dark", density).unwrap();
        let mut at = 0;
        for want in kept {
            let found = card.text[at..].find(want);
            assert!(
                found.is_some(),
                "{density:?}: {want:?} not after {at} in\n{}",
                card.text
            );
            at += found.unwrap_or(0) + want.len();
        }
        assert!(!card.text.contains('\u{1b}'));
    }
    // One line: the header, which says nothing of the output.
    let line = cleared_build().render(80, "dark", Density::Line).unwrap();
    assert_eq!(line.height, 1);
    // The plain text a user copies holds it all too.
    let full = cleared_build().render(80, "light", Density::Full).unwrap();
    assert!(full.styled.contains("build 1: 3 warnings"));
}

/// A text delta of the assistant message of turn 1, step 1.
fn delta(seq: u64, text: &str) -> serde_json::Value {
    crate::common::build::event(
        "assistant/chunk",
        seq,
        1_000 + seq as i64,
        json!({"turn": 1, "step": 1, "chunk": {"type": "text-delta", "index": 0, "text": text}}),
    )
}

fn retry(seq: u64, n: u64, failure: serde_json::Value) -> serde_json::Value {
    crate::common::build::event(
        "llm/retry",
        seq,
        1_000 + seq as i64,
        json!({"retryId": "r1", "turn": 1, "step": 1, "provider": "p", "mode": "normal",
               "policyKey": "k", "retry": n, "maxRetries": 5, "delayMs": 2100,
               "failure": failure}),
    )
}

#[test]
fn model_retries_are_shown_and_cut_off_text_is_kept() {
    use crate::common::build::{event, rec};
    let lines = [
        event("turn/start", 0, 1_000, json!({"turn": 1})),
        delta(1, "The answer "),
        delta(2, "is forty"),
        retry(
            3,
            1,
            json!({"message": "rate limited", "code": "RATE_LIMIT", "status": 429}),
        ),
        retry(
            4,
            2,
            json!({"message": "socket hang up", "code": "TRANSPORT"}),
        ),
        delta(5, "The answer is 42."),
        event(
            "assistant/message",
            6,
            1_006,
            json!({"turn": 1, "step": 1, "message": {"role": "assistant",
                   "content": [{"type": "text", "text": "The answer is 42."}]}}),
        ),
        event(
            "turn/end",
            7,
            1_007,
            json!({"turn": 1, "reason": {"kind": "completed"}}),
        ),
    ];
    let records: Vec<_> = lines.iter().cloned().map(rec).collect();
    let t = crate::common::fold_records(&records);
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    let text = deck::headless::render(
        &t,
        &deck::theme::Theme::dark(),
        &deck::headless::LayoutOptions::new(80, Density::Full),
        None,
        deck::headless::Format::Text,
    );
    let want = [
        "The answer is forty",
        "✂ cut off: the request failed here",
        "↻ retrying (1/5) after 429 Too Many Requests · 2.1 s",
        "↻ retrying (2/5) after TRANSPORT: socket hang up · 2.1 s",
        "The answer is 42.",
    ];
    let mut at = 0;
    for w in want {
        let found = text[at..].find(w);
        assert!(found.is_some(), "{w:?} not after {at} in\n{text}");
        at += found.unwrap_or(0) + w.len();
    }
    assert_eq!(text.matches("The answer is 42.").count(), 1, "{text}");
    // The same frames live: the same transcript, item for item.
    let live = records.iter().fold(
        deck::session::Transcript::new(Some("s".into()), deck::stock()),
        |mut t, r| {
            t.apply(r);
            t
        },
    );
    assert_eq!(live.items(), t.items());
}

#[test]
fn a_cancelled_call_keeps_its_card_and_is_no_error() {
    let call = |name: &str, code: &str| {
        ToolCard::new("bash")
            .arguments(json!({"command": "for i in 1 2 3; do sleep 9; done"}))
            .call_view(
                json!({"card": "terminal", "title": "for i in 1 2 3; do sleep 9; done",
                              "description": "Three slow sleeps"}),
            )
            .result_view(json!({"card": "generic",
                                "content": [{"type": "text", "text": "Error: tool call aborted"}]}))
            .error_named("Error: tool call aborted", name, code)
            .frames()
    };
    let fold = |log: &str| {
        let loaded = deck::source::load_bytes("x", log.as_bytes()).unwrap();
        crate::common::fold_records(&loaded.sessions[0].records)
    };
    for code in ["ABORTED", "ABORTED_BEFORE_DISPATCH"] {
        let log = call("AbortError", code);
        let t = fold(&log);
        assert_eq!(
            t.cards()[0].status,
            deck::session::Status::Cancelled,
            "{code}"
        );
        assert_eq!(t.error_count(), 0);
        let mut screen = deck::testing::Screen::open(&log, 80, 8, "dark").unwrap();
        let text = screen.text();
        assert!(
            text.contains("⊘ $ for i in 1 2 3; do sleep 9; done"),
            "{text}"
        );
        assert!(text.contains("cancelled"), "{text}");
        assert!(text.contains("Three slow sleeps"), "{text}");
        assert!(!text.contains("error"), "{text}");
    }
    // Any other error stays an error.
    let t = fold(&call("Error", "EPERM"));
    assert_eq!(t.cards()[0].status, deck::session::Status::Error);
    assert_eq!(t.error_count(), 1);
}

#[test]
fn copy_takes_the_text_as_shown_and_the_raw_output_without_debris() {
    use crate::common::tui::{ch, themes};
    use deck::app::{App, Effect, Msg};
    let output = "\u{1b}[1m\u{1b}[32m   Compiling\u{1b}[0m deck v0.1.0\r\n\
                  [0/120]\r[60/120]\r[120/120]\n\u{1b}]8;;https://x\u{7}docs\u{1b}]8;;\u{7}\n";
    let log = ToolCard::new("bash")
        .arguments(json!({"command": "cargo build"}))
        .result_view(json!({"card": "terminal", "title": "cargo build",
                            "output": output, "exitCode": 0}))
        .output(output)
        .frames();
    let loaded = deck::source::load_bytes("x", log.as_bytes()).unwrap();
    let t = crate::common::fold_records(&loaded.sessions[0].records);
    let mut app = App::viewer("x".into(), t, themes());
    app.update(Msg::Resize(80, 20));
    app.update(ch('g'));
    let copied = |app: &mut App, key: char| match app.update(ch(key)).first() {
        Some(Effect::Copy(text)) => text.clone(),
        fx => panic!("{key}: {fx:?}"),
    };
    assert_eq!(
        copied(&mut app, 'y'),
        "cargo build\n   Compiling deck v0.1.0\n[120/120]\ndocs\n[exit code: 0]"
    );
    assert_eq!(
        copied(&mut app, 'Y'),
        "   Compiling deck v0.1.0\n[0/120]\n[60/120]\n[120/120]\ndocs\n"
    );
    assert_eq!(copied(&mut app, 'c'), "cargo build");
    // The same text a plain export of the card holds.
    let plain = deck::cards::plain::plain_text(&app.transcript().cards()[0]);
    assert!(!plain.contains("[1m") && !plain.contains("[0m"), "{plain}");
}

/// The frames of one settled call: its call (with `view` as the call's
/// view) and its result, seqs from `seq`.
fn call_frames(
    seq: u64,
    id: &str,
    tool: &str,
    view: serde_json::Value,
    ok: bool,
) -> Vec<deck::wire::Record> {
    call_result_frames(seq, id, tool, view, None, ok)
}

/// [`call_frames`], with `result` as the result's view when given.
fn call_result_frames(
    seq: u64,
    id: &str,
    tool: &str,
    view: serde_json::Value,
    result: Option<serde_json::Value>,
    ok: bool,
) -> Vec<deck::wire::Record> {
    use crate::common::build::{call_data, event, frame, in_turn, rec, result_data, text};
    vec![
        rec(frame(
            event(
                "tool/call",
                seq,
                1_000 + seq as i64,
                in_turn(call_data(id, tool, "{}")),
            ),
            Some(("call", view)),
        )),
        rec(frame(
            event(
                "tool/result",
                seq + 1,
                1_001 + seq as i64,
                in_turn(result_data(
                    id,
                    json!([text(if ok { "ok" } else { "failed" })]),
                    !ok,
                )),
            ),
            result.map(|r| ("result", r)),
        )),
    ]
}

fn diff_view(path: &str, old: &str, new: &str) -> serde_json::Value {
    json!({"card": "diff", "title": format!("Edit {path}"),
           "diffs": [{"path": path, "oldText": old, "newText": new}]})
}

#[test]
fn diff_rows_carry_the_files_real_line_numbers_when_the_session_shows_them() {
    // Lines 40–44 of a file read, then an edit inside them, then an edit
    // of what the first edit left, then one of a snippet found twice.
    let read = json!({"card": "read", "path": "src/lib.rs", "offset": 39, "totalLines": 90,
    "lines": [
        {"number": 40, "text": "fn a() {"},
        {"number": 41, "text": "    one();"},
        {"number": 42, "text": "}"},
        {"number": 43, "text": "fn b() {"},
        {"number": 44, "text": "}"},
    ]});
    let mut records = call_frames(1, "r", "read", read, true);
    records.extend(call_frames(
        3,
        "e1",
        "edit",
        diff_view(
            "src/lib.rs",
            "    one();\n}\n",
            "    one();\n    two();\n}\n",
        ),
        true,
    ));
    records.extend(call_frames(
        5,
        "e2",
        "edit",
        diff_view("src/lib.rs", "fn b() {\n}\n", "fn b() {\n    three();\n}\n"),
        true,
    ));
    records.extend(call_frames(
        7,
        "e3",
        "edit",
        diff_view("src/lib.rs", "}\n", "};\n"),
        true,
    ));
    records.extend(call_frames(
        9,
        "e4",
        "edit",
        diff_view("src/other.rs", "x\n", "y\n"),
        true,
    ));
    let t = crate::common::fold_records(&records);
    let placements: Vec<_> = t.cards().iter().map(|c| c.placements.clone()).collect();
    assert_eq!(
        placements,
        vec![
            vec![],
            vec![Some(41)],
            vec![Some(44)],
            vec![None],
            vec![None]
        ],
        "read; inside the read; after the first edit moved it down a line; twice; never read"
    );
    let text = deck::headless::render(
        &t,
        &deck::theme::Theme::dark(),
        &deck::headless::LayoutOptions::new(80, Density::Full),
        None,
        deck::headless::Format::Text,
    );
    for want in [
        "│ 41 41       one();",
        "│    42 +     two();",
        "│ 42 43   }",
        "│ 44 44   fn b() {",
        "│    45 +     three();",
        "│ src/lib.rs · lines unknown",
        "│ src/other.rs · lines unknown",
    ] {
        assert!(text.contains(want), "{want:?} not in\n{text}");
    }
    // Side by side, the same numbers.
    let wide = deck::headless::render(
        &t,
        &deck::theme::Theme::dark(),
        &deck::headless::LayoutOptions::new(170, Density::Full),
        None,
        deck::headless::Format::Text,
    );
    assert!(wide.contains("44   fn b() {"), "{wide}");
    assert!(wide.contains("45 +     three();"), "{wide}");
    // The player folds the same: placed the same at any point.
    let half = crate::common::fold_records(&records[..6]);
    assert_eq!(half.cards()[2].placements, vec![Some(44)]);
}

#[test]
fn a_failed_edit_says_not_applied() {
    let edit = |card: ToolCard| card.render(80, "dark", Density::Full).unwrap().text;
    let base = || {
        ToolCard::new("edit").call_view(diff_view("notes.md", "status: draft\n", "status: done\n"))
    };
    let failed = edit(base().error_named(
        "Error: old_string was not found",
        "FsError",
        "FS_EDIT_NOT_FOUND",
    ));
    assert!(failed.contains("not applied"), "{failed}");
    assert!(!failed.contains("+1 −1"), "{failed}");
    assert!(failed.contains("error FS_EDIT_NOT_FOUND"), "{failed}");
    let done = edit(base().output("edited"));
    assert!(done.contains("+1 −1 · 1 file"), "{done}");
    assert!(!done.contains("not applied"), "{done}");
}

#[test]
fn a_read_card_says_path_and_range_once() {
    let read = |title: &str| {
        ToolCard::new("read")
            .result_view(json!({"card": "read", "title": title, "path": "src/app.py",
                "offset": 1, "totalLines": 8,
                "lines": [{"number": 2, "text": "x = 1"}, {"number": 3, "text": "y = 2"}]}))
            .render(80, "dark", Density::Full)
            .unwrap()
            .text
    };
    let named = read("Read src/app.py");
    assert_eq!(named.matches("src/app.py").count(), 1, "{named}");
    assert_eq!(named.matches("lines 2–3 of 8").count(), 1, "{named}");
    // A title that does not name the file: the body does.
    let unnamed = read("Read a file");
    assert!(
        unnamed.contains("│ src/app.py  lines 2–3 of 8"),
        "{unnamed}"
    );
}

/// A terminal card of `n` lines of 100 columns each: every one wraps at
/// 80 columns.
fn long_lines(n: usize) -> ToolCard {
    let output: String = (1..=n)
        .map(|i| format!("{i:>4} {}\n", "x".repeat(95)))
        .collect();
    ToolCard::new("bash")
        .arguments(json!({"command": "make"}))
        .result_view(json!({"card": "terminal", "title": "make", "output": output, "exitCode": 0}))
        .output(&output)
}

#[test]
fn more_lines_counts_source_lines_not_wrapped_rows() {
    let card = long_lines(50).render(80, "dark", Density::Preview).unwrap();
    // The preview keeps the tail: line 50 and a few before it, each on two
    // rows; the marker counts the lines above them, not their rows.
    let marker = card
        .text
        .lines()
        .find(|l| l.contains("more line"))
        .unwrap_or_else(|| panic!("no marker in\n{}", card.text));
    let shown: Vec<usize> = card
        .text
        .lines()
        .filter_map(|l| l.trim_start_matches([' ', '│', '┃']).split(' ').next())
        .filter_map(|w| w.parse().ok())
        .collect();
    let first = *shown.first().unwrap_or_else(|| panic!("{}", card.text));
    // The tail shows whole lines: no stray continuation row after the
    // marker.
    let after = card
        .text
        .lines()
        .skip_while(|l| !l.contains("more line"))
        .nth(1);
    assert!(after.is_some_and(|l| !l.contains('↪')), "{}", card.text);
    assert!(
        marker.contains(&format!("… {} more lines", first - 1)),
        "{marker:?} (first shown: line {first})\n{}",
        card.text
    );
    // The head of a long read is capped the same way: a preview of a
    // generic card's 40 wrapped lines counts lines.
    let text: String = (1..=40)
        .map(|i| format!("{i:>4} {}\n", "y".repeat(95)))
        .collect();
    let head = ToolCard::new("fetch_notes")
        .output(&text)
        .render(80, "dark", Density::Preview)
        .unwrap();
    let last_shown = head
        .text
        .lines()
        .filter_map(|l| l.trim_start_matches([' ', '│']).split(' ').next())
        .filter_map(|w| w.parse::<usize>().ok())
        .next_back()
        .unwrap_or_else(|| panic!("{}", head.text));
    assert!(
        head.text
            .contains(&format!("… {} more lines", 40 - last_shown)),
        "{}",
        head.text
    );
}

#[test]
fn the_pagers_line_count_is_source_lines() {
    use crate::common::tui::{ch, screen, themes};
    use deck::app::{App, Msg};
    let log = long_lines(30).frames();
    let loaded = deck::source::load_bytes("x", log.as_bytes()).unwrap();
    let t = crate::common::fold_records(&loaded.sessions[0].records);
    let mut app = App::viewer("x".into(), t, themes());
    app.update(Msg::Resize(80, 20));
    app.update(ch('g'));
    app.update(ch('v'));
    let screen = screen(&mut app);
    // Header, command, 30 output lines (60 rows), the exit line: 33 or so
    // lines, never the 60-odd rows.
    let status = screen.lines().last().unwrap_or_default().to_string();
    let count: usize = status
        .split("line 1/")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{status}"));
    assert!((30..=34).contains(&count), "{status}");
}

#[test]
fn a_generic_card_labels_its_input_and_its_output() {
    let card = ToolCard::new("lookup_notes")
        .arguments(json!({"text": "hello"}))
        .output("echo: hello")
        .render(80, "dark", Density::Full)
        .unwrap();
    let rows: Vec<&str> = card
        .text
        .lines()
        .map(|l| l.trim_start_matches("│ "))
        .collect();
    let input = rows.iter().position(|l| *l == "input");
    let output = rows.iter().position(|l| *l == "output");
    let (Some(i), Some(o)) = (input, output) else {
        panic!("no labels in\n{}", card.text)
    };
    let arg = rows.iter().position(|l| l.contains("\"hello\""));
    let out = rows.iter().position(|l| *l == "echo: hello");
    assert!(arg.is_some_and(|a| i < a && a < o), "{}", card.text);
    assert!(out.is_some_and(|x| o < x), "{}", card.text);
    // No output: nothing to tell apart, no labels.
    let quiet = ToolCard::new("lookup_notes")
        .arguments(json!({"text": "hello"}))
        .output("")
        .render(80, "dark", Density::Full)
        .unwrap();
    assert!(
        !quiet.text.lines().any(|l| l.ends_with("input")),
        "{}",
        quiet.text
    );
}

#[test]
fn with_wrap_off_the_pager_wraps_nothing() {
    use crate::common::tui::{ch, screen, themes};
    use deck::app::{App, Msg};
    // Lines of 1,000 columns: with wrap off each is one row, scrolled
    // sideways to its very end.
    let output: String = (1..=5)
        .map(|i| format!("{i} {}END{i}\n", "x".repeat(1_000)))
        .collect();
    let log = ToolCard::new("bash")
        .arguments(json!({"command": "gen"}))
        .result_view(json!({"card": "terminal", "title": "gen", "output": output, "exitCode": 0}))
        .output(&output)
        .frames();
    let loaded = deck::source::load_bytes("x", log.as_bytes()).unwrap();
    let t = crate::common::fold_records(&loaded.sessions[0].records);
    let mut app = App::viewer("x".into(), t, themes());
    app.update(Msg::Resize(80, 20));
    app.update(ch('g'));
    app.update(ch('v'));
    let wrapped = screen(&mut app);
    assert!(wrapped.contains('↪'), "{wrapped}");
    app.update(ch('w'));
    let (_, lines) = app
        .modal()
        .pager()
        .map(|p| p.line_position())
        .unwrap_or_default();
    let off = screen(&mut app);
    assert!(!off.contains('↪'), "{off}");
    // Every row is a whole line: as many rows as lines.
    assert_eq!(app.modal().pager().map(|p| p.len()), Some(lines));
    for _ in 0..200 {
        app.update(ch('l'));
    }
    let end = screen(&mut app);
    for i in 1..=5 {
        assert!(end.contains(&format!("END{i}")), "{end}");
    }
}

#[test]
fn a_whole_file_write_places_the_edits_after_it() {
    // An existing file, never read, overwritten whole: the result draws
    // the changed hunk only (unplaced), but the file is now known.
    let content = "one\ntwo\nthree\nfour\nfive\n";
    let call = json!({"card": "diff", "title": "Write a.txt",
        "diffs": [{"path": "a.txt", "oldText": null, "newText": content}]});
    let result = json!({"card": "diff", "title": "Write a.txt",
        "diffs": [{"path": "a.txt", "oldText": "2\n", "newText": "two\n"}]});
    let mut records = call_result_frames(1, "w", "write", call, Some(result), true);
    records.extend(call_frames(
        3,
        "e",
        "edit",
        diff_view("a.txt", "four\n", "FOUR\n"),
        true,
    ));
    let t = crate::common::fold_records(&records);
    assert_eq!(t.cards()[0].placements, vec![None]);
    assert_eq!(t.cards()[1].placements, vec![Some(4)]);
}
