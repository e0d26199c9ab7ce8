//! The one sanitizer between untrusted text (tool output, file lines, titles,
//! URLs, markdown, JSON strings, diagnostics) and the screen.
//!
//! Rule: nothing from wire text may reach the terminal as a control sequence.
//! Only styling that deck builds itself (SGR through [`crate::text::Line`] styles,
//! OSC 8 links through [`crate::text::Span::link`]) is ever emitted. Here every
//! control is made visible instead of dropped, so a reader can see what a tool
//! tried to print:
//! - ESC → `␛` (so `ESC [ 2 J` reads `␛[2J`), other C0 controls → their control
//!   pictures (`␇` for BEL, `␈` for backspace, `␍` for a bare CR), DEL → `␡`;
//! - C1 controls U+0080–U+009F → `\x9b`-style escapes;
//! - bidi embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069) and
//!   LRM/RLM-like invisible direction marks (U+200E, U+200F, U+061C) → `<U+202E>`;
//! - TAB → spaces up to the next 4-column stop.
//!
//! Terminal *output* with escapes that should be interpreted (a bash card's
//! output) goes through [`crate::text::ansi`] instead, which emulates a terminal
//! and yields only cell text and styles.
//!
//! Link targets have one rule too, [`link_allowed`]: only `http`, `https` and
//! `mailto` become links (OSC 8 in ANSI output, `href` in the HTML export);
//! any other target (`javascript:`, `data:`, `file:` …) stays visible text.

use std::borrow::Cow;

/// Tab stop width used when expanding tabs.
pub const TAB_WIDTH: usize = 4;

/// True for text of printable ASCII only: a byte a column, a byte a
/// grapheme, nothing to sanitize (the common case, checked far faster than
/// it is measured: eight bytes at a time).
pub fn printable_ascii(s: &str) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = s.as_bytes().chunks_exact(8);
    for c in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(c);
        let x = u64::from_le_bytes(word);
        // With no high bit set (non-ASCII), a byte below 0x20 borrows into
        // its own high bit, and a DEL (0x7f) is a zero byte of `x ^ 0x7f…`.
        let below = x.wrapping_sub(ONES * 0x20) & !x;
        let del = x ^ (ONES * 0x7f);
        let del = del.wrapping_sub(ONES) & !del;
        if (x | below | del) & HIGH != 0 {
            return false;
        }
    }
    chunks
        .remainder()
        .iter()
        .all(|&b| b.wrapping_sub(0x20) < 0x5f)
}

fn needs_work(c: char) -> bool {
    let u = c as u32;
    u < 0x20 || (0x7f..=0x9f).contains(&u) || is_bidi_control(c)
}

/// Bidi controls that can reorder what a reader sees.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c as u32, 0x202A..=0x202E | 0x2066..=0x2069 | 0x200E | 0x200F | 0x061C)
}

fn push_visible(out: &mut String, c: char, col: &mut usize) {
    let u = c as u32;
    match c {
        '\t' => {
            let n = TAB_WIDTH - (*col % TAB_WIDTH);
            out.extend(std::iter::repeat_n(' ', n));
            *col += n;
        }
        '\u{1b}' => {
            out.push('␛');
            *col += 1;
        }
        '\u{7f}' => {
            out.push('␡');
            *col += 1;
        }
        _ if u < 0x20 => {
            // U+2400 block: control pictures for C0.
            out.push(char::from_u32(0x2400 + u).unwrap_or('?'));
            *col += 1;
        }
        _ if (0x80..=0x9f).contains(&u) => {
            let s = format!("\\x{u:02x}");
            *col += s.len();
            out.push_str(&s);
        }
        _ => {
            let s = format!("<U+{u:04X}>");
            *col += s.len();
            out.push_str(&s);
        }
    }
}

/// Sanitize one line of text (no newline handling: a `\n` becomes `␊`).
pub fn line(s: &str) -> Cow<'_, str> {
    if printable_ascii(s) || !s.chars().any(needs_work) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut col = 0usize;
    for c in s.chars() {
        if needs_work(c) {
            push_visible(&mut out, c, &mut col);
        } else {
            out.push(c);
            col += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        }
    }
    Cow::Owned(out)
}

/// Split untrusted multi-line text into sanitized lines. `\r\n` and `\n` end
/// lines; a trailing newline does not produce an empty last line.
pub fn lines(s: &str) -> Vec<String> {
    let mut out: Vec<String> = s
        .split('\n')
        .map(|l| line(l.strip_suffix('\r').unwrap_or(l)).into_owned())
        .collect();
    if out.len() > 1 && out.last().is_some_and(|l| l.is_empty()) && s.ends_with('\n') {
        out.pop();
    }
    out
}

/// Sanitize text that must stay on one line (titles, paths, URLs, status bar):
/// newlines are shown as `⏎` and every other control as in [`line`].
pub fn inline(s: &str) -> String {
    let joined: Cow<'_, str> = if s.contains('\n') || s.contains('\r') {
        Cow::Owned(
            s.trim_end_matches(['\n', '\r'])
                .replace("\r\n", "⏎")
                .replace('\n', "⏎"),
        )
    } else {
        Cow::Borrowed(s)
    };
    line(&joined).into_owned()
}

/// A message deck prints on its own (stderr, a one-line error): each line
/// sanitized as in [`line`], line breaks kept. File names, session ids and
/// reasons quoted from input reach the terminal no other way.
pub fn message(s: &str) -> String {
    s.split('\n')
        .map(|l| line(l.strip_suffix('\r').unwrap_or(l)).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Characters JSON may carry raw that a terminal would act on or that
/// reorder what a reader sees: DEL, C1 controls, bidi controls, and the
/// line and paragraph separators.
fn json_unsafe(c: char) -> bool {
    let u = c as u32;
    (0x7f..=0x9f).contains(&u) || is_bidi_control(c) || u == 0x2028 || u == 0x2029
}

/// JSON text made safe to print: every character of [`json_unsafe`] as a
/// `\uXXXX` escape. Only valid in JSON whose strings hold those characters
/// raw (outside strings JSON allows none of them), so the value read back
/// is the same.
pub fn json_text(s: &str) -> Cow<'_, str> {
    // Every such character's UTF-8 starts with one of four bytes
    // (`json_unsafe_characters_start_with_a_lead_byte_looked_for`): text
    // without them (most of it) is found safe by a vectorised search.
    // Only the characters at those bytes are looked at: text with other
    // characters starting with them (`…`, `—`) costs a search, not a walk
    // through every character after the first.
    let b = s.as_bytes();
    let lead = |from: usize| {
        let rest = &b[from..];
        match (memchr::memchr3(0x7f, 0xc2, 0xe2, rest), memchr::memchr(0xd8, rest)) {
            (Some(x), Some(y)) => Some(from + x.min(y)),
            (Some(x), None) | (None, Some(x)) => Some(from + x),
            (None, None) => None,
        }
    };
    let mut at = 0;
    loop {
        let Some(i) = lead(at) else {
            return Cow::Borrowed(s);
        };
        // A lead byte or ASCII: a character boundary.
        let c = s[i..].chars().next().unwrap_or_default();
        if json_unsafe(c) {
            break;
        }
        at = i + c.len_utf8().max(1);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if json_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Strip every control (no visible marks): for text copied to the clipboard
/// via OSC 52 and for terminal titles. Newlines and tabs are kept.
pub fn strip_controls(s: &str) -> String {
    s.chars()
        .filter(|&c| c == '\n' || c == '\t' || !needs_work(c))
        .collect()
}

/// Terminal output with its escape sequences taken out whole (CSI, OSC,
/// DCS/APC/PM/SOS strings, two-byte escapes), carriage returns as line
/// breaks, then every other control stripped as in [`strip_controls`]:
/// the raw output, safe to paste, with no `[1m[32m` debris.
pub fn strip_sequences(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters and intermediates, then a final byte.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&c) {
                            break;
                        }
                    }
                }
                // Strings, ended by BEL or ST (ESC \).
                Some(']' | 'P' | '_' | '^' | 'X') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' || c == '\u{9c}' {
                            break;
                        }
                        if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                            chars.next();
                            break;
                        }
                    }
                }
                // A two-byte escape (ESC 7, ESC c, ESC ( B …).
                Some('(' | ')' | '*' | '+' | '#' | '%') => {
                    chars.next();
                }
                _ => {}
            },
            '\u{9b}' => {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            c => out.push(c),
        }
    }
    strip_controls(&out)
}

/// The schemes a link may have: a terminal or a browser opens them without
/// running or reading anything local.
const LINK_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// True when `url` may become a link (an OSC 8 target, an `href`): its
/// scheme, from its first character and in any case, is `http`, `https` or
/// `mailto`. Anything else — `javascript:`, `data:`, `file:`, `vbscript:`,
/// a target without a scheme or with a space or control before it — is
/// shown as text only. The one rule for every place deck writes a link.
pub fn link_allowed(url: &str) -> bool {
    let Some((scheme, _)) = url.split_once(':') else {
        return false;
    };
    LINK_SCHEMES.iter().any(|s| scheme.eq_ignore_ascii_case(s))
}

#[cfg(any(test, feature = "internals"))]
/// True if `s` contains nothing the sanitizer would change.
pub fn is_clean(s: &str) -> bool {
    !s.chars().any(needs_work)
}

#[cfg(test)]
mod tests {

    /// The chunked check agrees with the plain one at every length around
    /// its chunks and for every byte that borders printable ASCII, wherever
    /// in the text it is.
    #[test]
    fn printable_ascii_agrees_with_the_plain_check() {
        let plain = |s: &str| s.bytes().all(|b| (0x20..0x7f).contains(&b));
        for len in 0..40 {
            let base = "a".repeat(len);
            assert!(super::printable_ascii(&base));
            for at in 0..len {
                for odd in ["\u{1f}", " ", "~", "\u{7f}", "\t", "é", "\u{202e}"] {
                    let s = format!("{}{odd}{}", &base[..at], &base[at + 1..]);
                    assert_eq!(super::printable_ascii(&s), plain(&s), "{s:?}");
                }
            }
        }
        // Every ASCII byte at every place of a chunk, beside every other.
        for a in 0u8..0x80 {
            for b in [0u8, 0x1f, 0x20, 0x21, 0x7e, 0x7f] {
                for at in 0..9 {
                    let mut bytes = vec![b'x'; 9];
                    bytes[at] = a;
                    bytes[(at + 1) % 9] = b;
                    let s = String::from_utf8(bytes).unwrap();
                    assert_eq!(super::printable_ascii(&s), plain(&s), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn only_http_https_and_mailto_may_be_links() {
        for ok in [
            "https://x.test/a",
            "HTTP://x.test",
            "Https://x.test/?q=1#f",
            "mailto:a@x.test",
            "MAILTO:a@x.test",
        ] {
            assert!(super::link_allowed(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " javascript:alert(1)",
            "\tjavascript:alert(1)",
            "java\nscript:alert(1)",
            "data:text/html;base64,PHNjcmlwdD4=",
            "file:///etc/passwd",
            "FILE://host/x",
            "vbscript:msgbox",
            "httpx://x.test",
            " https://x.test",
            "//x.test/a",
            "x.test/a",
            "",
            ":",
        ] {
            assert!(!super::link_allowed(bad), "{bad:?}");
        }
    }

    /// What `json_text`'s search looks for covers every character it escapes.
    #[test]
    fn json_unsafe_characters_start_with_a_lead_byte_looked_for() {
        let mut n = 0;
        for c in (0..=0x10ffff).filter_map(char::from_u32).filter(|&c| json_unsafe(c)) {
            let mut buf = [0; 4];
            let lead = c.encode_utf8(&mut buf).as_bytes()[0];
            assert!([0x7f, 0xc2, 0xe2, 0xd8].contains(&lead), "{c:?}");
            n += 1;
        }
        assert!(n > 40, "{n}");
    }

    use super::*;

    #[test]
    fn sequences_go_out_whole() {
        let raw = "\u{1b}[1m\u{1b}[32m   Compiling\u{1b}[0m deck\r\n[0/2]\r[1/2]\r[2/2]\n\
                   \u{1b}]8;;https://x\u{7}link\u{1b}]8;;\u{1b}\\ \u{1b}(Bdone\u{7}\u{9b}31mred";
        assert_eq!(
            strip_sequences(raw),
            "   Compiling deck\n[0/2]\n[1/2]\n[2/2]\nlink doneredx".replace("x", "")
        );
        assert!(is_clean(&strip_sequences(raw).replace('\n', "")));
        // An escape cut off at the end takes nothing else with it.
        assert_eq!(strip_sequences("ok\u{1b}["), "ok");
    }

    #[test]
    fn escape_sequences_are_visible() {
        assert_eq!(line("a\u{1b}[2Jb"), "a␛[2Jb");
        assert_eq!(line("bell\u{7}"), "bell␇");
        assert_eq!(line("x\u{8}y"), "x␈y");
        assert_eq!(line("c1\u{9b}31m"), "c1\\x9b31m");
        assert_eq!(line("rtl\u{202e}txt"), "rtl<U+202E>txt");
        assert_eq!(line("del\u{7f}"), "del␡");
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(line("plain ünïcode 日本"), Cow::Borrowed(_)));
    }

    #[test]
    fn tabs_expand_to_stops() {
        assert_eq!(line("a\tb"), "a   b");
        assert_eq!(line("abcd\te"), "abcd    e");
    }

    #[test]
    fn lines_split_and_strip_cr() {
        assert_eq!(lines("a\r\nb\n"), vec!["a", "b"]);
        assert_eq!(lines(""), vec![""]);
        assert_eq!(lines("x\ry"), vec!["x␍y"]);
    }

    #[test]
    fn inline_marks_newlines() {
        assert_eq!(inline("a\nb\n"), "a⏎b");
    }

    #[test]
    fn messages_keep_their_lines_and_nothing_else() {
        assert_eq!(
            message("no session \u{1b}]8;;x\u{7}\u{9b}\u{202e}\u{7f}\nnext\r\n"),
            "no session ␛]8;;x␇\\x9b<U+202E>␡\nnext\n"
        );
    }

    #[test]
    fn json_text_escapes_what_a_terminal_acts_on() {
        let raw = serde_json::to_string("a\u{85}b\u{7f}c\u{202e}d\u{2028}e\u{1b}").unwrap();
        let safe = json_text(&raw);
        assert_eq!(safe, r#""a\u0085b\u007fc\u202ed\u2028e\u001b""#);
        assert_eq!(
            serde_json::from_str::<String>(&safe).unwrap(),
            "a\u{85}b\u{7f}c\u{202e}d\u{2028}e\u{1b}"
        );
        assert!(matches!(json_text("{\"plain\":1}"), Cow::Borrowed(_)));
        // Text with other characters of those lead bytes stays as it is.
        assert!(matches!(json_text("{\"a\":\"→ … é ؛\"}"), Cow::Borrowed(_)));
        assert_eq!(json_text("{\"a\":\"→\u{2028}\"}"), "{\"a\":\"→\\u2028\"}");
        // Safe characters sharing the lead bytes before, between and after
        // the one escaped.
        assert_eq!(json_text("… — ؛\u{202e}… é"), "… — ؛\\u202e… é");
        assert!(matches!(json_text(&"… — ✓ é\n".repeat(1000)), Cow::Borrowed(_)));
    }

    #[test]
    fn strip_removes_all_controls() {
        assert_eq!(strip_controls("a\u{1b}]52;c;x\u{7}b\n"), "a]52;c;xb\n");
    }
}
