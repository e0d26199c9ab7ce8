use super::*;

#[test]
fn rust_gets_colours_in_dark() {
    let theme = Theme::dark();
    let lines = highlight("fn main() {}\n", Some("rs"), &theme, Style::default());
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].text(), "fn main() {}");
    assert!(lines[0].spans.len() > 1, "expected several coloured spans");
}

#[test]
fn ansi_syntax_theme_uses_palette_colours() {
    let theme = Theme::builtin("ansi-dark").unwrap();
    let lines = highlight(
        "fn main() { let x = 1; }",
        Some("rs"),
        &theme,
        Style::default(),
    );
    assert!(lines[0].spans.len() > 1);
    for s in &lines[0].spans {
        assert!(!matches!(s.style.fg, Some(Color::Rgb(..))), "{:?}", s.style);
    }
}

#[test]
fn a_limit_colours_only_the_first_lines() {
    let theme = Theme::dark();
    let code = "fn a() {}\nfn b() {}\nfn c() {}";
    let all = highlight(code, Some("rs"), &theme, Style::default());
    let first = highlight_first(code, Some("rs"), &theme, Style::default(), 2);
    assert_eq!(first[..2], all[..2]);
    assert!(all[2].spans.len() > 1);
    assert_eq!(first[2].spans.len(), 1);
    assert_eq!(first[2].text(), all[2].text());
}

#[test]
fn parallel_lines_match_one_by_one_even_when_a_guess_is_wrong() {
    let theme = Theme::dark();
    // Rust with items at the left margin, and a block comment and a
    // string that span lines, so some piece starts inside them.
    let mut src = Vec::new();
    for i in 0..3_000 {
        src.push(format!("fn f{i}(x: u32) -> u32 {{"));
        src.push(format!("    x + {i} // add"));
        src.push("}".to_string());
        if i % 97 == 0 {
            src.push("/* a comment".to_string());
            src.push("fn not_code() {}".to_string());
            src.push("*/".to_string());
            src.push("const S: &str = \"".to_string());
            src.push("fn inside_a_string()".to_string());
            src.push("\";".to_string());
        }
    }
    let lines: Vec<&str> = src.iter().map(String::as_str).collect();
    let mut h = Highlighter::new(Some("rs"), &theme, Style::default());
    let one_by_one: Vec<Line> = lines.iter().map(|l| h.line(l)).collect();
    let par = highlight_lines(&lines, Some("rs"), &theme, Style::default(), usize::MAX);
    assert_eq!(par, one_by_one);
    // Everything after the middle inside one block comment: every piece
    // after the first starts inside it, so every guess is wrong.
    let mut commented: Vec<&str> = lines[..5_000].to_vec();
    commented.push("/*");
    commented.extend(std::iter::repeat_n("fn looks_like_code() {}", 5_000));
    commented.push("*/");
    let mut h = Highlighter::new(Some("rs"), &theme, Style::default());
    let expect: Vec<Line> = commented.iter().map(|l| h.line(l)).collect();
    let got = highlight_lines(&commented, Some("rs"), &theme, Style::default(), usize::MAX);
    assert_eq!(got, expect);
    assert_ne!(got[7_000], one_by_one[0], "inside the comment is not code");
    let limited = highlight_lines(&lines, Some("rs"), &theme, Style::default(), 2_500);
    assert_eq!(limited[..2_500], one_by_one[..2_500]);
    assert_eq!(limited[2_600].spans.len(), 1);
}

#[test]
fn window_by_window_is_the_same_as_all_at_once() {
    let theme = Theme::dark();
    let mut src = Vec::new();
    for i in 0..2_500 {
        src.push(format!("fn f{i}() {{ /* a comment"));
        src.push("   still the comment */ let s = \"a".to_string());
        src.push("string\"; }".to_string());
        src.push(String::new());
    }
    let lines: Vec<&str> = src.iter().map(String::as_str).collect();
    let whole = highlight_lines(&lines, Some("rs"), &theme, Style::default(), usize::MAX);
    for window in [1, 7, 999, 2_500, 4_096] {
        let mut at = Checkpoint::default();
        let mut got = Vec::new();
        for w in lines.chunks(window) {
            got.extend(highlight_lines_from(
                w,
                Some("rs"),
                &theme,
                Style::default(),
                usize::MAX,
                &mut at,
            ));
        }
        assert_eq!(got, whole, "windows of {window}");
    }
}

#[test]
fn no_color_is_plain() {
    let theme = Theme::builtin("no-color").unwrap();
    let lines = highlight("fn main() {}", Some("rs"), &theme, Style::default());
    assert_eq!(lines[0].spans.len(), 1);
    assert!(lines[0].spans[0].style.fg.is_none());
}

#[test]
fn escapes_in_code_are_visible() {
    let lines = highlight(
        "let x = \"\u{1b}[2J\";",
        Some("rs"),
        &Theme::dark(),
        Style::default(),
    );
    assert!(lines[0].text().contains("␛[2J"));
}

#[test]
fn lang_from_paths() {
    assert_eq!(lang_for_path("src/main.rs").as_deref(), Some("rs"));
    assert_eq!(lang_for_path("/a/Makefile").as_deref(), Some("make"));
    assert_eq!(lang_for_path("README"), None);
    assert!(find_syntax("py").is_some());
    assert!(find_syntax("md").is_some());
    assert!(find_syntax("sh").is_some());
    assert!(find_syntax("json").is_some());
}

#[test]
fn windows_cover_every_line_and_end_at_top_level_lines_when_near() {
    // Items of 7 lines: a blank line, then one at the left margin.
    let mut src = Vec::new();
    for i in 0..3_000 {
        src.push(String::new());
        src.push(format!("fn f{i}() {{"));
        src.extend(std::iter::repeat_n("    body();".to_string(), 4));
        src.push("}".to_string());
    }
    let lines: Vec<&str> = src.iter().map(String::as_str).collect();
    let ws = windows(&lines, 1_000);
    assert_eq!(ws.first().map(|r| r.start), Some(0));
    assert_eq!(ws.last().map(|r| r.end), Some(lines.len()));
    for pair in ws.windows(2) {
        assert_eq!(pair[0].end, pair[1].start, "contiguous");
        let len = pair[0].len();
        assert!((1_000..=1_250).contains(&len), "{len}");
        assert!(lines[pair[0].end].starts_with("fn "), "cut before an item: {:?}", pair[0]);
    }
    // No top-level line in reach: cut at the size itself.
    let flat: Vec<&str> = std::iter::repeat_n("    x", 2_500).collect();
    assert_eq!(windows(&flat, 1_000), vec![0..1_000, 1_000..2_000, 2_000..2_500]);
    assert!(windows(&[], 10).is_empty());
}
