//! Markdown to styled lines.
use ratatui::style::Style;

use crate::text::{Line, sanitize, wrap};
use crate::theme::Theme;

pub fn render(md: &str, width: usize, _theme: &Theme, base: Style) -> Vec<Line> {
    sanitize::lines(md).into_iter().flat_map(|l| wrap::words(&Line::styled(l, base), width)).collect()
}
