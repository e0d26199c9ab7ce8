//! Writers from styled [`Line`]s to bytes.

use crate::text::Line;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Ansi,
    Styled,
}

pub fn write_lines(lines: &[Line], _format: Format) -> String {
    let mut out = String::new();
    for l in lines {
        out.push_str(l.text().trim_end());
        out.push('\n');
    }
    out
}
