//! What the agents' presenter tests share: a fixture folded as deck folds
//! it (its lines, or its whole document, through the agent's reader, then
//! its presenters), and the card dump they snapshot — each line's text,
//! then its styled runs (`[from..to style]`), every line checked to fit
//! its width.

use std::fmt::Write as _;

use serde_json::Value;

use crate::agents::read::{Out, Translate};
use crate::session::{SharedPresenters, Transcript};
use crate::text::line::describe_style;
use crate::text::Line;
use crate::wire::Origin;

/// Each JSON line of `text` through `reader` (at its line number), then
/// its end, folded with `presenters`.
pub(crate) fn fold_lines(mut reader: impl Translate, presenters: SharedPresenters, text: &str) -> Transcript {
    let mut out = Out::new();
    for (i, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).expect("fixture lines are JSON");
        reader.line(&v, Origin { line: i + 1, offset: 0 }, &mut out);
    }
    fold_out(reader, presenters, out)
}

/// The JSON document `text` through `reader` as one line (a reader that
/// takes a whole document), then its end, folded with `presenters`.
pub(crate) fn fold_document(mut reader: impl Translate, presenters: SharedPresenters, text: &str) -> Transcript {
    let doc: Value = serde_json::from_str(text).expect("a JSON document");
    let mut out = Out::new();
    reader.line(&doc, Origin::default(), &mut out);
    fold_out(reader, presenters, out)
}

fn fold_out(mut reader: impl Translate, presenters: SharedPresenters, mut out: Out) -> Transcript {
    reader.finish(&mut out);
    Transcript::from_records(None, out.iter().map(|(_, r)| r), presenters)
}

/// Each line's text as drawn, then its styled runs on one row.
pub(crate) fn styled(lines: &[Line], width: usize, name: &str) -> String {
    let mut out = String::new();
    for line in lines {
        assert!(line.width() <= width, "{name} at {width}: {:?}", line.text());
        out.push_str(&line.text());
        out.push('\n');
        let mut runs: Vec<(usize, usize, String)> = Vec::new();
        let mut col = 0;
        for span in &line.spans {
            let w = span.width();
            let desc = describe_style(span.style);
            match runs.last_mut() {
                Some(last) if last.1 == col && last.2 == desc => last.1 += w,
                _ => runs.push((col, col + w, desc)),
            }
            col += w;
        }
        let shown: Vec<String> = runs
            .into_iter()
            .filter(|(a, b, d)| a < b && !d.is_empty())
            .map(|(a, b, d)| format!("[{a}..{b} {d}]"))
            .collect();
        if !shown.is_empty() {
            let _ = writeln!(out, "  {}", shown.join(" "));
        }
    }
    out
}
