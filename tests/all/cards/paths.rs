//! Paths as cards show them (issue "Every card tells the truth", calm):
//! relative to the session's working directory when inside it, cut in the
//! middle so the file name stays, and in full in the pager and in copy.

use crossterm::event::KeyCode;
use deck::app::{App, Effect, Msg};

use deck::cards::Density;
use deck::headless::{self, Format};
use deck::theme::Theme;
use deck::view::transcript::LayoutOptions;

use crate::common::tui::{ch, key, screen, themes};
use crate::common::{capture_str, fold};

/// The whole session as `deck render` writes it, at `width`.
fn render(t: &deck::session::Transcript, width: usize) -> String {
    let opts = LayoutOptions::new(width, Density::Preview);
    headless::render(t, &Theme::dark(), &opts, None, Format::Text)
}

#[test]
fn paths_inside_the_sessions_directory_are_relative() {
    // The session log's header says `cwd: /workspace/demo`.
    let log = fold(&capture_str("approvals", "session.jsonl.zstd"));
    assert_eq!(log.cwd(), Some("/workspace/demo"));
    let text = render(&log, 100);
    for want in [
        "≡ Read notes.md",
        "≡ Read src/app.py (2 - 4)",
        "± Edit notes.md",
        "± Write docs/new.md",
        "│ docs/new.md (new file)",
    ] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    // A command runs where the session does: no `in /workspace/demo` row.
    assert!(!text.contains("in /workspace/demo"), "{text}");
    // Outside it, a path stays whole.
    assert!(
        text.contains("/var/tmp/dsh-capture-probe-write.txt"),
        "{text}"
    );
    // A frame log says no directory: the same cards with full paths.
    let frames = fold(&capture_str("approvals", "frames.jsonl"));
    assert_eq!(frames.cwd(), None);
    let full = render(&frames, 100);
    assert!(full.contains("≡ Read /workspace/demo/notes.md"), "{full}");
}

#[test]
fn a_narrow_header_cuts_a_path_in_the_middle() {
    let frames = fold(&capture_str("approvals", "frames.jsonl"));
    let text = render(&frames, 48);
    // `Read /workspace/demo/src/app.py (2 - 4)` does not fit beside its
    // outcome: the file name stays.
    let header = text
        .lines()
        .find(|l| l.contains("app.py (2 - 4)"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(header.contains("≡ Read …/"), "{header}");
}

#[test]
fn the_pager_and_copy_have_the_full_path() {
    let t = fold(&capture_str("approvals", "session.jsonl.zstd"));
    let item = crate::common::tui::card_item(&t, "Edit /workspace/demo/notes.md");
    let mut app = App::viewer("log".into(), t, themes());
    app.update(Msg::Resize(100, 30));
    app.update(ch('g'));
    for _ in 0..item {
        app.update(ch('j'));
    }
    let s = screen(&mut app);
    assert!(s.contains("± Edit notes.md"), "{s}");
    match app.update(ch('c')).first() {
        Some(Effect::Copy(text)) => assert_eq!(text, "/workspace/demo/notes.md"),
        fx => panic!("{fx:?}"),
    }
    app.update(key(KeyCode::Enter));
    app.update(ch('v'));
    let pager = screen(&mut app);
    assert!(pager.contains("Edit /workspace/demo/notes.md"), "{pager}");
    assert!(pager.contains("│ /workspace/demo/notes.md"), "{pager}");
}

#[test]
fn a_live_session_takes_its_directory_from_the_host() {
    let mut app = App::live("host".into(), Some("s1".into()), themes());
    app.update(Msg::Sessions(vec![
        deck::source::sessions::SessionSummary {
            id: "s1".into(),
            cwd: Some("/work/proj".into()),
            ..Default::default()
        },
    ]));
    app.update(Msg::Reset {
        session_id: Some("s1".into()),
    });
    assert_eq!(app.transcript().cwd(), Some("/work/proj"));
}
