//! The limits that keep hostile input bounded, and how a user changes them.
//!
//! A line longer than [`max_line`] (64 MiB unless `DECK_MAX_LINE` says
//! otherwise: bytes, or with a `K`, `M` or `G` suffix) is cut: its first
//! [`CUT_HEAD`] bytes are kept for the diagnostic that reports it, the rest
//! is skipped up to the next newline, and reading goes on. A writer that
//! never sends a newline, or a zstd stream that expands to one endless line,
//! costs at most the limit in memory.

use std::sync::OnceLock;

/// The line limit when `DECK_MAX_LINE` is not set.
pub const DEFAULT_MAX_LINE: usize = 64 << 20;
/// Bytes of a cut line kept for its diagnostic.
pub const CUT_HEAD: usize = 64 << 10;
/// The smallest limit accepted (a smaller `DECK_MAX_LINE` is raised to it).
const MIN_MAX_LINE: usize = 1024;

/// The longest line read whole, in bytes.
pub fn max_line() -> usize {
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("DECK_MAX_LINE")
            .ok()
            .and_then(|v| parse_size(&v))
            .map_or(DEFAULT_MAX_LINE, |n| n.max(MIN_MAX_LINE))
    })
}

/// `1048576`, `512K`, `64M`, `2G` (binary units; `KB`, `MiB` … read the same).
pub fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let digits = s.chars().take_while(char::is_ascii_digit).count();
    let n: usize = s[..digits].parse().ok()?;
    let unit = s[digits..].trim().to_ascii_lowercase();
    let shift = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        _ => return None,
    };
    n.checked_mul(1usize << shift)
}

/// `812 B`, `64.0 KiB`, `3.2 MiB`, `1.0 GiB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// The reason of a cut line's diagnostic.
pub fn cut_reason(len: u64, limit: usize, ended: bool) -> String {
    let end = if ended {
        "it ends the input without a newline"
    } else {
        "skipped to its newline"
    };
    format!(
        "line of {} is over the {} line limit (DECK_MAX_LINE): cut, its first {} kept; {end}",
        human(len),
        human(limit as u64),
        human(CUT_HEAD.min(limit) as u64)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("1048576"), Some(1 << 20));
        assert_eq!(parse_size("512K"), Some(512 << 10));
        assert_eq!(parse_size("64M"), Some(64 << 20));
        assert_eq!(parse_size("2GiB"), Some(2 << 30));
        assert_eq!(parse_size(" 3 mb "), Some(3 << 20));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("12X"), None);
        assert_eq!(human(812), "812 B");
        assert_eq!(human(3 << 20), "3.0 MiB");
    }
}
