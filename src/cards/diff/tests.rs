use super::*;
use crate::cards::Density;
use crate::theme::Theme;

fn fd(path: &str, old: Option<&str>, new: &str) -> FileDiff {
    FileDiff {
        path: path.into(),
        old_text: old.map(str::to_string),
        new_text: new.into(),
        start_line: None,
        new_start_line: None,
        before: None,
    }
}

fn view(diffs: Vec<FileDiff>) -> DiffView {
    DiffView {
        title: Some("Edit".into()),
        diffs,
        locations: Vec::new(),
    }
}

fn texts(b: &crate::cards::Body) -> Vec<String> {
    b.lines.iter().map(Line::text).collect()
}

fn multi_hunk() -> DiffView {
    let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let new = old
        .replace("line 3\n", "line three\n")
        .replace("line 25\n", "line 25 changed\n");
    view(vec![fd("src/a.txt", Some(&old), &new)])
}

#[test]
fn outcome_counts_lines_and_files() {
    let v = view(vec![fd("a.md", Some("status: draft"), "status: reviewed")]);
    assert_eq!(outcome(&v).as_deref(), Some("+1 −1"));
    let v = view(vec![
        fd("a.md", Some("x\ny"), "x\nz\nw"),
        fd("b.md", None, "1\n2\n"),
    ]);
    assert_eq!(outcome(&v).as_deref(), Some("+4 −1 · 2 files"));
    assert_eq!(outcome(&view(vec![])), None);
}

#[test]
fn hunks_are_separated_and_numbered_only_where_known() {
    let theme = Theme::dark();
    let ctx = Ctx::new(80, &theme, Density::Full);
    let b = body(&multi_hunk(), &ctx);
    let t: Vec<String> = texts(&b).iter().map(|l| l.trim_end().to_string()).collect();
    // Snippets whose place in the file is unknown: no numbers at all.
    assert_eq!(t[0], "src/a.txt · lines unknown");
    assert_eq!(
        t.iter().filter(|l| l.as_str() == SEPARATOR_TEXT).count(),
        1,
        "{t:#?}"
    );
    assert!(t.contains(&"- line 3".to_string()), "{t:#?}");
    assert!(t.contains(&"+ line three".to_string()), "{t:#?}");
    assert!(t.contains(&"- line 25".to_string()), "{t:#?}");
    assert!(!t.iter().any(|l| l.starts_with(char::is_numeric)), "{t:#?}");
    assert!(t.contains(&"+ line 25 changed".to_string()), "{t:#?}");
    assert_eq!(t.last().unwrap(), "+2 −2 · 1 file");
    // Three context lines on each side of a change.
    let sep = t.iter().position(|l| l == SEPARATOR_TEXT).unwrap();
    assert_eq!(t[sep - 1], "  line 6");
    assert_eq!(t[sep + 1], "  line 22");
}

const SEPARATOR_TEXT: &str = layout::SEPARATOR;

#[test]
fn changed_words_are_emphasised() {
    let theme = Theme::dark();
    let ctx = Ctx::new(80, &theme, Density::Full);
    let v = view(vec![fd(
        "notes.md",
        Some("# Notes\n\nstatus: draft\n"),
        "# Notes\n\nstatus: reviewed\n",
    )]);
    let b = body(&v, &ctx);
    let emph_add = theme.style(Role::DiffAddedEmph).bg;
    let emph_del = theme.style(Role::DiffRemovedEmph).bg;
    let added = b
        .lines
        .iter()
        .find(|l| l.text().contains("+ status"))
        .unwrap();
    let removed = b
        .lines
        .iter()
        .find(|l| l.text().contains("- status"))
        .unwrap();
    let spans = |l: &Line, bg| {
        l.spans
            .iter()
            .filter(|s| s.style.bg == bg)
            .map(|s| s.text.clone())
            .collect::<String>()
    };
    assert_eq!(spans(added, emph_add), "reviewed");
    assert_eq!(spans(removed, emph_del), "draft");
    // The rest of the changed line has the plain diff background.
    assert!(
        added
            .spans
            .iter()
            .any(|s| s.style.bg == theme.style(Role::DiffAdded).bg)
    );
}

#[test]
fn syntax_colours_blend_with_the_diff_background() {
    let theme = Theme::dark();
    let ctx = Ctx::new(80, &theme, Density::Full);
    let v = view(vec![fd(
        "app.py",
        Some("def add(a, b):\n    return a + b\n"),
        "def add(a, b):\n    return a - b\n",
    )]);
    let b = body(&v, &ctx);
    let added = b
        .lines
        .iter()
        .find(|l| l.text().contains("+     return"))
        .unwrap();
    let bg = theme.style(Role::DiffAdded).bg;
    let code: Vec<_> = added
        .spans
        .iter()
        .filter(|s| s.style.bg == bg && !s.text.trim().is_empty())
        .collect();
    let fgs: BTreeSet<String> = code.iter().map(|s| format!("{:?}", s.style.fg)).collect();
    assert!(
        fgs.len() > 1,
        "expected several syntax colours on the diff background: {fgs:?}"
    );
}

#[test]
fn no_color_theme_has_no_colours() {
    let theme = Theme::builtin("no-color").unwrap();
    for w in [40, 200] {
        let ctx = Ctx::new(w, &theme, Density::Full);
        let v = view(vec![
            fd("app.py", Some("a = 1\nb = 2\n"), "a = 1\nb = 3\n"),
            fd("new.rs", None, "fn main() {}\n"),
        ]);
        for l in body(&v, &ctx).lines {
            for s in &l.spans {
                assert!(s.style.fg.is_none() && s.style.bg.is_none(), "{:?}", s);
            }
        }
    }
}

#[test]
fn new_files_are_all_added_from_line_one() {
    let theme = Theme::dark();
    let ctx = Ctx::new(60, &theme, Density::Full);
    let v = view(vec![fd(
        "docs/new.md",
        None,
        "# New doc\n\nTODO: fill this in\n",
    )]);
    // A new file starts at line 1: those numbers are true.
    let t = texts(&body(&v, &ctx));
    assert_eq!(t[0], "docs/new.md (new file)");
    assert_eq!(t[1].trim_end(), "  1 + # New doc");
    assert_eq!(t[2].trim_end(), "  2 +");
    assert_eq!(t[3].trim_end(), "  3 + TODO: fill this in");
    assert_eq!(t[4], "+3 −0 · 1 file");
}

#[test]
fn a_file_written_whole_is_new_only_when_nothing_says_otherwise() {
    let theme = Theme::dark();
    let ctx = Ctx::new(80, &theme, Density::Full);
    let header = |d: FileDiff| texts(&body(&view(vec![d]), &ctx))[0].clone();
    assert_eq!(header(fd("a.md", None, "x\n")), "a.md (new file)");
    assert_eq!(
        header(fd("a.md", None, "x\n").existed_unknown()),
        "a.md (whole file written; new: unknown)"
    );
    assert_eq!(
        header(fd("a.md", None, "x\n").overwritten()),
        "a.md (overwritten; old text unknown)"
    );
}

#[test]
fn same_path_entries_share_a_header() {
    let theme = Theme::dark();
    let ctx = Ctx::new(60, &theme, Density::Full);
    let v = view(vec![fd("a.md", Some("x"), "y"), fd("a.md", Some("p"), "q")]);
    let t = texts(&body(&v, &ctx));
    assert_eq!(
        t.iter()
            .filter(|l| l.as_str() == "a.md · lines unknown")
            .count(),
        1
    );
    assert_eq!(t.iter().filter(|l| l.as_str() == SEPARATOR_TEXT).count(), 1);
    assert_eq!(outcome(&v).as_deref(), Some("+2 −2"));
}

#[test]
fn side_by_side_from_160_columns() {
    let theme = Theme::dark();
    let v = view(vec![fd(
        "notes.md",
        Some("a\nstatus: draft\nb\n"),
        "a\nstatus: reviewed\nb\n",
    )]);
    let narrow = texts(&body(&v, &Ctx::new(159, &theme, Density::Full)));
    assert!(narrow.iter().all(|l| !l.contains('│')));
    let wide = body(&v, &Ctx::new(160, &theme, Density::Full));
    let t = texts(&wide);
    let row = t.iter().find(|l| l.contains("draft")).unwrap();
    let (left, right) = row.split_once(" │ ").unwrap();
    assert!(left.starts_with("- status: draft"), "{row:?}");
    assert!(right.starts_with("+ status: reviewed"), "{row:?}");
    assert_eq!(unicode_width::UnicodeWidthStr::width(left), 78);
    for l in &wide.lines {
        assert!(l.width() <= 160);
    }
}

#[test]
fn a_new_file_takes_the_full_width_side_by_side_or_not() {
    let theme = Theme::dark();
    let line = "x".repeat(120);
    let v = view(vec![fd("new.md", None, &format!("# New\n{line}\n"))]);
    let wide = texts(&body(&v, &Ctx::new(200, &theme, Density::Full)));
    // No empty old column: the long line is on one row, after its number.
    assert!(wide.iter().all(|l| !l.contains(" │ ")), "{wide:#?}");
    assert!(wide.iter().any(|l| l.trim_end().ends_with(&line)), "{wide:#?}");
    let narrow = texts(&body(&v, &Ctx::new(100, &theme, Density::Full)));
    assert!(narrow.iter().any(|l| l.contains("# New")), "{narrow:#?}");
}

#[test]
fn a_diff_past_its_budget_says_so() {
    let theme = Theme::dark();
    let ctx = Ctx::new(80, &theme, Density::Full);
    // Unrelated texts of repeated lines: nothing anchors them, and
    // Myers would cost the square of their length.
    let mut seed = 3u64;
    let mut text = || {
        (0..12_000)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                ["}\n", "\n", "  x\n", "y;\n"][(seed >> 33) as usize % 4]
            })
            .collect::<String>()
    };
    let (old, new) = (text(), text());
    let t = texts(&body(&view(vec![fd("big.txt", Some(&old), &new)]), &ctx));
    assert!(
        t.iter().any(|l| l.starts_with("approximate diff")),
        "{:#?}",
        &t[..5]
    );
}

#[test]
fn long_lines_wrap_with_a_continuation_mark() {
    let theme = Theme::dark();
    let ctx = Ctx::new(30, &theme, Density::Full);
    let long = "x".repeat(50);
    let v = view(vec![fd("a.txt", Some("short\n"), &format!("{long}\n"))]);
    let t = texts(&body(&v, &ctx));
    let first = t.iter().position(|l| l.contains("+ xxx")).unwrap();
    assert!(t[first + 1].starts_with("↪ + xxx"), "{t:#?}");
}

#[test]
fn every_width_fits() {
    let theme = Theme::dark();
    let mut diffs = multi_hunk().diffs;
    diffs.push(fd(
        "日本/語.rs",
        Some("fn a() {}\n\tlet x = \"\u{1b}[2J\";\n"),
        "fn a() { 日本語日本語 }\n\tlet x = 1;\n",
    ));
    diffs.push(fd(
        "new.py",
        None,
        &format!("{}\n", "y = 1 + 2 ".repeat(40)),
    ));
    let v = view(diffs);
    for w in 1..=400 {
        let b = body(&v, &Ctx::new(w, &theme, Density::Full));
        for l in &b.lines {
            assert!(l.width() <= w, "width {w}: {:?}", l.text());
            assert!(sanitize::is_clean(&l.text()), "{:?}", l.text());
        }
    }
}

/// Lines added after a text's last line are the only change, whether that
/// line ended with a newline or not; a newline missing at the end of one
/// text changes nothing.
#[test]
fn appending_after_the_last_line_changes_only_the_added_lines() {
    use super::model::FileModel;
    for (old, new) in [
        ("a\n    return 1\n", "a\n    return 1\n\ndef g():\n    return 2\n"),
        ("a\n    return 1", "a\n    return 1\n\ndef g():\n    return 2"),
        ("a\r\n    return 1", "a\r\n    return 1\r\nb\r\n"),
    ] {
        let m = FileModel::compute(Some(old), new);
        assert_eq!((m.removed, m.added), (0, new.lines().count() - 2), "{old:?} → {new:?}");
    }
    let m = FileModel::compute(Some("a\nb"), "a\nb\n");
    assert_eq!((m.removed, m.added), (0, 0));
    assert!(m.hunks.is_empty());
}

#[test]
fn each_side_is_numbered_from_its_own_start() {
    // A hunk below one that added two lines: `@@ -408,3 +410,3 @@`.
    let mut d = fd("data.txt", Some("a\nb\nc\n"), "a\nB\nc\n");
    d.start_line = Some(408);
    d.new_start_line = Some(410);
    let theme = Theme::dark();
    for width in [80, SIDE_BY_SIDE_WIDTH + 20] {
        let ctx = Ctx::new(width, &theme, Density::Full);
        let t = texts(&body(&view(vec![d.clone()]), &ctx));
        assert_eq!(t[0].trim_end(), "data.txt", "{t:#?}");
        let row = |s: &str| t.iter().find(|l| l.contains(s)).cloned().unwrap_or_default();
        assert!(row("- b").starts_with("409 "), "{t:#?}");
        assert!(row("+ B").contains("411 + B"), "{t:#?}");
        let context = row("  a");
        assert!(context.starts_with("408 ") && context.contains("410"), "{t:#?}");
    }
    // Without `startLine` the new side's start alone places nothing.
    let mut loose = fd("data.txt", Some("a\n"), "b\n");
    loose.new_start_line = Some(410);
    let ctx = Ctx::new(80, &theme, Density::Full);
    let t = texts(&body(&view(vec![loose]), &ctx));
    assert_eq!(t[0].trim_end(), "data.txt · lines unknown");
}
