//! Rendered lines as snapshot text (each line's text, then its styled runs),
//! and rendering checked against its width.

use std::fmt::Write as _;

use deck::cards::{self, Ctx, Density};
use deck::headless::writer::describe_style;
use deck::session::ToolCard;
use deck::text::Line;
use deck::theme::Theme;

/// The widths card snapshots are taken at.
pub const WIDTHS: [usize; 3] = [40, 80, 120];
/// The themes card snapshots are taken in.
pub const THEMES: [&str; 2] = ["dark", "light"];

/// The two forms of [`styled`] the snapshots use.
#[derive(Clone, Copy, PartialEq)]
pub enum Runs {
    /// Text trimmed; then one row per run, empty runs too:
    /// `  ^ [from..to fg=#rrggbb bold link=…]` (the `^` points at the text
    /// line above).
    Below,
    /// Text as rendered (trailing blanks kept); then all runs on one row,
    /// empty runs left out: `  [from..to fg=#rrggbb] [from..to bold]`.
    OneRow,
}

/// Each line's text, then its styled runs in display columns: adjacent
/// spans with the same style and link merged, unstyled unlinked runs left
/// out; the rest as `form` says.
pub fn styled(lines: &[Line], form: Runs) -> String {
    let mut out = String::new();
    for line in lines {
        let text = line.text();
        out.push_str(if form == Runs::Below {
            text.trim_end()
        } else {
            &text
        });
        out.push('\n');
        let mut runs: Vec<(usize, usize, String, Option<String>)> = Vec::new();
        let mut col = 0;
        for span in &line.spans {
            let w = span.width();
            let desc = describe_style(span.style);
            let link = span.link.as_deref().map(str::to_string);
            match runs.last_mut() {
                Some(last) if last.1 == col && last.2 == desc && last.3 == link => last.1 += w,
                _ => runs.push((col, col + w, desc, link)),
            }
            col += w;
        }
        let shown: Vec<String> = runs
            .into_iter()
            .filter(|(a, b, desc, link)| {
                (a < b || form == Runs::Below) && (!desc.is_empty() || link.is_some())
            })
            .map(|(a, b, desc, link)| {
                let mut s = format!("[{a}..{b}");
                if !desc.is_empty() {
                    s.push(' ');
                    s.push_str(&desc);
                }
                if let Some(l) = link {
                    s.push_str(" link=");
                    s.push_str(&l);
                }
                s.push(']');
                s
            })
            .collect();
        match form {
            Runs::Below => {
                for run in shown {
                    let _ = writeln!(out, "  ^ {run}");
                }
            }
            Runs::OneRow if !shown.is_empty() => {
                let _ = writeln!(out, "  {}", shown.join(" "));
            }
            Runs::OneRow => {}
        }
    }
    out
}

/// Panic unless every line fits `width` display columns (`what` names the
/// case in the message).
pub fn check_widths(lines: &[Line], width: usize, what: &str) {
    for l in lines {
        assert!(
            l.width() <= width,
            "{what} at {width}: {:?} is {} wide",
            l.text(),
            l.width()
        );
    }
}

/// A card's lines at `width` in `theme` and `density`, each checked to fit.
pub fn render_card(
    card: &ToolCard,
    theme: &Theme,
    width: usize,
    density: Density,
    what: &str,
) -> Vec<Line> {
    let lines = cards::render(card, &Ctx::new(width, theme, density));
    check_widths(&lines, width, what);
    lines
}

/// Every card of `t` at every width in `theme` (full density), headed
/// `── TOOL CALL_ID at W ──`: one snapshot's text. `what` names them in
/// width failures (`"{what} TOOL"`).
pub fn cards_at_widths(t: &deck::session::Transcript, theme: &Theme, what: &str) -> String {
    let mut out = String::new();
    for card in t.cards() {
        let tool = card.tool.as_deref().unwrap_or("?");
        for w in WIDTHS {
            let _ = writeln!(out, "── {tool} {} at {w} ──", card.call_id);
            let what = format!("{what} {tool}");
            out.push_str(&styled(
                &render_card(card, theme, w, Density::Full, &what),
                Runs::OneRow,
            ));
        }
    }
    out
}
