//! The card dump the agents' presenter tests snapshot: each line's text,
//! then its styled runs (`[from..to style]`), every line checked to fit
//! its width.

use std::fmt::Write as _;

use crate::text::line::describe_style;
use crate::text::Line;

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
