//! Inputs that once cost quadratic time or unbounded memory (issue 13),
//! held to the right *result*: each case below was slow or huge, and is
//! now laid out exactly. How long they take and how much memory they use
//! is measured by `bench/scaling.py`, never timed here.

use std::io::Write;
use std::process::Stdio;

use deck::app::{App, Msg};
use deck::cards::{self, Ctx, Density};
use deck::session::{Item, Status};
use deck::text::Line;
use deck::theme::Theme;
use serde_json::{Value, json};

use crate::common::build::{call_data, event, frame, in_turn, rec, tool_card};
use crate::common::{self, deck, deck_cmd, stderr, stdout};

fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(Line::text).collect()
}

/// The `… N more lines` count of a preview.
fn hidden(lines: &[Line]) -> usize {
    let t = texts(lines);
    let m = t
        .iter()
        .find_map(|l| l.split("… ").nth(1))
        .unwrap_or_else(|| panic!("no marker in {t:?}"));
    m.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn a_long_coloured_terminal_line_is_laid_out_whole_and_counted_exactly() {
    // One line of 1 MB with an SGR colour every 80 characters: it was
    // joined from the emulator's rows by re-merging the whole line each
    // time (quadratic).
    let mut out = String::new();
    let mut visible = 0;
    for i in 0..13_000 {
        out.push_str(&format!("\u{1b}[3{}m", i % 7 + 1));
        out.push_str(&"abcdefghij".repeat(8));
        visible += 80;
    }
    out.push_str("\u{1b}[0m\n");
    let view = json!({"card": "terminal", "title": "gen", "output": out, "exitCode": 0});
    let card = tool_card(
        Some("bash"),
        "{}",
        Some(json!({"card": "terminal", "title": "gen"})),
        Some(view),
        Some(("(output)", false, None)),
    );
    let theme = Theme::dark();
    let width = 100;
    // The body is 98 columns: a first row, then rows of 97 after the `↪`.
    let rows = 1 + (visible - 98usize).div_ceil(97);
    let full = cards::render(&card, &Ctx::new(width, &theme, Density::Full));
    let t = texts(&full);
    assert_eq!(full.len(), 1 + rows, "header, output rows");
    assert_eq!(t[1], format!("│ {}", &"abcdefghij".repeat(10)[..98]));
    assert!(t[2].starts_with("│ ↪"));
    assert!(full.iter().all(|l| l.width() <= width));
    // Colours kept: the first row holds two colours (80 + 18 characters).
    assert_ne!(full[1].spans[1].style.fg, full[1].spans[2].style.fg);
    // The preview keeps the tail and counts the rest exactly.
    let preview = cards::render(&card, &Ctx::new(width, &theme, Density::Preview));
    // The marker counts lines: the one line, whose start is hidden.
    assert_eq!(preview.len(), 1 + 12);
    assert_eq!(hidden(&preview), 1);
    assert_eq!(texts(&preview).last().unwrap(), &t[rows]);
}

#[test]
fn turns_left_open_are_closed_by_their_own_ends_only() {
    // N turns never ended, each with a call and a streaming message; then
    // N ends of other turns. Each end used to rescan every open card.
    let n = 3_000u64;
    let mut records = Vec::new();
    let mut seq = 0;
    let mut push = |kind: &str, data: Value| {
        records.push(rec(frame(event(kind, seq, 1_000 + seq as i64, data), None)));
        seq += 1;
    };
    for t in 1..=n {
        push("turn/start", json!({"turn": t}));
        push(
            "assistant/chunk",
            json!({"turn": t, "step": 1, "chunk": {"type": "text-delta", "index": 0, "text": "working"}}),
        );
        let mut call = call_data(&format!("c{t}"), "bash", "{}");
        call["turn"] = json!(t);
        call["step"] = json!(1);
        push("tool/call", call);
    }
    // A call outside any turn: the first end of a turn interrupts it.
    push("tool/call", call_data("loose", "bash", "{}"));
    for t in n + 1..=2 * n {
        push(
            "turn/end",
            json!({"turn": t, "reason": {"kind": "completed"}}),
        );
    }
    let t = common::fold_records(&records);
    assert_eq!(t.card("loose").unwrap().status, Status::Interrupted);
    assert_eq!(
        t.running_cards(),
        n as usize,
        "every turn's call still runs"
    );
    assert!(t.items().iter().all(|i| match i {
        Item::Assistant(m) => !m.complete,
        _ => true,
    }));
    // Now their own ends: each closes its turn, and only it.
    let mut records2 = records.clone();
    for turn in (1..=n).rev() {
        records2.push(rec(frame(
            event(
                "turn/end",
                seq,
                9_000,
                json!({"turn": turn, "reason": {"kind": "aborted"}}),
            ),
            None,
        )));
        seq += 1;
    }
    let t = common::fold_records(&records2);
    assert_eq!(t.running_cards(), 0);
    for turn in 1..=n {
        let c = t.card(&format!("c{turn}")).unwrap();
        assert_eq!((c.status, c.turn), (Status::Interrupted, Some(turn)));
    }
    assert!(t.items().iter().all(|i| match i {
        Item::Assistant(m) => m.complete && m.interrupted,
        _ => true,
    }));
}

#[test]
fn chunks_of_scrambled_block_indices_assemble_in_index_order() {
    // Distinct block indices in one step, in no order: each chunk used to
    // search and insert into a list of every block.
    let n = 20_000u64;
    let mut records = Vec::new();
    for (seq, i) in (0..n).map(|k| (k * 7919) % n).enumerate() {
        records.push(rec(frame(
            event(
                "assistant/chunk",
                seq as u64,
                1,
                in_turn(
                    json!({"chunk": {"type": "text-delta", "index": i, "text": format!("b{i} ")}}),
                ),
            ),
            None,
        )));
    }
    let t = common::fold_records(&records);
    let Some(Item::Assistant(m)) = t.items().iter().next() else {
        panic!("one message");
    };
    assert_eq!(m.blocks.len(), n as usize);
    for (i, b) in m.blocks.iter().enumerate() {
        assert_eq!(
            (b.index, b.text.as_str()),
            (i as u64, format!("b{i} ").as_str())
        );
    }
}

#[test]
fn a_stream_of_many_sessions_is_listed_one_change_at_a_time() {
    // 20k sessions: each used to re-send (and re-sort) the whole list.
    use deck::source::sessions::{SessionChange, SessionSummary};
    let mut app = App::live("listen".into(), None, vec![Theme::dark()]);
    app.update(Msg::Resize(100, 30));
    for i in 0..20_000i64 {
        app.update(Msg::Session(SessionChange::Upsert(SessionSummary {
            id: format!("s{i}"),
            updated_at: Some(i),
            ..Default::default()
        })));
    }
    app.update(Msg::Session(SessionChange::Gone("s19999".into())));
    app.update(common::tui::ch('S'));
    assert_eq!(app.modal().picker(), Some(0));
    assert_eq!(app.sessions().len(), 19_999);
    assert_eq!(app.sessions()[0].id, "s19998", "newest first");
    assert_eq!(app.sessions().last().unwrap().id, "s0");
}

#[test]
fn a_streamed_answer_replays_to_the_screen_deck_draws() {
    // One answer streamed in 3k chunks, in paragraphs and a code block: the
    // export drew the whole growing answer again for every frame.
    use deck::commands::export::cast::{CastOptions, write_cast};
    let mut records = Vec::new();
    let mut seq = 0u64;
    let mut push = |kind: &str, data: Value| {
        records.push(rec(frame(
            event(kind, seq, 1_000 + 30 * seq as i64, data),
            None,
        )));
        seq += 1;
    };
    push("turn/start", json!({"turn": 1}));
    for i in 0..3_000 {
        let text = match i % 60 {
            59 => format!("w{i}.\n\n"),
            30 => "\n\n```rust\nfn x() {}\n```\n\n".to_string(),
            _ => format!("w{i} "),
        };
        push(
            "assistant/chunk",
            in_turn(json!({"chunk": {"type": "text-delta", "index": 0, "text": text}})),
        );
    }
    let records = std::sync::Arc::new(records);
    let o = CastOptions {
        width: 80,
        height: 24,
        speed: 4.0,
        idle_limit_ms: Some(1000),
        theme: Theme::dark(),
        title: "test".into(),
    };
    let mut out = Vec::new();
    write_cast(records.clone(), Some("s".into()), &o, &mut out).unwrap();
    let mut vt = vt100::Parser::new(24, 80, 0);
    for l in String::from_utf8(out).unwrap().lines().skip(1) {
        let ev: Vec<Value> = serde_json::from_str(l).unwrap();
        if ev[1] == "o" {
            vt.process(ev[2].as_str().unwrap().as_bytes());
        }
    }
    let played: Vec<String> = vt
        .screen()
        .rows(0, 80)
        .map(|r| r.trim_end().to_string())
        .collect();
    // What the app draws of the folded session, on its own.
    let drawn = common::tui::replay_final_screen(
        Some("s".into()),
        records,
        o.idle_limit_ms,
        o.speed,
        &o.theme,
        (80, 24),
    );
    assert!(played.iter().any(|r| r.contains("w2999.")), "{played:#?}");
    assert_eq!(played, drawn);
}

/// A diff card of `files` files whose texts are `lines` lines drawn from
/// a small alphabet, in random order (nothing to anchor on).
fn messy_diff(files: usize, lines: usize) -> deck::session::ToolCard {
    let mut seed = 11u64;
    let mut text = || {
        (0..lines)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ["}\n", "\n", "    }\n", "x += 1;\n", "{\n"][(seed >> 33) as usize % 5]
            })
            .collect::<String>()
    };
    let diffs: Vec<Value> = (0..files)
        .map(|i| json!({"path": format!("src/f{i}.rs"), "oldText": text(), "newText": text()}))
        .collect();
    let view = json!({"card": "diff", "title": "Edit", "diffs": diffs});
    tool_card(
        Some("edit"),
        "{}",
        None,
        Some(view),
        Some(("ok", false, None)),
    )
}

#[test]
fn a_diff_too_costly_to_compare_is_shown_whole_and_says_so() {
    // Myers took seconds on each such file; now its work is bounded and
    // what it could not compare is shown removed and added whole.
    let card = messy_diff(2, 4_000);
    let theme = Theme::dark();
    let full = texts(&cards::render(&card, &Ctx::new(100, &theme, Density::Full)));
    assert_eq!(
        full.iter()
            .filter(|l| l.contains("approximate diff"))
            .count(),
        2,
        "each file says so"
    );
    assert!(full[0].contains("· 2 files"), "{}", full[0]);
    // Laid out off the UI thread by its cost, though it is small in bytes.
    assert!(deck::view::worker::weight(&card) < deck::view::worker::HEAVY_BYTES);
    assert!(deck::view::worker::heavy(&card));
    assert!(!deck::view::worker::heavy(&messy_diff(1, 100)));
}

#[test]
fn a_search_runs_beside_the_keys_and_finds_what_a_search_at_once_finds() {
    let t = common::fold(&common::tui::tour_path());
    let mut sync = App::viewer("tour".into(), t.clone(), vec![Theme::dark()]);
    sync.update(Msg::Resize(100, 30));
    let mut app = App::viewer("tour".into(), t, vec![Theme::dark()]);
    app.search_in_background();
    app.update(Msg::Resize(100, 30));
    for a in [&mut sync, &mut app] {
        common::tui::typed(a, "/notes");
        a.update(common::tui::key(crossterm::event::KeyCode::Enter));
    }
    // Keys are answered while it runs.
    app.update(common::tui::ch('g'));
    let mut ticks = 0;
    while app.searching() {
        app.update(Msg::Tick {
            real_ms: 10.0,
            now_ms: common::tui::NOW_MS,
        });
        std::thread::sleep(std::time::Duration::from_millis(2));
        ticks += 1;
        assert!(ticks < 5_000, "the search never ended");
    }
    assert!(!sync.found().matches.is_empty());
    assert_eq!(app.found().matches, sync.found().matches);
    assert!(app.found().current.is_some(), "it went to a match");
}

#[test]
fn previews_count_what_they_hide_exactly() {
    let theme = Theme::dark();
    let ctx = |d| Ctx::new(100, &theme, d);
    // A code block of 40k lines in a generic card's content: it was laid
    // out (and coloured) whole to show 12 rows.
    let code: String = (0..40_000).map(|i| format!("let v{i} = {i};\n")).collect();
    let content = json!({"card": "generic", "title": "t", "content": [{"type": "text", "text": format!("```rust\n{code}```\n")}]});
    let card = tool_card(
        Some("t"),
        "{}",
        None,
        Some(content),
        Some(("x", false, None)),
    );
    let full = cards::render(&card, &ctx(Density::Full));
    let preview = cards::render(&card, &ctx(Density::Preview));
    assert_eq!(preview.len(), 13);
    assert_eq!(hidden(&preview), full.len() - 1 - 11);
    // A read card of one 4 MB line: made whole to show a few rows.
    let line = "let x = 1; ".repeat(400_000);
    let read = json!({"card": "read", "path": "min.js", "lines": [{"number": 1, "text": line}], "totalLines": 1});
    let card = tool_card(
        Some("read"),
        "{}",
        None,
        Some(read),
        Some(("x", false, None)),
    );
    let preview = cards::render(&card, &ctx(Density::Preview));
    // Its rest is one line cut by the marker.
    assert_eq!(hidden(&preview), 1);
    assert!(texts(&preview)[2].starts_with("│ 1 let x = 1;"));
}

#[test]
fn a_huge_markdown_block_is_plain_text_said_so_and_lines_stay_whole() {
    let theme = Theme::dark();
    let row = "| item | 42 | the **note** |\n";
    let table = format!("| a | b | c |\n|---|--:|---|\n{}", row.repeat(50_000));
    let lines = deck::text::markdown::render(&table, 100, &theme, ratatui::style::Style::default());
    assert!(
        lines[0].text().contains("shown as plain text"),
        "{}",
        lines[0].text()
    );
    assert_eq!(lines.len(), 1 + 2 + 50_000);
    assert_eq!(lines[3].text(), "| item | 42 | the **note** |");
    // A long run of links: one paragraph, over the limit, word-wrapped text.
    let links: String = (0..40_000)
        .map(|i| format!("[l{i}](https://e.com/{i}) "))
        .collect();
    let lines = deck::text::markdown::render(&links, 100, &theme, ratatui::style::Style::default());
    assert!(lines[0].text().contains("shown as plain text"));
    assert!(lines.iter().all(|l| l.width() <= 100));
    let joined: String = texts(&lines[1..]).join(" ");
    assert!(joined.contains("[l39999](https://e.com/39999)"));
    // Under the limit, a table is laid out as a table.
    let small = format!("| a | b |\n|---|---|\n{}", "| 1 | 2 |\n".repeat(1000));
    let lines = deck::text::markdown::render(&small, 60, &theme, ratatui::style::Style::default());
    assert_eq!(lines[0].text(), "a │ b");
    assert_eq!(lines.len(), 2 + 1000);
}

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

fn turn_start(seq: u64) -> String {
    format!(
        "{}\n",
        json!({"type": "session/event", "sessionId": "s", "event": {"type": "turn/start", "seq": seq, "time": 1, "data": {"turn": seq + 1}}})
    )
}

#[test]
fn a_line_over_the_limit_is_cut_and_reported_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = turn_start(0).into_bytes();
    let at = bytes.len();
    bytes.extend(std::iter::repeat_n(b'x', 3 << 20));
    bytes.push(b'\n');
    bytes.extend(turn_start(1).into_bytes());
    let path = write(&dir, "long.jsonl", &bytes);
    let run = |args: &[&str]| {
        deck_cmd()
            .env("DECK_MAX_LINE", "1M")
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&["render", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("turn 2"),
        "the line after it still reads"
    );
    assert!(stderr(&o).contains("1 diagnostic"));
    let d = run(&["inspect", "--diagnostics", &path]);
    let line: Value = serde_json::from_str(stdout(&d).lines().next().unwrap()).unwrap();
    assert_eq!(
        (line["line"].as_u64(), line["offset"].as_u64()),
        (Some(2), Some(at as u64))
    );
    let reason = line["reason"].as_str().unwrap();
    assert!(
        reason.contains("3.0 MiB is over the 1.0 MiB line limit"),
        "{reason}"
    );
    assert_eq!(
        line["raw"].as_str().unwrap().len(),
        64 << 10,
        "its head is kept"
    );
}

#[test]
fn a_writer_that_never_sends_a_newline_is_cut_not_held() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rec.jsonl");
    let mut child = deck_cmd()
        .env("DECK_MAX_LINE", "1M")
        .args(["record", "-", "-o", &out.to_string_lossy()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        let chunk = vec![b'y'; 1 << 16];
        for _ in 0..80 {
            stdin.write_all(&chunk).unwrap();
        }
    }
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(
        err.contains("note: line 1 (byte 0): line of 5.0 MiB is over the 1.0 MiB line limit"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&out).unwrap().len(),
        0,
        "nothing whole to record"
    );
}

#[test]
fn a_long_first_line_is_not_read_whole_to_tell_the_format() {
    let dir = tempfile::tempdir().unwrap();
    // A first line of 3 MB (a frame with a long message), then more lines.
    let big = json!({"type": "session/event", "sessionId": "s", "event": {"type": "user/message", "seq": 0, "time": 1,
        "data": {"content": [{"type": "text", "text": "q".repeat(3 << 20)}], "source": {"kind": "user"}}}});
    let text = format!("{big}\n{}", turn_start(1));
    let path = write(&dir, "first.jsonl", text.as_bytes());
    let o = deck(&["inspect", "--sessions", &path]);
    let s: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (s["format"].as_str(), s["events"].as_u64()),
        (Some("frame log"), Some(2))
    );
    // A history on one line longer than detection reads: still a history.
    let events: Vec<Value> = (0..30_000)
        .map(|i| json!({"event": {"type": "turn/start", "seq": i, "time": i, "data": {"turn": i + 1, "pad": "p".repeat(40)}}}))
        .collect();
    let doc = json!({"sessionId": "h", "events": events, "hasMore": false}).to_string();
    assert!(doc.len() > 1 << 20);
    let path = write(&dir, "history.json", doc.as_bytes());
    let o = deck(&["inspect", "--sessions", &path]);
    let s: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (
            s["format"].as_str(),
            s["sessionId"].as_str(),
            s["events"].as_u64()
        ),
        (Some("history"), Some("h"), Some(30_000))
    );
}

#[test]
fn a_zstd_log_cut_before_its_first_block_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let whole = std::fs::read(common::capture("tour", "session.jsonl.zstd")).unwrap();
    let path = write(&dir, "cut.zstd", &whole[..30]);
    let o = deck(&["render", &path]);
    assert!(!o.status.success());
    assert_eq!(
        stderr(&o).trim(),
        format!("deck: {path}: zstd stream ends early: nothing decoded (incomplete frame)")
    );
}

#[test]
fn messages_and_inspect_output_hold_no_terminal_controls() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = "a\u{1b}]8;;http://x\u{7}\u{9b}31m\u{202e}\u{7f}\rb";
    let call = json!({"type": "session/event", "sessionId": hostile, "event": {"type": "tool/call", "seq": 0, "time": 1,
        "data": {"callId": hostile, "name": "t", "arguments": "{}"}},
        "view": {"for": "call", "view": {"card": "generic", "title": hostile}}});
    let path = write(&dir, "h.jsonl", format!("{call}\n").as_bytes());
    let o = deck(&["render", &path, "--session", "nope"]);
    let err = stderr(&o);
    assert!(err.contains("no session \"nope\""), "{err}");
    for bad in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}', '\u{7f}', '\r'] {
        assert!(!err.contains(bad), "{bad:?} reached stderr: {err:?}");
    }
    for args in [vec!["inspect", &path], vec!["inspect", "--sessions", &path]] {
        let out = stdout(&deck(&args));
        for bad in ['\u{9b}', '\u{202e}', '\u{7f}'] {
            assert!(!out.contains(bad), "{bad:?} in inspect output");
        }
        let v: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        let id = v
            .get("callId")
            .or(v.get("sessionId"))
            .and_then(Value::as_str);
        assert_eq!(id, Some(hostile), "escaped, not changed");
    }
}

#[test]
fn an_os_error_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let o = deck(&["render", &dir.path().to_string_lossy()]);
    let err = stderr(&o);
    assert_eq!(err.matches("os error 21").count(), 1, "{err}");
}

/// The count a search shows is the count it found: gone to the first match
/// while the search ran on, the message grows with it (it said `match 1/2`
/// until a key was pressed).
#[test]
fn a_running_search_keeps_its_count_current() {
    let lines: String = (0..6000)
        .map(|i| {
            common::build::user_message(i, 1_796_069_109_000 + i as i64, &format!("needle {i}"))
                .to_string()
                + "\n"
        })
        .collect();
    let t = common::fold_session(&common::load_text(&lines));
    let mut app = App::viewer("many".into(), t, vec![Theme::dark()]);
    app.search_in_background();
    app.update(Msg::Resize(100, 30));
    common::tui::typed(&mut app, "/needle");
    app.update(common::tui::key(crossterm::event::KeyCode::Enter));
    let mut ticks = 0;
    while app.searching() {
        app.update(Msg::Tick {
            real_ms: 10.0,
            now_ms: common::tui::NOW_MS,
        });
        std::thread::sleep(std::time::Duration::from_millis(1));
        ticks += 1;
        assert!(ticks < 20_000, "the search never ended");
    }
    let n = app.found().matches.len();
    assert_eq!(n, 6000);
    assert_eq!(app.message(), Some("match 1/6000 for \"needle\""));
}
