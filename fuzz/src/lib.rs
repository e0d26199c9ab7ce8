//! Helpers shared by the fuzz targets: the checks every rendered line must
//! pass (fits its width, carries no control or escape), and a width and
//! density taken from the input.

use deck::cards::Density;
use deck::text::{Line, sanitize};
use deck::theme::Theme;

/// Panic unless every line is at most `width` columns and every span is clean.
pub fn check_lines(lines: &[Line], width: usize, what: &str) {
    for (i, l) in lines.iter().enumerate() {
        assert!(
            l.width() <= width,
            "{what}: line {i} is {} columns at width {width}: {:?}",
            l.width(),
            l.text()
        );
        for s in &l.spans {
            assert!(
                sanitize::is_clean(&s.text),
                "{what}: line {i} holds a control: {:?}",
                s.text
            );
        }
    }
}

/// A width 0–400 and the rest of the input: the first two bytes are the width.
pub fn split_width(data: &[u8]) -> (usize, &[u8]) {
    match data {
        [a, b, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])) % 401, rest),
        _ => (80, data),
    }
}

/// A width 0–400 and a density derived from the whole input (for inputs that
/// must stay valid text, such as frame lines).
pub fn width_and_density(data: &[u8]) -> (usize, Density) {
    // FNV-1a: a tiny, stable hash.
    let h = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    ((h % 401) as usize, density(((h >> 32) % 3) as u8))
}

pub fn density(n: u8) -> Density {
    match n % 3 {
        0 => Density::Line,
        1 => Density::Preview,
        _ => Density::Full,
    }
}

/// The built-in themes a target draws with (`n` picks one).
pub fn theme(n: u8) -> Theme {
    let name = ["dark", "light", "no-color"][usize::from(n % 3)];
    Theme::builtin(name).unwrap_or_else(Theme::dark)
}
