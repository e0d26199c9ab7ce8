//! The end of a background task on the card of the call that started it
//! ([`ToolCard::task`]): the header's outcome says how it ended
//! (`background: completed`), and below the body one row says it with the
//! task's summary, then what the task handed back (an agent's report, as
//! markdown) or, when it handed back nothing, where its output went (a
//! file the log does not hold: named once, never read).

use super::{Ctx, Density, Rows};
use crate::session::{Status, ToolCard};
use crate::text::{Line, markdown, sanitize, wrap};
use crate::theme::Role;

/// The header's outcome of a card whose background task ended.
pub(super) fn outcome(card: &ToolCard) -> Option<String> {
    let task = card.task.as_ref()?;
    Some(format!(
        "background: {}",
        task.status.as_deref().unwrap_or("ended")
    ))
}

/// The task's end, below the card's body (`ctx`: the width inside the
/// gutter). Nothing at line density.
pub(super) fn rows(card: &ToolCard, ctx: &Ctx, out: &mut Rows) {
    let Some(task) = &card.task else {
        return;
    };
    if ctx.density == Density::Line {
        return;
    }
    let theme = ctx.theme;
    let status = task.status.as_deref().unwrap_or("ended");
    let (glyph, style) = match status {
        "completed" => ("✓", super::status_style(theme, Status::Ok)),
        "failed" => ("✗", super::status_style(theme, Status::Failed)),
        _ => ("⊘", super::status_style(theme, Status::Interrupted)),
    };
    let mut head = Line::new();
    head.push_str(format!("{glyph} background task {status}"), style);
    if let Some(s) = &task.summary {
        head.push_str(" · ", theme.style(Role::Muted));
        head.push_str(sanitize::inline(s), theme.style(Role::Text));
    }
    out.push(Line::new());
    out.extend(wrap::words(&head, ctx.width));
    // The file is named once: the result said it already, if it did.
    let said = |file: &str| {
        card.result
            .as_ref()
            .is_some_and(|r| r.text().contains(file))
    };
    match (&task.result, &task.output_file) {
        (Some(r), _) => markdown::render_into(r, ctx.width, theme, theme.style(Role::Text), out),
        (None, Some(file)) if !said(file) => {
            let l = Line::styled(
                format!(
                    "its output went to {} (not kept in the log)",
                    sanitize::inline(file)
                ),
                theme.style(Role::Muted),
            );
            out.extend(wrap::words(&l, ctx.width));
        }
        _ => {}
    }
}

/// The task's end as text (what [`rows`] shows).
pub(super) fn plain_text(card: &ToolCard) -> Option<String> {
    let task = card.task.as_ref()?;
    let mut text = format!(
        "background task {}",
        task.status.as_deref().unwrap_or("ended")
    );
    if let Some(s) = &task.summary {
        text.push_str(&format!(" · {s}"));
    }
    if let Some(r) = &task.result {
        text.push_str(&format!("\n{r}"));
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ratatui::style::Style;

    use super::*;
    use crate::session::{TaskEnd, ToolResult};
    use crate::theme::Theme;

    fn text(card: &ToolCard) -> Vec<String> {
        let theme = Theme::dark();
        let mut out = Rows::all();
        rows(card, &Ctx::new(60, &theme, Density::Preview), &mut out);
        out.finish(Style::default())
            .iter()
            .map(|l| l.text())
            .collect()
    }

    #[test]
    fn a_tasks_end_says_how_and_names_its_output_once() {
        let mut card = ToolCard::new("c");
        assert!(text(&card).is_empty() && outcome(&card).is_none());
        let mut end = TaskEnd {
            status: Some("failed".into()),
            summary: Some("Background command \"make\" failed with exit code 2".into()),
            output_file: Some("/tmp/t.output".into()),
            ..TaskEnd::default()
        };
        card.task = Some(Arc::new(end.clone()));
        assert_eq!(outcome(&card).as_deref(), Some("background: failed"));
        assert_eq!(
            text(&card),
            [
                "",
                "✗ background task failed · Background command \"make\" failed",
                "with exit code 2",
                "its output went to /tmp/t.output (not kept in the log)",
            ]
        );
        // The result named the file already: not again.
        let said = serde_json::json!({"type": "text", "text": "running; output in /tmp/t.output"});
        card.result = Some(ToolResult::new(1, vec![said], false, None, None));
        assert_eq!(text(&card).len(), 3);
        // An agent's report is what it handed back.
        end.status = Some("completed".into());
        end.result = Some("All *good*.".into());
        card.task = Some(Arc::new(end));
        assert_eq!(text(&card).last().map(String::as_str), Some("All good."));
    }
}
