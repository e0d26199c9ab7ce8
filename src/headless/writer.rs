//! Writers from styled [`Line`]s to bytes: `text` (plain), `ansi` (SGR and
//! OSC 8 links only — the only escape sequences deck ever emits, all built
//! here from styles, never copied from input) and `styled` (text plus a
//! diffable list of style spans per line, for snapshot tests).

use std::fmt::Write as _;

use ratatui::style::{Color, Modifier, Style};

use crate::text::sanitize::link_allowed;
pub use crate::text::line::describe_style;
use crate::text::{Line, Span};

/// Output format of `deck render`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[non_exhaustive]
pub enum Format {
    /// Plain text, no styles.
    Text,
    /// Text with the theme's colours (SGR) and links (OSC 8).
    Ansi,
    /// Text plus a diffable list of style spans per line (for snapshot tests).
    Styled,
}

impl Format {
    /// The format named `text`, `ansi` or `styled`.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "text" => Some(Format::Text),
            "ansi" => Some(Format::Ansi),
            "styled" => Some(Format::Styled),
            _ => None,
        }
    }
}

/// Spans without trailing unstyled blanks (padding is not content).
fn trimmed(line: &Line) -> Vec<&Span> {
    let mut spans: Vec<&Span> = line.spans.iter().filter(|s| !s.text.is_empty()).collect();
    while let Some(last) = spans.last() {
        if last.style.bg.is_none() && last.link.is_none() && last.text.trim().is_empty() {
            spans.pop();
        } else {
            break;
        }
    }
    spans
}

/// Write lines in a format; every line ends with `\n`.
pub fn write_lines(lines: &[Line], format: Format) -> String {
    let mut out = String::new();
    for l in lines {
        match format {
            Format::Text => out.push_str(l.text().trim_end()),
            Format::Ansi => write_ansi(&mut out, l),
            Format::Styled => write_styled(&mut out, l),
        }
        out.push('\n');
    }
    out
}

fn color_sgr(c: Color, fg: bool) -> String {
    let base = if fg { 30 } else { 40 };
    match c {
        Color::Reset => format!("{}", base + 9),
        Color::Black => format!("{base}"),
        Color::Red => format!("{}", base + 1),
        Color::Green => format!("{}", base + 2),
        Color::Yellow => format!("{}", base + 3),
        Color::Blue => format!("{}", base + 4),
        Color::Magenta => format!("{}", base + 5),
        Color::Cyan => format!("{}", base + 6),
        Color::Gray => format!("{}", base + 7),
        Color::DarkGray => format!("{}", base + 60),
        Color::LightRed => format!("{}", base + 61),
        Color::LightGreen => format!("{}", base + 62),
        Color::LightYellow => format!("{}", base + 63),
        Color::LightBlue => format!("{}", base + 64),
        Color::LightMagenta => format!("{}", base + 65),
        Color::LightCyan => format!("{}", base + 66),
        Color::White => format!("{}", base + 67),
        Color::Rgb(r, g, b) => format!("{};2;{r};{g};{b}", base + 8),
        Color::Indexed(i) => format!("{};5;{i}", base + 8),
    }
}

/// The SGR parameters of a style (empty for the default style).
pub fn sgr_params(style: Style) -> String {
    let mut p: Vec<String> = Vec::new();
    let m = style.add_modifier;
    for (flag, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::REVERSED, "7"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if m.contains(flag) {
            p.push(code.into());
        }
    }
    if let Some(fg) = style.fg {
        p.push(color_sgr(fg, true));
    }
    if let Some(bg) = style.bg {
        p.push(color_sgr(bg, false));
    }
    p.join(";")
}

/// A URL safe to put inside OSC 8: printable ASCII only, everything else
/// percent-encoded, so no byte of it can end or start a sequence.
pub fn osc8_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for b in url.bytes() {
        if (0x21..0x7f).contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The span's link target, when the link rule allows it.
fn link(span: &Span) -> Option<&str> {
    span.link.as_deref().filter(|u| link_allowed(u))
}

fn write_ansi(out: &mut String, line: &Line) {
    for span in trimmed(line) {
        let sgr = sgr_params(span.style);
        let link = link(span);
        if let Some(url) = link {
            let _ = write!(out, "\x1b]8;;{}\x1b\\", osc8_url(url));
        }
        if sgr.is_empty() {
            out.push_str(&span.text);
        } else {
            let _ = write!(out, "\x1b[{sgr}m{}\x1b[0m", span.text);
        }
        if link.is_some() {
            out.push_str("\x1b]8;;\x1b\\");
        }
    }
}

fn write_styled(out: &mut String, line: &Line) {
    let spans = trimmed(line);
    let text: String = spans.iter().map(|s| s.text.as_str()).collect();
    out.push_str(&text);
    let mut col = 0;
    for span in spans {
        let w = span.width();
        let mut desc = describe_style(span.style);
        if let Some(url) = link(span) {
            if !desc.is_empty() {
                desc.push(' ');
            }
            let _ = write!(desc, "link={}", osc8_url(url));
        }
        if !desc.is_empty() {
            let _ = write!(out, "\n    @{col}-{} {desc}", col + w);
        }
        col += w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_emits_only_sgr_and_osc8() {
        let l = Line::from_spans(vec![
            Span::new(
                "red",
                Style::default()
                    .fg(Color::Rgb(255, 0, 0))
                    .add_modifier(Modifier::BOLD),
            ),
            Span::plain(" "),
            Span::linked("site", Style::default(), "https://x.test/a b\u{1b}]"),
            Span::plain("   "),
        ]);
        let s = write_lines(&[l], Format::Ansi);
        assert_eq!(
            s,
            "\x1b[1;38;2;255;0;0mred\x1b[0m \x1b]8;;https://x.test/a%20b%1B]\x1b\\site\x1b]8;;\x1b\\\n"
        );
    }

    #[test]
    fn links_the_rule_refuses_are_written_as_text() {
        let hand = |url: &str| Span {
            text: "x".into(),
            style: Style::default(),
            link: Some(url.into()),
        };
        let l = Line::from_spans(vec![hand("javascript:alert(1)"), hand("data:,hi"), hand("file:///etc")]);
        assert_eq!(write_lines(std::slice::from_ref(&l), Format::Ansi), "xxx\n");
        assert!(!write_lines(&[l], Format::Styled).contains("link="));
    }

    #[test]
    fn styled_lists_spans_by_column() {
        let l = Line::from_spans(vec![
            Span::plain("ab"),
            Span::new("cd", Style::default().fg(Color::Green)),
        ]);
        assert_eq!(
            write_lines(&[l], Format::Styled),
            "abcd\n    @2-4 fg=green\n"
        );
    }

    #[test]
    fn text_trims_padding() {
        assert_eq!(write_lines(&[Line::plain("x   ")], Format::Text), "x\n");
    }
}
