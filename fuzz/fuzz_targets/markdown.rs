//! Markdown into styled lines: the first two bytes pick a width 0–400, the
//! rest is the text (invalid UTF-8 replaced). Every line fits the width (at
//! least one column) and carries no control character.
#![no_main]

use deck::text::markdown;
use deck_fuzz::{check_lines, split_width, theme};
use libfuzzer_sys::fuzz_target;
use ratatui::style::Style;

fuzz_target!(|data: &[u8]| {
    let (width, rest) = split_width(data);
    let md = String::from_utf8_lossy(rest);
    let theme = theme(data.first().copied().unwrap_or(0));
    check_lines(
        &markdown::render(&md, width, &theme, Style::default()),
        width.max(1),
        "markdown",
    );
});
