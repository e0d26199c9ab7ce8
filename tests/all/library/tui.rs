//! `deck sessions` in the terminal, driven by keys over the fake home of
//! the three agents' real captures: the list (each session once, newest
//! first, its facts), the filters, a search whose one hit opens its session
//! at that card with the match highlighted, `q` back to the list, `r` the
//! player, and `R` hiding a secret from the list, the hits and the session
//! opened. Screens at two widths, dark and light, as snapshots.

use std::sync::Arc;

use crossterm::event::KeyCode;
use deck::app::library::Open;
use deck::app::{App, Effect, Msg};
use deck::library::{Filter, Library, Roots};
use deck::session::Item;

use crate::common::tui::*;
use crate::library::sessions::fake_home;

/// The library over `roots`, its index in `cache`, `w`×`h`, the index
/// brought up to date.
fn library_app(roots: Roots, cache: &std::path::Path, query: Option<&str>, w: u16, h: u16) -> App {
    library_app_at(roots, cache, query, w, h, NOW_MS)
}

/// [`library_app`] with the clock at `now_ms`.
fn library_app_at(
    roots: Roots,
    cache: &std::path::Path,
    query: Option<&str>,
    w: u16,
    h: u16,
    now_ms: i64,
) -> App {
    let lib = Arc::new(Library::open(&cache.join("index")).unwrap());
    let open = Open {
        roots,
        filter: Filter::default(),
        query: query.map(str::to_string),
    };
    let mut app = App::library(lib, open, now_ms);
    app.set_themes(themes(), 0);
    app.lay_out_synchronously();
    app.update(Msg::Resize(w, h));
    settle(&mut app);
    app
}

/// Tick until the index thread and any session being opened are done.
fn settle(app: &mut App) {
    for _ in 0..3000 {
        app.update(Msg::Tick {
            real_ms: 10.0,
            now_ms: NOW_MS,
        });
        let busy = app
            .library_part()
            .is_some_and(|l| l.updating() || l.opening());
        if !busy {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the library did not settle");
}

fn roots(home: &std::path::Path) -> Roots {
    Roots::at(home, Vec::new())
}

#[test]
fn the_list_shows_each_session_newest_first() {
    let (home, _) = fake_home();
    let mut app = library_app(roots(home.path()), home.path(), None, 120, 10);
    let s = screen(&mut app);
    let rows: Vec<&str> = s.lines().collect();
    assert!(rows[0].starts_with("deck sessions · 3 sessions"), "{s}");
    let agents: Vec<&str> = rows[2..5]
        .iter()
        .map(|r| {
            r.trim_start_matches('▌')
                .split_whitespace()
                .next()
                .unwrap_or("")
        })
        .collect();
    // Newest first: the two of 2026-12-01 (Claude Code at 10:02, Codex at
    // 10:00), then DSH's of 2026-11-30; the first row marked.
    assert_eq!(agents, ["claude-code", "codex", "dsh"], "{s}");
    assert!(rows[2].starts_with('▌'), "{s}");
    assert!(
        rows[4].contains("Capture run: tool tour") && rows[4].contains("2026-11-30 20:05"),
        "{s}"
    );
    assert!(
        rows[4].contains("   31 ") && rows[4].contains("    10 "),
        "31 calls, 10 errors: {s}"
    );
    insta::assert_snapshot!("library_list_120_dark", s);
    app.update(ch('t'));
    insta::assert_snapshot!("library_list_120_light", styled(&draw(&mut app)));
    app.update(Msg::Resize(60, 8));
    insta::assert_snapshot!("library_list_60_light", screen(&mut app));
}

#[test]
fn filters_by_agent_and_date() {
    let (home, _) = fake_home();
    // 2026-12-01 12:00 UTC.
    let noon = 1_796_126_400_000;
    let mut app = library_app_at(roots(home.path()), home.path(), None, 120, 10, noon);
    let count = |app: &mut App| app.library_part().unwrap().rows_shown();
    assert_eq!(count(&mut app), 3);
    app.update(ch('a')); // dsh
    assert_eq!(count(&mut app), 1, "{}", screen(&mut app));
    assert!(screen(&mut app).contains("deck sessions · 1 session · dsh"));
    app.update(ch('a')); // claude-code
    app.update(ch('a')); // codex
    assert_eq!(count(&mut app), 1);
    app.update(ch('a')); // acp
    assert_eq!(count(&mut app), 0);
    assert!(screen(&mut app).contains("no session matches the filter"));
    app.update(ch('a')); // all
    assert_eq!(count(&mut app), 3);
    // Today: Claude Code's and Codex's of 2026-12-01, not the DSH tour
    // of the day before; the last 7 and 30 days: all; then any time.
    app.update(ch('d'));
    assert_eq!(count(&mut app), 2);
    assert!(screen(&mut app).contains("since 2026-12-01"));
    app.update(ch('d'));
    assert_eq!(count(&mut app), 3);
    assert!(screen(&mut app).contains("since 2026-11-25"));
    app.update(ch('d'));
    app.update(ch('d'));
    assert_eq!(count(&mut app), 3);
    assert!(screen(&mut app).contains("deck sessions · 3 sessions\n"));
}

#[test]
fn a_hit_opens_its_session_at_the_card_and_q_comes_back() {
    let (home, files) = fake_home();
    let mut app = library_app(roots(home.path()), home.path(), None, 100, 16);
    app.update(ch('/'));
    typed(&mut app, "hello");
    assert!(
        screen(&mut app)
            .lines()
            .last()
            .unwrap()
            .starts_with("/hello")
    );
    app.update(key(KeyCode::Enter));
    let s = screen(&mut app);
    assert!(s.contains("search \"hello\" · 1 hit"), "{s}");
    assert!(
        s.contains("Capture run: tool tour") && s.contains("generic card · mcp__fake__echo"),
        "{s}"
    );
    insta::assert_snapshot!("library_hits_100_dark", styled(&draw(&mut app)));
    app.update(key(KeyCode::Enter));
    settle(&mut app);
    // The session, at the card, the word searched for.
    assert!(app.library_part().is_some() && !app.library_shown());
    let t = app.transcript();
    assert_eq!(
        t.session_id(),
        Some("session-3fdc990d-5fc2-4ba8-bb88-c9a2e81eff47")
    );
    let item = focused(&app);
    match &t.items()[item] {
        Item::Tool(c) => assert_eq!(t.cards()[*c].call_id, "call_t1s6_1"),
        other => panic!("focused {other:?}"),
    }
    assert_eq!(app.search_query(), "hello");
    let s = screen(&mut app);
    assert!(s.contains("mcp__fake__echo"), "{s}");
    assert!(s.contains("match 1/"), "the match is gone to: {s}");
    // q: back to the hits; Esc: the list; q: quit.
    assert!(!app.update(ch('q')).contains(&Effect::Quit));
    assert!(screen(&mut app).contains("search \"hello\" · 1 hit"));
    app.update(key(KeyCode::Esc));
    assert!(screen(&mut app).contains("deck sessions · 3 sessions"));
    // r: the player, from the start.
    app.update(ch('G'));
    app.update(ch('r'));
    settle(&mut app);
    assert!(app.player().is_some());
    assert_eq!(
        app.transcript().session_id(),
        Some("session-3fdc990d-5fc2-4ba8-bb88-c9a2e81eff47")
    );
    assert!(!app.update(ctrl('c')).contains(&Effect::Quit));
    assert!(app.update(ch('q')).contains(&Effect::Quit));
    drop(files);
}

#[test]
fn search_from_the_command_line_shows_its_hits_first() {
    let (home, _) = fake_home();
    // The index is empty when the list opens: the hits come as it fills.
    let mut app = library_app(roots(home.path()), home.path(), Some("escalated"), 100, 12);
    let s = screen(&mut app);
    assert!(s.contains("search \"escalated\" · 1 hit"), "{s}");
    assert!(s.contains("escalated"), "{s}");
}

#[test]
fn r_hides_secrets_in_the_list_the_hits_and_the_session() {
    use crate::common::build::{frame_of, user_message};
    let (home, _) = fake_home();
    let secret = "ghp_Fake0Token1For2Deck3Tests4Only5abcde";
    let extra = home.path().join("mine");
    std::fs::create_dir_all(&extra).unwrap();
    let said = format!("deploy with {secret} please");
    let log = frame_of("leaky-1", user_message(1, 1_796_000_000_000, &said)).to_string() + "\n";
    std::fs::write(extra.join("leaky.jsonl"), log).unwrap();
    let mut r = roots(home.path());
    r.extra.push(extra);
    let mut app = library_app(r, home.path(), None, 200, 10);
    let s = screen(&mut app);
    assert!(s.contains(secret), "{s}");
    app.update(ch('R'));
    let s = screen(&mut app);
    assert!(
        !s.contains(secret) && s.contains("‹redacted:github-pat›"),
        "{s}"
    );
    app.update(ch('/'));
    typed(&mut app, "deploy");
    app.update(key(KeyCode::Enter));
    let s = screen(&mut app);
    assert!(s.contains("1 hit") && !s.contains(secret), "{s}");
    app.update(key(KeyCode::Enter));
    settle(&mut app);
    assert!(app.redacted());
    let s = screen(&mut app);
    assert!(s.contains("deploy with") && !s.contains(secret), "{s}");
    // Off again: the secret is back.
    app.update(ch('R'));
    assert!(screen(&mut app).contains(secret));
}

/// `?` in the library opens help on the library's own keys.
#[test]
fn help_from_the_library_shows_its_keys_first() {
    let (home, _) = fake_home();
    let mut app = library_app(roots(home.path()), home.path(), None, 100, 40);
    settle(&mut app);
    app.update(ch('?'));
    let s = screen(&mut app);
    let library = s.find("deck sessions").expect("the library's section");
    let transcript = s.find("next card").expect("the transcript's keys below");
    assert!(library < transcript, "{s}");
    assert!(s.contains("filter: the next agent"), "{s}");
}

/// The agents of the list's rows, top down.
fn agents_listed(s: &str) -> Vec<String> {
    s.lines()
        .skip(2)
        .take(3)
        .map(|r| {
            r.trim_start_matches('▌')
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

/// The list says which column it is sorted by, and `s` sorts by the next:
/// start, length, calls, errors, size, then the last activity again; the
/// session selected stays selected.
#[test]
fn s_sorts_by_the_next_column_and_the_heading_says_which() {
    let (home, _) = fake_home();
    let mut app = library_app(roots(home.path()), home.path(), None, 140, 10);
    let s = screen(&mut app);
    let head = s.lines().nth(1).unwrap_or("");
    assert!(
        head.contains("last (UTC) ▾") && !head.contains("started"),
        "{s}"
    );
    assert_eq!(agents_listed(&s), ["claude-code", "codex", "dsh"], "{s}");
    // Each key's order, from the fixtures' own facts: starts 10:02, 10:00
    // and the day before; lengths 9.4 s, 7.4 s, 3.2 s; 24, 21 and 31 calls;
    // 3, 2 and 10 errors; 376, 134 and 206 KiB.
    let orders = [
        ("started (UTC) ▾", "start", ["claude-code", "codex", "dsh"]),
        ("length ▾", "length", ["claude-code", "codex", "dsh"]),
        ("calls ▾", "calls", ["dsh", "claude-code", "codex"]),
        ("errors ▾", "errors", ["dsh", "claude-code", "codex"]),
        ("size ▾", "size", ["claude-code", "dsh", "codex"]),
    ];
    for (heading, name, agents) in orders {
        app.update(ch('s'));
        let s = screen(&mut app);
        let mut lines = s.lines();
        let top = lines.next().unwrap_or("");
        assert!(top.contains(&format!("· by {name}")), "{s}");
        let head = lines.next().unwrap_or("");
        assert!(
            head.contains(heading) && head.matches('▾').count() == 1,
            "{s}"
        );
        assert_eq!(agents_listed(&s), agents, "{name}: {s}");
    }
    // The selection follows its session: claude-code, first at the start.
    let s = screen(&mut app);
    let selected = s.lines().find(|l| l.starts_with('▌')).unwrap_or("");
    assert!(selected.contains("claude-code"), "{s}");
    app.update(ch('s'));
    let s = screen(&mut app);
    assert!(!s.lines().next().unwrap_or("").contains("· by"), "{s}");
    assert_eq!(agents_listed(&s), ["claude-code", "codex", "dsh"], "{s}");
}

/// A DSH session of `turns` turns, each a prompt (`prompt N`), the last
/// one's `find WORD please`: ~250 bytes a turn.
fn long_session(turns: u64, word: &str) -> String {
    let mut s = String::new();
    for n in 0..turns {
        let text = if n + 1 == turns {
            format!("find {word} please")
        } else {
            format!("prompt {n}")
        };
        for (i, (kind, data)) in [
            ("turn/start", format!("{{\"turn\":{}}}", n + 1)),
            (
                "user/message",
                format!(
                    "{{\"content\":[{{\"type\":\"text\",\"text\":\"{text}\"}}],\"role\":\"user\"}}"
                ),
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let seq = n * 2 + i as u64;
            s.push_str(&format!(
                "{{\"type\":\"server-request\",\"rpcId\":\"r{seq}\",\"method\":\"session/event\",\"payload\":{{\"type\":\"session/event\",\"sessionId\":\"s-long\",\"event\":{{\"type\":\"{kind}\",\"seq\":{seq},\"time\":{},\"data\":{data}}}}}}}\n",
                1_796_000_000_000 + seq * 1000
            ));
        }
    }
    s
}

/// The library over a home holding one long session (`long_session` of
/// `turns`, ~250 bytes a turn) whose start or end is shown first whatever
/// its size; the home is kept while the app is.
fn long_library(turns: u64) -> (tempfile::TempDir, App) {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("logs");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("long.jsonl"), long_session(turns, "zanzibar")).unwrap();
    let mut app = library_app(
        Roots::at(home.path(), vec![dir]),
        home.path(),
        None,
        100,
        20,
    );
    app.read_hits_in_ends_from(0);
    (home, app)
}

/// Search the long library for the word at its session's end, open its
/// one hit, and tick until something of the session is shown.
fn open_the_hit(app: &mut App) {
    app.update(ch('/'));
    typed(app, "zanzibar");
    app.update(key(KeyCode::Enter));
    assert!(screen(app).contains("1 hit"), "{}", screen(app));
    app.update(key(KeyCode::Enter));
    until_shown(app);
}

/// Tick until the session being opened is shown (its start or end first).
fn until_shown(app: &mut App) {
    for _ in 0..3000 {
        app.update(Msg::Tick {
            real_ms: 10.0,
            now_ms: NOW_MS,
        });
        if !app.library_shown() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("the session was not shown");
}

#[test]
fn a_hit_at_the_end_of_a_big_session_shows_its_end_at_once_then_the_whole() {
    let turns = 16_000;
    let (_home, mut app) = long_library(turns);
    // Ticks until something is shown: the end comes first.
    open_the_hit(&mut app);
    assert!(app.is_loading(), "the end shown while the whole loads");
    let s = screen(&mut app);
    let status = s.lines().last().unwrap();
    assert!(s.contains("› find zanzibar please"), "on the hit: {s}");
    assert!(
        status.contains("loading") && status.contains('…'),
        "{status}"
    );
    let end_items = app.transcript().items().len();
    assert!(
        end_items < (turns * 2) as usize,
        "only the end: {end_items}"
    );
    // Then the whole, on the same hit.
    settle(&mut app);
    assert!(!app.is_loading());
    let t = app.transcript();
    assert_eq!(t.items().len(), (turns * 2) as usize);
    assert_eq!(
        focused(&app),
        t.items().len() - 1,
        "the hit, the last entry"
    );
    let s = screen(&mut app);
    assert!(s.contains("› find zanzibar please"), "{s}");
    assert!(!s.lines().last().unwrap().contains('…'), "{s}");
    // q: back to the hits.
    app.update(ch('q'));
    assert!(screen(&mut app).contains("1 hit"));
}

#[test]
fn leaving_a_sessions_end_before_its_whole_is_loaded_does_not_open_it_again() {
    let turns = 16_000;
    let (_home, mut app) = long_library(turns);
    open_the_hit(&mut app);
    assert!(app.is_loading());
    app.update(ch('q'));
    assert!(app.library_shown());
    settle(&mut app);
    assert!(app.library_shown(), "the whole loaded after q is not shown");
}

#[test]
fn a_big_session_opened_shows_its_start_at_once_then_the_whole_on_the_same_entry() {
    let turns = 16_000;
    let (_home, mut app) = long_library(turns);
    app.update(key(KeyCode::Enter));
    until_shown(&mut app);
    assert!(app.is_loading(), "the start shown while the whole loads");
    let s = screen(&mut app);
    assert!(s.contains("── turn 1 ") && s.contains("› prompt 0"), "{s}");
    assert!(s.lines().last().unwrap().contains("loading"), "{s}");
    let start = app.transcript().items().len();
    assert!(start < (turns * 2) as usize, "only the start: {start}");
    // An entry focused in the start is focused in the whole.
    app.update(ch('j'));
    app.update(ch('j'));
    app.update(ch('j'));
    let item = focused(&app);
    assert!(item > 0);
    settle(&mut app);
    assert!(!app.is_loading());
    assert_eq!(app.transcript().items().len(), (turns * 2) as usize);
    assert_eq!(focused(&app), item);
}
