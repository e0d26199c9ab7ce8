//! Unit tests of the markdown renderer: block layout, inline styles, links,
//! code highlighting, tables, and the width contract.

use ratatui::style::{Modifier, Style};

use super::*;

fn dark() -> Theme {
    Theme::dark()
}

fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(Line::text).collect()
}

fn md(s: &str, width: usize) -> Vec<Line> {
    render(s, width, &dark(), Style::default())
}

#[test]
fn headings_are_drawn_as_headings_not_hashes() {
    let theme = dark();
    let lines = render("# Title\n\n## Sub\n\ntext", 40, &theme, Style::default());
    assert_eq!(texts(&lines), vec!["Title", "", "Sub", "", "text"]);
    assert_eq!(
        lines[0].spans[0].style,
        theme
            .style(Role::Heading)
            .add_modifier(ratatui::style::Modifier::UNDERLINED)
    );
    assert_eq!(
        lines[2].spans.last().unwrap().style,
        theme.style(Role::Heading)
    );
    assert_eq!(lines[4].spans[0].style, Style::default());
}

#[test]
fn paragraphs_wrap_and_soft_breaks_join() {
    let lines = md("the quick brown\nfox jumps over the lazy dog", 15);
    assert_eq!(
        texts(&lines),
        vec!["the quick brown", "fox jumps over", "the lazy dog"]
    );
}

#[test]
fn inline_styles() {
    let theme = dark();
    let lines = render("a *b* **c** `d` ~~e~~", 40, &theme, Style::default());
    let l = &lines[0];
    let find = |t: &str| l.spans.iter().find(|s| s.text == t).unwrap().style;
    assert_eq!(find("b"), theme.style(Role::Emphasis));
    assert_eq!(find("c"), theme.style(Role::Strong));
    assert_eq!(find("d"), theme.style(Role::InlineCode));
    assert!(find("e").add_modifier.contains(Modifier::CROSSED_OUT));
}

#[test]
fn links_carry_targets_and_show_differing_urls() {
    let lines = md("see [docs](https://example.com/d) and <https://x.io>", 80);
    assert_eq!(
        lines[0].text(),
        "see docs (https://example.com/d) and https://x.io"
    );
    let docs = lines[0].spans.iter().find(|s| s.text == "docs").unwrap();
    assert_eq!(docs.link.as_deref(), Some("https://example.com/d"));
    assert_eq!(docs.style, dark().style(Role::Link));
    let auto = lines[0]
        .spans
        .iter()
        .find(|s| s.text == "https://x.io")
        .unwrap();
    assert_eq!(auto.link.as_deref(), Some("https://x.io"));
    // The autolink's text equals its URL: it is not repeated.
    assert_eq!(lines[0].text().matches("x.io").count(), 1);
}

#[test]
fn link_targets_are_sanitized() {
    let lines = md("[x](https://e.com/\u{1b}]8;;evil)", 80);
    for span in &lines[0].spans {
        assert!(sanitize::is_clean(&span.text));
        if let Some(l) = &span.link {
            assert!(sanitize::is_clean(l), "{l:?}");
        }
    }
}

#[test]
fn lists_nest_with_hanging_indent() {
    let src =
        "- one\n- two is a longer item that wraps\n  - nested\n    1. deep\n    2. deeper\n- three";
    let lines = md(src, 20);
    assert_eq!(
        texts(&lines),
        vec![
            "• one",
            "• two is a longer",
            "  item that wraps",
            "  ◦ nested",
            "    1. deep",
            "    2. deeper",
            "• three",
        ]
    );
    assert_eq!(lines[0].spans[0].style, dark().style(Role::ListMarker));
}

#[test]
fn ordered_lists_keep_their_start() {
    let lines = md("7. seven\n8. eight\n\n9. nine", 40);
    let t = texts(&lines);
    assert_eq!(t[0], "7. seven");
    assert!(t.contains(&"9. nine".to_string()), "{t:?}");
}

#[test]
fn task_lists_show_checkboxes() {
    let theme = dark();
    let lines = render("- [x] done\n- [ ] todo", 40, &theme, Style::default());
    assert_eq!(texts(&lines), vec!["[x] done", "[ ] todo"]);
    assert_eq!(lines[0].spans[0].style, theme.style(Role::TodoDone));
    assert_eq!(lines[1].spans[0].style, theme.style(Role::TodoPending));
}

#[test]
fn quotes_get_a_bar_and_role() {
    let theme = dark();
    let lines = render(
        "> quoted text here\n>\n> more",
        12,
        &theme,
        Style::default(),
    );
    assert_eq!(
        texts(&lines),
        vec!["│ quoted", "│ text here", "│", "│ more"]
    );
    assert_eq!(lines[0].spans[1].style, theme.style(Role::Quote));
}

#[test]
fn code_fences_are_highlighted_by_language() {
    let lines = md("```rust\nfn main() { let x = 1; }\n```", 80);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].text(), "  fn main() { let x = 1; }");
    let colours: std::collections::HashSet<_> =
        lines[0].spans.iter().filter_map(|s| s.style.fg).collect();
    assert!(
        colours.len() > 1,
        "expected syntax colours: {:?}",
        lines[0].spans
    );
}

#[test]
fn code_is_hard_wrapped_and_sanitized() {
    let lines = md("```\nabcdefghijklmnop \u{1b}[2J\n```", 12);
    assert!(lines.iter().all(|l| l.width() <= 12));
    assert_eq!(lines[0].text(), "  abcdefghij");
    let joined: String = texts(&lines).iter().map(|t| t.trim_start()).collect();
    assert_eq!(joined, "abcdefghijklmnop ␛[2J");
}

#[test]
fn rules_span_the_width() {
    let lines = md("a\n\n---\n\nb", 10);
    assert_eq!(lines[2].text(), "─".repeat(10));
}

#[test]
fn tables_fit_when_wide() {
    let src = "| name | n |\n|:-----|--:|\n| alpha | 1 |\n| b | 22 |";
    let lines = md(src, 80);
    assert_eq!(
        texts(&lines),
        vec!["name  │  n", "──────┼───", "alpha │  1", "b     │ 22"]
    );
    assert!(
        lines[0].spans[0]
            .style
            .add_modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn tables_truncate_cells_when_narrow() {
    let src = "| key | description |\n|---|---|\n| a | a rather long description of the thing |";
    let lines = md(src, 20);
    assert!(lines.iter().all(|l| l.width() <= 20));
    assert_eq!(lines[2].text(), "a   │ a rather long…");
}

#[test]
fn column_fitting_gives_narrow_columns_their_width() {
    assert_eq!(table::fit_columns(&[3, 40, 50], 30), vec![3, 13, 14]);
    assert_eq!(table::fit_columns(&[3, 4], 30), vec![3, 4]);
    assert_eq!(table::fit_columns(&[5, 5, 5], 2), vec![1, 1, 1]);
}

#[test]
fn controls_in_text_are_visible() {
    let lines = md("bell\u{7} and \u{1b}[31mred", 80);
    assert_eq!(lines[0].text(), "bell␇ and ␛[31mred");
}

#[test]
fn images_are_named_placeholders() {
    let lines = md("![a cat](https://e.com/cat.png)", 80);
    assert_eq!(lines[0].text(), "[image: a cat]");
    assert_eq!(
        lines[0].spans[0].link.as_deref(),
        Some("https://e.com/cat.png")
    );
}

#[test]
fn every_line_fits_every_width() {
    let src = "# A heading that is long enough to wrap\n\nSome *emphasis* and a [link](https://example.com/a/very/long/path/that/goes/on) \
               plus `code`.\n\n- item\n  - nested item with words\n    > quote inside a list\n\n1. one\n2. two\n\n\
               ```py\ndef f(x):\n    return x * 2  # a comment that is long\n```\n\n| a | b | c |\n|---|:-:|--:|\n\
               | 1 | two words | 3 |\n\n---\n\n> > nested quote with 日本語のテキスト\n\n- [x] done\n- [ ] todo\n";
    let theme = dark();
    for width in 1..=400 {
        for line in render(src, width, &theme, Style::default()) {
            assert!(
                line.width() <= width,
                "width {width}: {:?} is {}",
                line.text(),
                line.width()
            );
        }
    }
}

#[test]
fn empty_input_gives_no_lines() {
    assert!(md("", 40).is_empty());
    assert!(md("\n\n", 40).is_empty());
}

#[test]
fn a_block_at_a_time_lays_out_as_the_whole() {
    // Every kind of block, some reaching over empty lines.
    let pieces = [
        "# Title\n\ntext *em* `code` [l](https://e.com)\n",
        "- a\n- b\n\n- c\n\n  more\n",
        "1. x\n\n2. y\n",
        "```py\ndef f():\n\n    return 1\n```\n",
        "> q\n\n> r\n",
        "| a | b |\n|:-|-:|\n| 1 | 2 |\n",
        "    code\n\n    code\n",
        "Setext\n===\n\n---\n",
        "<div>\n\n*html*\n\n</div>\n",
    ];
    let md: String = (0..40)
        .map(|i| pieces[i % pieces.len()])
        .collect::<Vec<_>>()
        .join("\n");
    for width in [9, 33, 80] {
        let mut whole = Rows::all();
        render_whole(&md, width, &Theme::dark(), Style::default(), &mut whole);
        let mut chunked = Rows::all();
        render_into(&md, width, &Theme::dark(), Style::default(), &mut chunked);
        assert_eq!(
            chunked.finish(Style::default()),
            whole.finish(Style::default()),
            "width {width}"
        );
    }
}

#[test]
fn a_block_too_long_to_parse_is_plain_text_said_so() {
    let row = "| item | **12** | [a link](https://example.com) |\n";
    let md = format!(
        "| a | b | c |\n|---|---|---|\n{}",
        row.repeat(MAX_BLOCK / row.len() + 1)
    );
    let mut r = Rows::all();
    render_into(&md, 100, &Theme::dark(), Style::default(), &mut r);
    let lines = r.finish(Style::default());
    assert!(
        lines[0].text().contains("shown as plain text"),
        "{}",
        lines[0].text()
    );
    assert_eq!(lines[1].text(), "| a | b | c |");
    assert_eq!(lines.len(), 1 + 2 + MAX_BLOCK / row.len() + 1);
}

#[test]
fn fenced_text_has_a_fence_longer_than_any_run_of_backticks_in_it() {
    assert_eq!(fenced("plain\n"), "```text\nplain\n```");
    assert_eq!(fenced("a ``` b"), "````text\na ``` b\n````");
    assert_eq!(fenced("`x` ````` é`"), "``````text\n`x` ````` é`\n``````");
    // Drawn as the text it holds, whatever markdown it looks like.
    let lines = render(&fenced("# not a heading\n```\nstill text"), 40, &Theme::dark(), Style::default());
    let text: Vec<String> = lines.iter().map(|l| l.text()).collect();
    assert!(text.iter().any(|t| t.contains("# not a heading")), "{text:?}");
    assert!(text.iter().any(|t| t.contains("```")), "{text:?}");
}
