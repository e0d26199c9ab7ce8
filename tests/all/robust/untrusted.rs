//! Untrusted text never controls the terminal: a corpus of hostile payloads,
//! each placed in every string field of every card kind (titles, commands,
//! paths, URLs, outputs, file lines, markdown, JSON, diagnostics, user and
//! assistant text), rendered as ANSI at several widths and densities. The
//! output may hold no escape sequence but deck's own SGR and OSC 8.

use deck::cards::Density;
use deck::headless::{self, Format};
use deck::theme::Theme;
use deck::view::transcript::LayoutOptions;
use deck::wire::{Origin, Record};
use serde_json::{Value, json};

use crate::common::build::{self, call_data, event, frame, in_turn, rec, result_data};
use crate::common::{self, fold_records};

/// Hostile payloads: CSI, OSC, DCS/APC/PM/SOS, C1, lone ESC, BEL, backspace
/// tricks, bidi overrides, and mixtures.
fn payloads() -> Vec<String> {
    let mut p: Vec<String> = [
        "\u{1b}[2J",
        "\u{1b}[H\u{1b}[2J\u{1b}[3J",
        "\u{1b}[1;1H",
        "\u{1b}[10A",
        "\u{1b}[?1049h",
        "\u{1b}[?1049l",
        "\u{1b}[?25l",
        "\u{1b}[?1000h",
        "\u{1b}[6n",
        "\u{1b}[c",
        "\u{1b}[K",
        "\u{1b}[31mred",
        "\u{1b}[38;2;255;0;0mtrue",
        "\u{1b}[0m",
        "\u{1b}]0;pwned\u{7}",
        "\u{1b}]2;title\u{1b}\\",
        "\u{1b}]4;1;rgb:ff/00/00\u{7}",
        "\u{1b}]8;;https://evil.example/\u{1b}\\click\u{1b}]8;;\u{1b}\\",
        "\u{1b}]52;c;cm0gLXJmIH4=\u{7}",
        "\u{1b}]1337;File=inline=1:AAAA\u{7}",
        "\u{1b}]11;?\u{7}",
        "\u{1b}P+q544e\u{1b}\\",
        "\u{1b}Pq#0;2;0;0;0\u{1b}\\",
        "\u{1b}_Gf=100;AAAA\u{1b}\\",
        "\u{1b}^privacy\u{1b}\\",
        "\u{1b}Xsos\u{1b}\\",
        "\u{9b}2J",
        "\u{9d}0;c1 title\u{9c}",
        "\u{90}dcs\u{9c}",
        "\u{85}next line",
        "\u{1b}",
        "trailing escape \u{1b}",
        "\u{1b}\u{1b}[",
        "bell\u{7}\u{7}\u{7}",
        "back\u{8}\u{8}\u{8}\u{8}safe",
        "over\rwrite",
        "tab\tand\u{b}vertical\u{c}feed",
        "nul\u{0}byte",
        "del\u{7f}",
        "\u{202e}txt.exe",
        "\u{202a}\u{202b}\u{202c}\u{202d}",
        "\u{2066}\u{2067}\u{2068}\u{2069}isolates",
        "\u{200e}\u{200f}\u{61c}marks",
        "\u{1b}7\u{1b}8",
        "\u{1b}c",
        "\u{1b}#8",
        "\u{1b}(0lqk\u{1b}(B",
        "\u{1b}[200~paste\u{1b}[201~",
        "\u{1b}[1 q",
        "\u{1b}[?2004h",
        "\u{1b}[=5h",
        "\u{1b}]10;?\u{1b}\\\u{1b}[5n",
        "mixed \u{1b}[31m\u{9b}1m\u{202e}\u{7}\u{1b}]0;x\u{7}end",
        "**md** `\u{1b}[2J` [link](https://x.test/\u{1b}[2J)",
        "```\n\u{1b}]0;fence\u{7}\n```",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // A long one and a multi-line one.
    p.push(format!("{}\u{1b}[2J", "x".repeat(500)));
    p.push("line1\n\u{1b}[2Jline2\r\n\u{9b}31mline3".to_string());
    p
}

/// One tool call of `name` in turn 1 and its result, `text` both the
/// result's text and its error's name and code, views as given.
fn card(
    seq: &mut u64,
    name: &str,
    args: &str,
    call: Option<Value>,
    result: Option<Value>,
    text: &str,
    is_error: bool,
) -> Vec<Record> {
    let id = format!("c{seq}");
    let asked = in_turn(call_data(&id, name, args));
    let mut answered = in_turn(result_data(&id, json!([build::text(text)]), is_error));
    answered["error"] = json!({"name": text, "code": text});
    vec![
        viewed(seq, "tool/call", asked, call.map(|v| ("call", v))),
        viewed(seq, "tool/result", answered, result.map(|v| ("result", v))),
    ]
}

/// The next event of session `s`, its time 1 s after the epoch plus its seq.
fn ev(seq: &mut u64, kind: &str, data: Value) -> Record {
    viewed(seq, kind, data, None)
}

/// [`ev`] with the host's view for a phase.
fn viewed(seq: &mut u64, kind: &str, data: Value, view: Option<(&str, Value)>) -> Record {
    let r = rec(frame(event(kind, *seq, 1000 + *seq as i64, data), view));
    *seq += 1;
    r
}

/// Every card kind and conversation item, with `p` in every string field.
fn session(p: &str) -> Vec<Record> {
    let mut seq = 0u64;
    let mut r = Vec::new();
    r.push(ev(&mut seq, "turn/start", json!({"turn": 1})));
    r.push(ev(&mut seq, "session/title", json!({"title": p})));
    r.push(ev(
        &mut seq,
        "user/message",
        json!({"content":[{"type":"text","text":p}],"source":{"kind":"user"}}),
    ));
    r.push(ev(
        &mut seq,
        "user/message",
        json!({"content":[{"type":"text","text":p}],"source":{"kind":p}}),
    ));
    r.push(ev(&mut seq, "assistant/message", json!({"turn":1,"step":1,"message":{"content":[
        {"type":"reasoning","text":p},{"type":"text","text":format!("# {p}\n\n- {p}\n\n> {p}\n\n| {p} | b |\n|---|---|\n| {p} | c |\n\n```rs\n{p}\n```\n[{p}](https://x.test/{p})")}]}})));
    let args = json!({"command": p, "path": p}).to_string();
    r.extend(card(&mut seq, p, &args, Some(json!({"card":"terminal","title":p,"description":p,"cwd":p})),
        Some(json!({"card":"terminal","title":p,"output":format!("{p}\n[stderr]\n{p}"),"exitCode":1})), p, false));
    r.extend(card(
        &mut seq,
        p,
        &args,
        Some(json!({"card":"terminal","title":p})),
        Some(json!({"card":"terminal","output":p,"signal":p})),
        p,
        false,
    ));
    r.extend(card(&mut seq, p, &args, Some(json!({"card":"diff","title":p,"diffs":[{"path":p,"oldText":format!("a\n{p}\nb"),"newText":format!("a\n{p}{p}\nb")}]})),
        Some(json!({"card":"diff","title":p,"diffs":[{"path":p,"oldText":null,"newText":p}]})), p, false));
    r.extend(card(&mut seq, p, &args, Some(json!({"card":"generic","title":p,"kind":"read","locations":[{"path":p,"line":1}]})),
        Some(json!({"card":"read","title":p,"path":p,"offset":1,"lines":[{"number":1,"text":p},{"number":2,"text":p}],"totalLines":2,"lang":p})), p, false));
    r.extend(card(&mut seq, p, &args, Some(json!({"card":"generic","title":p,"kind":"search","rawInput":p})),
        Some(json!({"card":"search","shape":"matches","title":p,"files":[{"path":p,"matches":[{"lineNumber":1,"line":p}]}],"truncated":true,"total":9})), p, false));
    r.extend(card(&mut seq, p, &args, Some(json!({"card":"generic","title":p,"kind":"search"})),
        Some(json!({"card":"search","shape":"paths","title":p,"paths":[p, p],"truncated":false,"total":2})), p, false));
    r.extend(card(&mut seq, p, &args, Some(json!({"card":"generic","title":p,"kind":"search"})),
        Some(json!({"card":"web","kind":"search","title":p,"sources":[{"url":format!("https://x.test/{p}"),"title":p,"snippet":p,"publishedAt":p}],
            "answer":p,"failures":[{"query":p,"code":p,"message":p}],"truncated":false})), p, false));
    r.extend(card(&mut seq, p, &args, Some(json!({"card":"generic","title":p,"kind":"fetch"})),
        Some(json!({"card":"web","kind":"fetch","title":p,"url":p,"statusCode":200,"truncated":true})), p, false));
    r.extend(card(&mut seq, p, &args, Some(json!({"card":"generic","title":p,"kind":p,"rawInput":{"k":p},"content":[{"type":"text","text":p},{"type":p}]})),
        Some(json!({"card":"generic","title":p,"content":[{"type":"text","text":p}]})), p, false));
    // Fallbacks: no view, unknown tag, malformed view, error with name/code.
    r.extend(card(
        &mut seq,
        p,
        &args,
        None,
        None,
        &format!("{{\"k\": \"{}\"}}", p.escape_default()),
        true,
    ));
    r.extend(card(
        &mut seq,
        p,
        p,
        Some(json!({"card":p,"title":p})),
        Some(json!({"card":"terminal","exitCode":p})),
        p,
        true,
    ));
    r.push(ev(
        &mut seq,
        "todo/write",
        json!({"todos":[{"content":p,"status":p},{"content":p,"status":"completed"}]}),
    ));
    r.push(ev(
        &mut seq,
        "approval/asked",
        json!({"id":"a","toolName":p,"reason":p}),
    ));
    r.push(ev(
        &mut seq,
        "approval/decided",
        json!({"id":"a","outcome":p}),
    ));
    r.push(rec(
        json!({"type":"question/requested","sessionId":"s","questions":[{"question":p}]}),
    ));
    r.push(Record::Diagnostic(deck::wire::Diagnostic::new(
        Origin {
            line: 7,
            offset: 99,
        },
        p.to_string(),
        p.to_string(),
    )));
    r.push(ev(&mut seq, p, json!({"x": p})));
    r.push(ev(
        &mut seq,
        "turn/end",
        json!({"turn":1,"reason":{"kind":p,"error":{"message":p,"code":p}}}),
    ));
    r
}

#[test]
fn no_payload_escapes_into_ansi_output() {
    let corpus = payloads();
    assert!(corpus.len() >= 50, "{}", corpus.len());
    let themes = [
        Theme::dark(),
        Theme::builtin("light").unwrap(),
        Theme::builtin("no-color").unwrap(),
    ];
    for p in &corpus {
        let t = fold_records(&session(p));
        assert!(t.cards().len() >= 11, "every card kind is there");
        for (i, theme) in themes.iter().enumerate() {
            for (width, density) in [
                (40, Density::Full),
                (100, Density::Preview),
                (180, Density::Full),
                (60, Density::Line),
            ] {
                if i > 0 && width != 100 {
                    continue;
                }
                let out = headless::render(
                    &t,
                    theme,
                    &LayoutOptions::new(width, density),
                    None,
                    Format::Ansi,
                );
                common::assert_only_sgr_and_osc8(&out);
            }
        }
    }
}

#[test]
fn visible_forms_are_shown_not_dropped() {
    let t = fold_records(&session("A\u{1b}[2JB\u{9b}C\u{202e}D\u{7}E"));
    let out = headless::render(
        &t,
        &Theme::dark(),
        &LayoutOptions::new(120, Density::Full),
        None,
        Format::Text,
    );
    assert!(out.contains("A␛[2JB\\x9bC<U+202E>D␇E"), "{out}");
}

#[test]
fn copied_text_and_the_status_bar_carry_no_controls() {
    for p in payloads() {
        let t = fold_records(&session(&p));
        for c in t.cards().iter() {
            let text = deck::cards::plain::plain_text(c);
            assert!(
                text.chars()
                    .all(|ch| ch == '\n' || ch == '\t' || !ch.is_control()),
                "{text:?}"
            );
            assert!(
                !text.chars().any(deck::text::sanitize::is_bidi_control),
                "{text:?}"
            );
            let osc = deck::app::terminal::osc52(&text);
            common::assert_osc52_only(&osc);
        }
        let info = deck::view::status::StatusInfo {
            source: p.clone(),
            title: t.title().map(str::to_string),
            message: Some(p.clone()),
            ..Default::default()
        };
        let line = deck::view::status::status_line(&info, &Theme::dark(), 120);
        common::assert_only_sgr_and_osc8(&deck::headless::write_lines(&[line], Format::Ansi));
    }
}

/// The targets of the OSC 8 links in ANSI output (as written, percent-encoded).
fn osc8_targets(ansi: &str) -> Vec<String> {
    ansi.split("\u{1b}]8;;")
        .skip(1)
        .filter_map(|rest| rest.split_once("\u{1b}\\").map(|(t, _)| t.to_string()))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The `href`s of an HTML page.
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(t, _)| t.to_string()))
        .collect()
}

/// One rule for link targets, in the ANSI output (what a terminal gets from
/// `deck render --format ansi`) and in the HTML export: `http`, `https` and
/// `mailto` are links; `javascript:`, `data:`, `file:` and the rest are
/// shown as text, never linked.
#[test]
fn only_http_https_and_mailto_targets_become_links() {
    let bad = [
        "javascript:alert(1)",
        "JavaScript:alert(2)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "file:///etc/passwd",
        "vbscript:msgbox",
    ];
    let good = [
        "https://x.test/ok",
        "http://x.test/plain",
        "mailto:a@x.test",
    ];
    let links: String = bad
        .iter()
        .chain(good.iter())
        .enumerate()
        .map(|(i, u)| format!("[link{i}]({u}) "))
        .collect();
    let mut seq = 0u64;
    let mut r = vec![ev(&mut seq, "turn/start", json!({"turn": 1}))];
    r.push(ev(
        &mut seq,
        "assistant/message",
        json!({"turn":1,"step":1,"message":{"content":[
        {"type":"text","text":links}]}}),
    ));
    r.extend(card(&mut seq, "web_search", "{}", Some(json!({"card":"generic","title":"w","kind":"search"})),
        Some(json!({"card":"web","kind":"search","title":"w","sources":
            bad.iter().chain(good.iter()).map(|u| json!({"url":u,"title":"src","snippet":"s"})).collect::<Vec<_>>(),
            "truncated":false})), "ok", false));
    r.push(ev(
        &mut seq,
        "turn/end",
        json!({"turn":1,"reason":{"kind":"completed"}}),
    ));
    let t = fold_records(&r);
    let theme = Theme::dark();
    let ansi = headless::render(
        &t,
        &theme,
        &LayoutOptions::new(200, Density::Full),
        None,
        Format::Ansi,
    );
    let html = deck::commands::export::html::page(&t, &theme, "links");
    let allowed = |u: &str| {
        let l = u.to_ascii_lowercase();
        l.starts_with("https://") || l.starts_with("http://") || l.starts_with("mailto:")
    };
    for (what, targets) in [("ansi", osc8_targets(&ansi)), ("html", hrefs(&html))] {
        assert!(
            targets.iter().all(|u| allowed(u)),
            "{what} links a target it must not: {targets:?}"
        );
        for g in good {
            assert!(
                targets.iter().any(|u| u == g),
                "{what} lost the link {g}: {targets:?}"
            );
        }
    }
    // Shown as text instead.
    let text = headless::render(
        &t,
        &theme,
        &LayoutOptions::new(200, Density::Full),
        None,
        Format::Text,
    );
    for b in bad {
        assert!(text.contains(b), "{b} not shown: {text}");
        assert!(html.contains(b), "{b} not shown in the page");
    }
}
