//! Property tests over random sessions, views and text (generators in
//! `common/arb/`), at random widths 0–400 and heights 0–200:
//!
//! * nothing panics — layout, the list, the pager, whole screens, the loader;
//! * every rendered line fits its width (display columns, `Line::width`);
//! * the height the transcript list uses for an entry at a width is the
//!   number of rows it draws for it, and its cached lines are what a fresh
//!   layout at that width gives.
//!
//! Cases per property: 64 by default (`PROPTEST_CASES=N` for a longer run).
//! A failure prints the minimal input and is saved in
//! `props.proptest-regressions` beside this file; those cases run first.

use deck::app::{App, Msg};
use deck::cards::Density;
use deck::text::{Line, ansi, markdown, wrap};
use deck::theme::Theme;
use deck::view::list::{Anchor, ListOptions, MARGIN, TranscriptList};
use deck::view::transcript::{LayoutOptions, layout, render_item_tick};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::FileFailurePersistence;
use ratatui::style::Style;

use crate::common::{self, arb};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64);
    ProptestConfig {
        cases,
        // `tests/all/robust/props.proptest-regressions`: beside this file, not in a
        // `proptest-regressions/` tree parallel to the test crate's root.
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

fn themes() -> Vec<Theme> {
    ["dark", "light", "no-color"]
        .iter()
        .filter_map(|n| Theme::builtin(n))
        .collect()
}

fn density() -> impl Strategy<Value = Density> {
    select(vec![Density::Line, Density::Preview, Density::Full])
}

/// The first line wider than `width`, with its index, if any.
fn too_wide(lines: &[Line], width: usize) -> Option<(usize, usize, String)> {
    lines
        .iter()
        .enumerate()
        .find(|(_, l)| l.width() > width)
        .map(|(i, l)| (i, l.width(), l.text()))
}

proptest! {
    #![proptest_config(config())]

    /// Every item of a random session, drawn at any width, density and
    /// theme, fits the width; the whole layout does too.
    #[test]
    fn every_item_fits_its_width(
        records in arb::session(),
        width in 0usize..=400,
        density in density(),
        theme in 0usize..3,
        plain_code in any::<bool>(),
        show_reasoning in any::<bool>(),
        now in prop::option::of(0i64..10_000),
        tick in 0usize..20,
    ) {
        let t = common::fold_records(&records);
        let theme = &themes()[theme];
        let mut opts = LayoutOptions::new(width, density);
        opts.show_reasoning = show_reasoning;
        opts.plain_code = plain_code;
        opts.now_ms = now.map(|n| 1_796_000_000_000 + n);
        for item in t.items().iter() {
            let lines = render_item_tick(&t, item, theme, &opts, tick);
            prop_assert_eq!(too_wide(&lines, width), None, "item {:?}", item);
        }
        prop_assert_eq!(too_wide(&layout(&t, theme, &opts), width), None);
    }

    /// Laid out unwrapped (the pager with wrap off, the HTML page), any
    /// session draws without overflow and nothing is padded out to the
    /// unbounded width: every row is as long as its content.
    #[test]
    fn every_item_lays_out_unwrapped(
        records in arb::session(),
        density in density(),
        theme in 0usize..3,
    ) {
        let t = common::fold_records(&records);
        let theme = &themes()[theme];
        let opts = LayoutOptions::new(deck::text::UNBOUNDED, density);
        for item in t.items().iter() {
            let lines = render_item_tick(&t, item, theme, &opts, 0);
            prop_assert_eq!(too_wide(&lines, 1 << 20), None, "item {:?}", item);
        }
    }

    /// The transcript list: each entry's height is its laid-out lines plus the
    /// separator, those lines are a fresh layout at the list's width (also
    /// after the width changed), and a window drawn from any scroll position
    /// shows exactly `height` rows of each entry it passes, in order.
    #[test]
    fn list_heights_are_the_rows_it_draws(
        records in arb::session(),
        first_width in 0usize..=400,
        width in 0usize..=400,
        rows in 0usize..=200,
        density in density(),
        overrides in prop::collection::vec((0usize..40, density()), 0..4),
        hide_tools in prop::bool::weighted(0.2),
        show_reasoning in any::<bool>(),
        anchor in (0usize..40, 0usize..60),
        theme in 0usize..3,
    ) {
        let t = common::fold_records(&records);
        let theme = &themes()[theme];
        let opts_at = |width| ListOptions {
            show_reasoning,
            hide_tools,
            ..ListOptions::new(width, density)
        };
        let mut list = TranscriptList::new();
        list.follow = false;
        for (item, d) in overrides {
            list.overrides.insert(item, d);
        }
        // Fill the cache at another width first: the second pass must not reuse it.
        let first = opts_at(first_width);
        list.sync(&t, &first);
        for e in 0..list.entries.len() {
            list.lines(&t, theme, &first, e);
        }
        let opts = opts_at(width);
        list.sync(&t, &opts);
        let inner = width.saturating_sub(MARGIN).max(1);
        let n = list.entries.len();
        let mut heights = Vec::with_capacity(n);
        for e in 0..n {
            let item_idx = list.entries[e];
            let lines = list.lines(&t, theme, &opts, e);
            let mut item_opts = LayoutOptions::new(inner, list.density_of(item_idx, density));
            item_opts.show_reasoning = show_reasoning;
            let fresh = render_item_tick(&t, &t.items()[item_idx], theme, &item_opts, 0);
            let lines = lines.iter().cloned().collect::<Vec<_>>();
            prop_assert!(lines == fresh, "entry {} (item {}): cached lines differ from a fresh layout", e, item_idx);
            prop_assert_eq!(too_wide(&lines, inner), None, "entry {}", e);
            let h = list.height(&t, theme, &opts, e);
            // A blank row after every entry but the last, and none between
            // one-line cards.
            let gap = e + 1 < n && {
                let next = list.entries[e + 1];
                !deck::view::transcript::joined(
                    &t.items()[item_idx],
                    list.density_of(item_idx, density),
                    &t.items()[next],
                    list.density_of(next, density),
                )
            };
            prop_assert_eq!(h, lines.len() + usize::from(gap), "entry {}", e);
            heights.push(h);
        }
        // Draw a window from a random anchor (clamped into the list).
        if n > 0 {
            let entry = anchor.0 % n;
            let row = anchor.1 % heights[entry].max(1);
            list.anchor = Anchor { entry, row };
            let drawn = list.visible(&t, theme, &opts, rows);
            let mut expect = Vec::new();
            let (mut e, mut r) = (entry, row);
            while expect.len() < rows && e < n {
                if r < heights[e] {
                    expect.push((e, r));
                    r += 1;
                } else {
                    e += 1;
                    r = 0;
                }
            }
            let got: Vec<(usize, usize)> = drawn.iter().map(|s| (s.entry, s.row)).collect();
            prop_assert_eq!(&got, &expect);
            for s in &drawn {
                let lines = list.lines(&t, theme, &opts, s.entry);
                prop_assert_eq!(s.line(), lines.get(s.row), "entry {} row {}", s.entry, s.row);
            }
        }
        // Scrolling to the end lands where the tail anchor says, and the tail
        // window is full when the entries have enough rows.
        let tail = list.tail_anchor(&t, theme, &opts, rows);
        list.anchor = Anchor::default();
        list.scroll(&t, theme, &opts, rows, isize::MAX / 2);
        prop_assert_eq!(list.anchor, tail);
        let shown = list.visible(&t, theme, &opts, rows).len();
        prop_assert_eq!(shown, rows.min(heights.iter().sum()));
    }

    /// Whole screens of the app over a random session, at any size, after
    /// random keys (focus, densities, pager, search, help, filters): nothing
    /// panics, list rows fit the screen, and every entry drawn whole on
    /// screen takes exactly its list height in rows.
    #[test]
    fn screens_draw_at_any_size(
        records in arb::session(),
        size in (0u16..=400, 0u16..=200),
        steps in prop::collection::vec(
            (prop::option::weighted(0.3, (0u16..=400, 0u16..=200)), select("jkgGoOvhrtq/n[]e?wlE ".chars().collect::<Vec<_>>())),
            0..12,
        ),
    ) {
        let mut app = App::viewer("props".into(), common::fold_records(&records), themes());
        app.update(Msg::Resize(size.0, size.1));
        app.update(Msg::Tick { real_ms: 0.0, now_ms: common::tui::NOW_MS });
        check_screen(&mut app)?;
        for (resize, key) in steps {
            if let Some((w, h)) = resize {
                app.update(Msg::Resize(w, h));
            }
            app.update(common::tui::ch(key));
            check_screen(&mut app)?;
        }
    }

    /// Lines of the real captures, some cut short, some with their bytes
    /// changed, some of them repeated or dropped: the loader never fails on
    /// them unexpectedly, and what folds draws within the width.
    #[test]
    fn damaged_captures_load_and_fit(
        picks in prop::collection::vec((0usize..1400, 0u8..6, any::<usize>(), any::<u8>()), 1..40),
        width in 0usize..=400,
        density in density(),
    ) {
        let lines = capture_lines();
        let mut input = Vec::new();
        for (i, how, at, byte) in picks {
            let mut l = lines[i % lines.len()].as_bytes().to_vec();
            match how {
                0 => l.truncate(at % (l.len() + 1)),
                1 => {
                    let at = at % l.len().max(1);
                    if let Some(b) = l.get_mut(at) {
                        *b = byte;
                    }
                }
                2 => l.insert(at % (l.len() + 1), byte),
                _ => {}
            }
            input.extend_from_slice(&l);
            input.push(b'\n');
        }
        if let Ok(loaded) = deck::source::load_bytes("props", &input) {
            let theme = Theme::dark();
            for s in &loaded.sessions {
                let t = common::fold_session(s);
                let out = layout(&t, &theme, &LayoutOptions::new(width, density));
                prop_assert_eq!(too_wide(&out, width), None);
            }
        }
    }

    /// The text machinery on its own: markdown, terminal output, wrapping and
    /// truncation fit any width (at least one column: they lay out at
    /// `max(width, 1)`).
    #[test]
    fn text_fits_any_width(text in arb::text(), width in 0usize..=400) {
        let theme = Theme::dark();
        let w1 = width.max(1);
        prop_assert_eq!(too_wide(&markdown::render(&text, width, &theme, Style::default()), w1), None);
        prop_assert_eq!(too_wide(&ansi::render(&text, width, &theme), w1), None);
        let clean = Line::plain(deck::text::sanitize::inline(&text));
        prop_assert_eq!(too_wide(&wrap::words(&clean, width), w1), None);
        prop_assert_eq!(too_wide(&wrap::chars(&clean, width), w1), None);
        prop_assert!(wrap::fit(clean.clone(), width).width() <= width);
        prop_assert!(wrap::truncate(&clean, width).width() <= width);
    }
}

/// Draw the app and check the list rows against the list's own heights.
fn check_screen(app: &mut App) -> Result<(), TestCaseError> {
    let area = common::tui::draw(app).area;
    if area.is_empty() || app.modal().is_pager() {
        // Nothing drawn, or the pager over the list: `row_map` is still the
        // last list screen's.
        return Ok(());
    }
    let w = app.width() as usize;
    let t = app.transcript().clone();
    let theme = app.theme().clone();
    let opts = app.list_options();
    let inner = w.saturating_sub(MARGIN).max(1);
    // Rows per entry, in screen order (the list draws from the top).
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for e in app.row_map().iter().flatten() {
        match runs.last_mut() {
            Some((last, n)) if last == e => *n += 1,
            _ => runs.push((*e, 1)),
        }
    }
    for (k, (e, n)) in runs.iter().enumerate() {
        let lines: Vec<_> = app
            .list_mut()
            .lines(&t, &theme, &opts, *e)
            .iter()
            .cloned()
            .collect();
        prop_assert_eq!(too_wide(&lines, inner), None, "entry {}", e);
        // The first and last entries may be cut by the screen edges.
        if k > 0 && k + 1 < runs.len() {
            let h = app.list_mut().height(&t, &theme, &opts, *e);
            prop_assert_eq!(*n, h, "entry {} drew {} rows, height {}", e, n, h);
        }
    }
    Ok(())
}

/// Every line of the two real frame captures (read once).
fn capture_lines() -> &'static [String] {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let lines: Vec<String> = common::CAPTURES
            .iter()
            .flat_map(|c| {
                common::capture_text(c, "frames.jsonl")
                    .lines()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(!lines.is_empty(), "the captures hold frames");
        lines
    })
}
