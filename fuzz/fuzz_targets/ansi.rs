//! Terminal output through the vt100 emulator: the first two bytes pick a
//! width 0–400, the rest is the output (invalid UTF-8 replaced, as the wire
//! is text). The emulated lines and the hard-wrapped ones carry no control,
//! and the wrapped ones fit the width (at least one column).
#![no_main]

use deck::text::ansi;
use deck_fuzz::{check_lines, split_width, theme};
use libfuzzer_sys::fuzz_target;
use ratatui::style::Style;

fuzz_target!(|data: &[u8]| {
    let (width, rest) = split_width(data);
    let output = String::from_utf8_lossy(rest);
    let theme = theme(data.first().copied().unwrap_or(0));
    check_lines(
        &ansi::lines(&output, &theme, Style::default()),
        usize::MAX,
        "lines",
    );
    check_lines(
        &ansi::render(&output, width, &theme),
        width.max(1),
        "render",
    );
});
