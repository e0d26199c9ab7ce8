//! Tests of the terminal emulation and of the direct path for plain
//! coloured output.

use super::*;

fn plain(output: &str) -> Vec<String> {
    lines(output, &Theme::dark(), Style::default())
        .iter()
        .map(Line::text)
        .collect()
}

fn no_controls(lines: &[Line]) {
    for l in lines {
        for s in &l.spans {
            assert!(sanitize::is_clean(&s.text), "control left in {:?}", s.text);
        }
    }
}

#[test]
fn carriage_return_overwrites() {
    assert_eq!(plain("10%\r50%\r100%\ndone\n"), vec!["100%", "done"]);
    // A shorter redraw leaves the rest of the old text, as a terminal does.
    assert_eq!(plain("abcdef\rXY\n"), vec!["XYcdef"]);
    // Erase-line after `\r` clears it.
    assert_eq!(
        plain("downloading 1/3\r\u{1b}[2Kdownloaded\n"),
        vec!["downloaded"]
    );
}

#[test]
fn bare_line_feed_returns_the_carriage() {
    assert_eq!(plain("one\ntwo\nthree"), vec!["one", "two", "three"]);
    assert_eq!(plain("a\r\nb\r\n"), vec!["a", "b"]);
    assert_eq!(plain("\n\nx\n\n\n"), vec!["", "", "x"]);
}

#[test]
fn sgr_colours_become_styles() {
    let ls = lines(
        "\u{1b}[31mred\u{1b}[0m plain \u{1b}[1;38;2;1;2;3mrgb\u{1b}[m",
        &Theme::dark(),
        Style::default(),
    );
    assert_eq!(ls.len(), 1);
    let spans = &ls[0].spans;
    assert_eq!(spans[0].text, "red");
    assert_eq!(spans[0].style.fg, Some(Color::Red));
    assert_eq!(spans[1].text, " plain ");
    assert_eq!(spans[1].style, Style::default());
    assert_eq!(spans[2].text, "rgb");
    assert_eq!(spans[2].style.fg, Some(Color::Rgb(1, 2, 3)));
    assert!(spans[2].style.add_modifier.contains(Modifier::BOLD));
}

#[test]
fn default_colour_resets_do_not_punch_through() {
    let base = Style::default().fg(Color::Rgb(9, 9, 9));
    let ls = lines("a\u{1b}[32mb\u{1b}[39mc\u{1b}[0md", &Theme::dark(), base);
    let spans = &ls[0].spans;
    assert_eq!(spans[0].style.fg, Some(Color::Rgb(9, 9, 9)));
    assert_eq!(spans[1].style.fg, Some(Color::Green));
    assert_eq!(spans[2].text, "cd");
    assert_eq!(spans[2].style.fg, Some(Color::Rgb(9, 9, 9)));
    assert!(ls[0].spans.iter().all(|s| s.style.fg != Some(Color::Reset)));
}

#[test]
fn monochrome_keeps_attributes_only() {
    let theme = Theme::builtin("no-color").unwrap();
    let ls = lines("\u{1b}[1;31;42mx\u{1b}[0m", &theme, Style::default());
    let s = ls[0].spans[0].style;
    assert!(s.fg.is_none() && s.bg.is_none());
    assert!(s.add_modifier.contains(Modifier::BOLD));
}

#[test]
fn cursor_moves_clears_and_strings_never_reach_the_text() {
    let out = "\u{1b}]0;window title\u{7}\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\ \u{1b}[5Cgap\n\
               \u{1b}P1$r0m\u{1b}\\dcs\u{1b}[?25l\u{1b}[?2004h\n\
               \u{1b}[3;5Hmoved\n\
               bell\u{7} \u{1b}[6n q\n";
    let ls = lines(out, &Theme::dark(), Style::default());
    no_controls(&ls);
    let text: Vec<String> = ls.iter().map(Line::text).collect();
    assert_eq!(text[0], "link      gap");
    assert_eq!(text[1], "dcs");
    assert_eq!(text[2], "    moved");
    assert_eq!(text[3], "bell  q");
    for t in &text {
        assert!(
            !t.contains('␛') && !t.contains("title") && !t.contains("http"),
            "{t:?}"
        );
    }
}

#[test]
fn clear_screen_keeps_the_old_text_and_redraws() {
    assert_eq!(
        plain("old\n\u{1b}[2J\u{1b}[Hnew\n"),
        vec!["old", "── screen cleared ──", "new"]
    );
    // A two-row progress redraw through cursor-up.
    let out = "a 1/2\nb 1/2\n\u{1b}[2A\r\u{1b}[2Ka 2/2\n\u{1b}[2Kb 2/2\n";
    assert_eq!(plain(out), vec!["a 2/2", "b 2/2"]);
}

#[test]
fn printable_oddities_are_sanitized() {
    let ls = lines("rtl\u{202e}txt\tend\n", &Theme::dark(), Style::default());
    no_controls(&ls);
    // The mark takes no cell, so the tab stop is at column 8 of the six glyphs.
    assert_eq!(ls[0].text(), "rtl<U+202E>txt  end");
}

#[test]
fn wide_glyphs_and_split_utf8() {
    assert_eq!(plain("日本語 ok\n"), vec!["日本語 ok"]);
    // A line far longer than the emulated screen is fed in pieces that
    // split multi-byte characters; it comes back whole.
    let long: String = "é日x".repeat(2000);
    let got = plain(&long);
    assert_eq!(got, vec![long]);
}

#[test]
fn huge_output_stays_linear_and_complete() {
    let mut s = String::new();
    for i in 0..30_000 {
        s.push_str(&format!("line {i} \u{1b}[32mok\u{1b}[0m\n"));
    }
    s.push_str(&"z".repeat(300_000));
    let ls = lines(&s, &Theme::dark(), Style::default());
    assert_eq!(ls.len(), 30_001);
    assert_eq!(ls[0].text(), "line 0 ok");
    assert_eq!(ls[29_999].text(), "line 29999 ok");
    assert_eq!(ls[29_999].spans[1].style.fg, Some(Color::Green));
    assert_eq!(ls[30_000].width(), 300_000);
}

/// Random outputs of what the simple path reads (printable ASCII, tabs,
/// line feeds, CR LF, SGR of every kind vt100 knows and some it does
/// not): the same lines as through the emulator, in colour and in
/// monochrome.
#[test]
fn the_simple_path_lays_out_as_the_emulator() {
    use proptest::prelude::*;
    let mut runner = proptest::test_runner::TestRunner::default();
    let sgr = prop_oneof![
        Just("\u{1b}[m".to_string()),
        Just("\u{1b}[0m".to_string()),
        Just("\u{1b}[;1m".to_string()),
        Just("\u{1b}[38;5;208m".to_string()),
        Just("\u{1b}[48;2;10;20;300m".to_string()),
        Just("\u{1b}[38;2;1;2m".to_string()),
        Just("\u{1b}[38;9;1m".to_string()),
        proptest::collection::vec(
            prop_oneof![0u16..10, 20u16..30, 30u16..50, 90u16..108, 0u16..400],
            0..5
        )
        .prop_map(|ps| format!(
            "\u{1b}[{}m",
            ps.iter().map(u16::to_string).collect::<Vec<_>>().join(";")
        )),
    ];
    let part = prop_oneof![
        "[ -~]{0,12}".prop_map(|s| s),
        Just("\t".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("   ".to_string()),
        sgr,
    ];
    let strat = proptest::collection::vec(part, 0..40);
    let themes = [Theme::dark(), Theme::builtin("no-color").unwrap()];
    runner
        .run(&strat, |parts| {
            let s: String = parts.concat();
            prop_assert!(simple::check(&s), "{s:?}");
            for theme in &themes {
                let base = Style::default().fg(Color::Rgb(9, 9, 9));
                let mut fast = Vec::new();
                lines_into(&s, theme, base, &mut |l| fast.push(l));
                let mut slow = Vec::new();
                emulated(&s, theme, base, &mut |l| slow.push(l));
                prop_assert_eq!(&fast, &slow, "{:?}", s);
            }
            Ok(())
        })
        .unwrap();
    // What it does not read goes through the emulator.
    for s in [
        "a\rb",
        "\u{1b}[2J",
        "é",
        "\u{1b}]0;t\u{7}",
        "\u{1b}[1:2m",
        "x\u{7f}",
    ] {
        assert!(!simple::check(s), "{s:?}");
    }
    assert!(!simple::check(&"x".repeat(MAX_COLS)));
}

#[test]
fn render_wraps_to_width() {
    let theme = Theme::dark();
    for w in [1, 2, 3, 7, 80] {
        for l in render("0123456789abcdef\n日本語日本語\n", w, &theme) {
            assert!(l.width() <= w, "{w}: {:?}", l.text());
        }
    }
    assert!(render("", 10, &theme).is_empty());
}

#[test]
fn arbitrary_bytes_never_panic_or_leak_controls() {
    use proptest::prelude::*;
    let mut runner = proptest::test_runner::TestRunner::default();
    let strat = proptest::collection::vec(
        prop_oneof![
            Just("\u{1b}[".to_string()),
            Just("\u{1b}]".to_string()),
            Just("\r".to_string()),
            Just("\n".to_string()),
            Just("\u{1b}P".to_string()),
            "[0-9;?]{0,4}".prop_map(|s| s),
            "[A-Za-z@]".prop_map(|s| s),
            any::<char>().prop_map(|c| c.to_string()),
        ],
        0..60,
    );
    runner
        .run(&strat, |parts| {
            let s: String = parts.concat();
            let ls = lines(&s, &Theme::dark(), Style::default());
            for l in &ls {
                for sp in &l.spans {
                    prop_assert!(sanitize::is_clean(&sp.text));
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn clearing_the_screen_keeps_what_was_printed() {
    assert_eq!(
        plain("one\ntwo\n\u{1b}[2J\u{1b}[Hthree\n"),
        vec!["one", "two", "── screen cleared ──", "three"]
    );
    // Cursor home first, then erase (what `clear` prints), twice over:
    // one marker for one wipe of something shown.
    assert_eq!(
        plain("build 1\n\u{1b}[H\u{1b}[2J\u{1b}[3Jbuild 2\n\u{1b}[H\u{1b}[2J\u{1b}[3Jbuild 3"),
        vec![
            "build 1",
            "── screen cleared ──",
            "build 2",
            "── screen cleared ──",
            "build 3"
        ]
    );
    // Nothing shown yet: nothing lost, no marker.
    assert_eq!(plain("\u{1b}[2J\u{1b}[Hhello\n"), vec!["hello"]);
    // Mid-line text before the wipe is kept too.
    assert_eq!(
        plain("partial\u{1b}[2J\u{1b}[Hnext"),
        vec!["partial", "── screen cleared ──", "next"]
    );
}

#[test]
fn the_alternate_screen_and_a_reset_keep_what_was_printed() {
    assert_eq!(
        plain("before\n\u{1b}[?1049h\u{1b}[Hin the full screen\u{1b}[?1049lafter\n"),
        vec![
            "before",
            "── full-screen output ──",
            "in the full screen",
            "── end of full-screen output ──",
            "after"
        ]
    );
    let theme = Theme::dark();
    let out = lines("\u{1b}[31mred\u{1b}cplain", &theme, Style::default());
    let texts: Vec<String> = out.iter().map(Line::text).collect();
    assert_eq!(texts, vec!["red", "── terminal reset ──", "plain"]);
    assert_ne!(out[0].spans[0].style.fg, None, "red is red");
    assert_eq!(out[2].spans[0].style.fg, None, "the reset dropped the colour");
    assert_eq!(
        out[1].spans[0].style,
        theme.style(crate::theme::Role::Muted),
        "the marker is muted"
    );
    no_controls(&out);
}

#[test]
fn progress_redraws_still_resolve_around_a_wipe() {
    assert_eq!(
        plain("10%\r50%\r100%\n\u{1b}[2J\u{1b}[Hdone 1/2\rdone 2/2\n"),
        vec!["100%", "── screen cleared ──", "done 2/2"]
    );
    // Multi-line cursor-up redraws are untouched.
    assert_eq!(
        plain("a: 0%\nb: 0%\n\u{1b}[2A\ra: 100%\nb: 100%\n"),
        vec!["a: 100%", "b: 100%"]
    );
}
