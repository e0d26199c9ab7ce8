//! `deck export --format html`: one self-contained HTML page of a session —
//! every item laid out as `deck render --density full` lays it out, but
//! unwrapped (`text::UNBOUNDED`): the browser wraps text to its window
//! (`white-space: pre-wrap`), so nothing is cut at a fixed width. In the
//! theme's colours on its declared background (inline styles, no script,
//! nothing fetched), each tool card a `<details>` block that folds to its
//! header line, and links where deck draws links. The page is well-formed
//! XHTML-compatible markup: every text and attribute is escaped here, and
//! only `http(s)` and `mailto` links become `href`s (the one rule of
//! `text::line::link_allowed`: the ANSI output's OSC 8 links follow it too).

use std::fmt::Write as _;

use ratatui::style::{Color, Modifier, Style};

use crate::cards::Density;
use crate::session::{Item, Transcript};
use crate::text::sanitize::link_allowed;
use crate::text::{self, Line, Rows};
use crate::theme::Theme;
use crate::view::transcript::{LayoutOptions, render_item_into};

/// The page for a transcript.
pub fn page(t: &Transcript, theme: &Theme, title: &str) -> String {
    let mut out = Vec::new();
    // Writing to memory cannot fail.
    let _ = page_to(&mut out, t, theme, title);
    String::from_utf8_lossy(&out).into_owned()
}

/// [`page`], written to `w` row by row as items are laid out (no item,
/// and not the page, is held whole).
pub fn page_to(
    w: &mut dyn std::io::Write,
    t: &Transcript,
    theme: &Theme,
    title: &str,
) -> std::io::Result<()> {
    let (bg, fg) = page_colours(theme);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"generator\" content=\"deck {}\"/>\n<title>{}</title>\n<style>\n\
         body {{ background: {bg}; color: {fg}; margin: 1.5em; }}\n\
         pre, summary {{ font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; \
         font-size: 13px; line-height: 1.35; margin: 0; white-space: pre-wrap; \
         overflow-wrap: anywhere; }}\n\
         .item {{ margin: 0 0 1.1em 0; }}\n\
         details.card > summary {{ cursor: pointer; list-style: none; }}\n\
         details.card > summary::-webkit-details-marker {{ display: none; }}\n\
         details.card:not([open]) > summary::after {{ content: \" …\"; opacity: 0.6; }}\n\
         a {{ color: inherit; }}\n\
         h1 {{ font-family: ui-sans-serif, system-ui, sans-serif; font-size: 18px; margin: 0 0 1em 0; }}\n\
         </style>\n</head>\n<body>\n<h1>{}</h1>\n",
        env!("CARGO_PKG_VERSION"),
        escape(title),
        escape(title)
    );
    w.write_all(out.as_bytes())?;
    let opts = LayoutOptions::new(text::UNBOUNDED, Density::Full);
    for item in t.items().iter() {
        // A compaction folds like a card: its summary under its rule.
        let card = matches!(item, Item::Tool(_) | Item::Compaction(_));
        // Cards fold to their header, but those that went wrong.
        let open = match item {
            Item::Tool(i) => t.cards().get(*i).is_some_and(|c| c.status.is_bad()),
            _ => false,
        };
        let mut rows = 0usize;
        let mut result = Ok(());
        let mut each = |l: Line| {
            if result.is_err() {
                return;
            }
            let mut s = String::new();
            match (card, rows) {
                (true, 0) => {
                    s.push_str(if open {
                        "<details class=\"card item\" open=\"open\">\n<summary>"
                    } else {
                        "<details class=\"card item\">\n<summary>"
                    });
                    write_line(&mut s, &l);
                    s.push_str("</summary>\n<pre>");
                }
                (false, 0) => {
                    s.push_str("<pre class=\"item\">");
                    write_line(&mut s, &l);
                    s.push('\n');
                }
                _ => {
                    write_line(&mut s, &l);
                    s.push('\n');
                }
            }
            rows += 1;
            result = w.write_all(s.as_bytes());
        };
        render_item_into(t, item, theme, &opts, 0, &mut Rows::each(&mut each));
        result?;
        if rows > 0 {
            w.write_all(if card {
                b"</pre>\n</details>\n"
            } else {
                b"</pre>\n"
            })?;
        }
    }
    w.write_all(b"</body>\n</html>\n")
}

/// The page's background and text colour: the theme's own (what the TUI
/// paints under every cell); for a theme that declares none (`ansi-*`,
/// `no-color`, a user theme without `background`), a light page for a
/// theme named light, else a dark one.
fn page_colours(theme: &Theme) -> (String, String) {
    let light = theme.name.contains("light");
    let (bg, fg) = if light {
        ("#ffffff", "#1f2328")
    } else {
        ("#1e1e2e", "#cdd6f4")
    };
    match theme.background {
        Some(b) => (
            hex(b),
            // A declared background without a foreground: the text keeps
            // the default of a page of that name.
            theme.foreground.map_or_else(|| fg.to_string(), hex),
        ),
        None => (bg.to_string(), fg.to_string()),
    }
}

fn write_line(out: &mut String, line: &Line) {
    // Trailing unstyled blanks are padding, not content.
    let mut spans: Vec<_> = line.spans.iter().filter(|s| !s.text.is_empty()).collect();
    while spans
        .last()
        .is_some_and(|s| s.style.bg.is_none() && s.link.is_none() && s.text.trim().is_empty())
    {
        spans.pop();
    }
    for span in spans {
        let href = span.link.as_deref().filter(|u| link_allowed(u));
        if let Some(url) = href {
            let _ = write!(out, "<a href=\"{}\">", escape(url));
        }
        let css = css(span.style);
        if css.is_empty() {
            out.push_str(&escape(&span.text));
        } else {
            let _ = write!(out, "<span style=\"{css}\">{}</span>", escape(&span.text));
        }
        if href.is_some() {
            out.push_str("</a>");
        }
    }
}

/// Text for HTML content and attribute values; control characters (the
/// sanitizer leaves none, but a style could be built from anything) dropped.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn css(style: Style) -> String {
    let mut parts = Vec::new();
    let m = style.add_modifier;
    let (mut fg, mut bg) = (style.fg.map(hex), style.bg.map(hex));
    if m.contains(Modifier::REVERSED) {
        std::mem::swap(&mut fg, &mut bg);
    }
    if let Some(c) = fg {
        parts.push(format!("color:{c}"));
    }
    if let Some(c) = bg {
        parts.push(format!("background:{c}"));
    }
    if m.contains(Modifier::BOLD) {
        parts.push("font-weight:bold".into());
    }
    if m.contains(Modifier::DIM) {
        parts.push("opacity:0.7".into());
    }
    if m.contains(Modifier::ITALIC) {
        parts.push("font-style:italic".into());
    }
    match (
        m.contains(Modifier::UNDERLINED),
        m.contains(Modifier::CROSSED_OUT),
    ) {
        (true, true) => parts.push("text-decoration:underline line-through".into()),
        (true, false) => parts.push("text-decoration:underline".into()),
        (false, true) => parts.push("text-decoration:line-through".into()),
        (false, false) => {}
    }
    parts.join(";")
}

/// A colour as CSS hex: RGB as is, the 16 named and 256 indexed colours
/// from xterm's palette.
fn hex(c: Color) -> String {
    const BASE: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    let (r, g, b) = match c {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Reset => return "inherit".into(),
        Color::Black => BASE[0],
        Color::Red => BASE[1],
        Color::Green => BASE[2],
        Color::Yellow => BASE[3],
        Color::Blue => BASE[4],
        Color::Magenta => BASE[5],
        Color::Cyan => BASE[6],
        Color::Gray => BASE[7],
        Color::DarkGray => BASE[8],
        Color::LightRed => BASE[9],
        Color::LightGreen => BASE[10],
        Color::LightYellow => BASE[11],
        Color::LightBlue => BASE[12],
        Color::LightMagenta => BASE[13],
        Color::LightCyan => BASE[14],
        Color::White => BASE[15],
        Color::Indexed(i) if i < 16 => BASE[i as usize],
        Color::Indexed(i) if i < 232 => {
            let i = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
        Color::Indexed(i) => {
            let v = 8 + (i - 232) * 10;
            (v, v, v)
        }
    };
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Span;

    #[test]
    fn text_and_attributes_are_escaped_and_only_safe_links_kept() {
        let l = Line::from_spans(vec![
            Span::new("<b>&\"'", Style::default().fg(Color::Rgb(1, 2, 3))),
            Span::linked("ok", Style::default(), "https://x.test/?a=1&b=\"2\""),
            Span::linked("bad", Style::default(), "javascript:alert(1)"),
            // A link set by hand is held to the same rule when written.
            Span {
                text: "local".into(),
                style: Style::default(),
                link: Some("file:///etc/passwd".into()),
            },
        ]);
        let mut out = String::new();
        write_line(&mut out, &l);
        assert_eq!(
            out,
            "<span style=\"color:#010203\">&lt;b&gt;&amp;&quot;&#39;</span>\
             <a href=\"https://x.test/?a=1&amp;b=&quot;2&quot;\">ok</a>badlocal"
        );
    }

    #[test]
    fn the_page_is_the_theme_s_declared_background() {
        let colours = |name: &str| page_colours(&Theme::builtin(name).unwrap());
        let own = |name: &str| {
            let t = Theme::builtin(name).unwrap();
            (hex(t.background.unwrap()), hex(t.foreground.unwrap()))
        };
        for name in ["dark", "light", "high-contrast"] {
            assert_eq!(colours(name), own(name), "{name}");
        }
        assert_eq!(colours("high-contrast").0, "#000000");
        // Themes without one keep the page of their kind.
        assert_eq!(colours("ansi-light").0, "#ffffff");
        assert_eq!(colours("ansi-dark").0, "#1e1e2e");
        let mine = Theme::from_toml("background = \"#102030\"", "mine.toml").unwrap();
        assert_eq!(page_colours(&mine), ("#102030".into(), "#cdd6f4".into()));
    }

    #[test]
    fn palette_colours() {
        assert_eq!(hex(Color::Indexed(196)), "#ff0000");
        assert_eq!(hex(Color::Indexed(244)), "#808080");
        assert_eq!(hex(Color::Green), "#00cd00");
        let s = Style::default()
            .fg(Color::Rgb(255, 255, 255))
            .bg(Color::Rgb(0, 0, 0))
            .add_modifier(Modifier::REVERSED | Modifier::BOLD);
        assert_eq!(css(s), "color:#000000;background:#ffffff;font-weight:bold");
    }
}
