//! A card's nested transcript: the subagent its call started, folded from
//! the subagent's own log ([`ToolCard::nested`]), drawn below the card's
//! body. Closed it is one row that says what it holds
//! (`▸ subagent · 2 calls · 1 error`); open (the card at full density, or a
//! context that opens them: `deck render`, the exports) that row says `▾`
//! and the subagent's items follow, indented, drawn as the transcript
//! draws its own (`item.rs`) at the card's density. Nothing at line
//! density: a line is one row. As text (`plain.rs`) it is its summary's
//! words, then its items' texts.

use ratatui::style::Style;

use super::{Ctx, Density, Rows, item};
use crate::session::{Item, Status, ToolCard, Transcript};
use crate::text::{Line, Span, wrap};
use crate::theme::Role;

/// Columns a nested item is indented by.
const INDENT: usize = 2;

/// The nested transcript of `card`, if it has one (`ctx`: the width
/// inside the card's gutter).
pub(super) fn rows(card: &ToolCard, ctx: &Ctx, out: &mut Rows) {
    let Some(nested) = &card.nested else {
        return;
    };
    if ctx.density == Density::Line {
        return;
    }
    let t = nested.transcript();
    let open = ctx.open_nested || ctx.density == Density::Full;
    out.push(Line::new());
    out.extend(wrap::words(&summary(t, open, ctx), ctx.width));
    if open {
        items(t, ctx, out);
    }
}

/// `▸ subagent · 2 calls · 1 error · 1 running · 1 diagnostic`.
pub fn summary(t: &Transcript, open: bool, ctx: &Ctx) -> Line {
    let theme = ctx.theme;
    let muted = theme.style(Role::Muted);
    let mut line = Line::new();
    line.push_str(if open { "▾ " } else { "▸ " }, muted);
    line.push_str("subagent", theme.style(Role::Title));
    for (words, tone) in counts(t) {
        line.push_str(" · ", muted);
        let style = match tone {
            Some(status) => super::status_style(theme, status),
            None if words.ends_with("diagnostic") || words.ends_with("diagnostics") => {
                theme.style(Role::Warning)
            }
            None => muted,
        };
        line.push_str(words, style);
    }
    line
}

/// What a nested transcript holds, in words, each with the status whose
/// colour it takes (`None`: quiet, or a diagnostic's warning).
pub(super) fn counts(t: &Transcript) -> Vec<(String, Option<Status>)> {
    let calls = match t.cards().len() {
        0 => "no calls".to_string(),
        n => plural(n, "call"),
    };
    let mut out = vec![(calls, None)];
    if t.error_count() > 0 {
        out.push((plural(t.error_count(), "error"), Some(Status::Error)));
    }
    if t.running_cards() > 0 {
        out.push((
            format!("{} running", t.running_cards()),
            Some(Status::Pending),
        ));
    }
    if !t.diagnostics().is_empty() {
        out.push((plural(t.diagnostics().len(), "diagnostic"), None));
    }
    out
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The subagent's first turn starts with the call itself: no rule for it.
pub(super) fn first_turn(it: &Item) -> bool {
    matches!(it, Item::Turn(m) if m.end.is_none() && m.turn <= 1)
}

/// The nested transcript's items, indented, a blank row between two.
fn items(t: &Transcript, ctx: &Ctx, out: &mut Rows) {
    let inner = Ctx {
        width: ctx.width.saturating_sub(INDENT).max(1),
        ..*ctx
    };
    let pad = [Span::new(" ".repeat(INDENT), Style::default())];
    let width = ctx.width;
    let mut each = |l: Line| out.push(wrap::fit(l.prefixed(&pad), width));
    let mut rows = Rows::each(&mut each);
    for it in t.items() {
        if first_turn(it) {
            continue;
        }
        if !rows.is_empty() {
            rows.gap();
        }
        item::item_into(t, it, &inner, false, &mut rows);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::theme::Theme;
    use crate::wire::{Frame, Origin, Record};

    fn ev(kind: &str, seq: u64, data: serde_json::Value) -> Record {
        let v = json!({"type": kind, "seq": seq, "time": seq, "data": data});
        Record::from_frame(Frame::from_owned(v).expect("frame"), Origin::default())
    }

    fn under(r: Record) -> Record {
        Record::Nested {
            parent_call: "agent".into(),
            record: Box::new(r),
        }
    }

    /// An Agent call whose subagent made a failed call and a running one.
    fn card() -> ToolCard {
        let part =
            json!({"type": "tool-result", "toolCallId": "a", "content": [], "isError": true});
        let records = [
            ev("turn/start", 1, json!({"turn": 1})),
            ev(
                "tool/call",
                2,
                json!({"turn": 1, "callId": "agent", "name": "x", "arguments": "{}"}),
            ),
            under(ev("turn/start", 1, json!({"turn": 1}))),
            under(ev("user/message", 2, json!({"turn": 1, "content": "look"}))),
            under(ev(
                "tool/call",
                3,
                json!({"turn": 1, "callId": "a", "name": "x", "arguments": "{}"}),
            )),
            under(ev(
                "tool/result",
                4,
                json!({"turn": 1, "message": {"content": [part]}}),
            )),
            under(ev(
                "tool/call",
                5,
                json!({"turn": 1, "callId": "b", "name": "y", "arguments": "{}"}),
            )),
        ];
        let t = Transcript::from_records(None, &records, crate::agents::stock());
        t.card("agent").cloned().expect("card")
    }

    fn text(card: &ToolCard, density: Density, open: bool) -> Vec<String> {
        let theme = Theme::dark();
        let ctx = Ctx {
            open_nested: open,
            ..Ctx::new(60, &theme, density)
        };
        let mut rows = Rows::all();
        rows_of(card, &ctx, &mut rows);
        rows.finish(Style::default())
            .iter()
            .map(|l| l.text())
            .collect()
    }

    fn rows_of(card: &ToolCard, ctx: &Ctx, out: &mut Rows) {
        rows(card, ctx, out);
    }

    #[test]
    fn closed_it_is_one_row_that_counts_what_it_holds() {
        let card = card();
        let closed = text(&card, Density::Preview, false);
        assert_eq!(closed, ["", "▸ subagent · 2 calls · 1 error · 1 running"]);
        assert!(
            text(&card, Density::Line, true).is_empty(),
            "a line is one row"
        );
    }

    #[test]
    fn open_its_items_follow_indented_without_the_first_turns_rule() {
        let card = card();
        let open = text(&card, Density::Preview, true);
        assert_eq!(open[1], "▾ subagent · 2 calls · 1 error · 1 running");
        assert!(open[2].starts_with("  › look"), "{open:?}");
        assert!(open.iter().all(|l| !l.contains("turn 1")), "{open:?}");
        assert!(
            open.iter()
                .skip(2)
                .all(|l| l.is_empty() || l.starts_with("  "))
        );
        let calls = open
            .iter()
            .filter(|l| l.starts_with("  ✗") || l.starts_with("  ⠋"))
            .count();
        assert_eq!(calls, 2, "{open:?}");
        // Full density opens it whatever the context says.
        assert_eq!(
            text(&card, Density::Full, false),
            text(&card, Density::Full, true)
        );
    }

    #[test]
    fn as_text_it_is_its_summary_and_its_items() {
        let nested_text = super::super::plain::nested_text;
        let text = nested_text(&card()).expect("nested");
        assert!(
            text.starts_with("subagent · 2 calls · 1 error · 1 running\n\nlook"),
            "{text}"
        );
        assert!(nested_text(&ToolCard::new("c")).is_none());
        // A card's text (what `y` copies, what a search looks at first)
        // holds it.
        assert!(super::super::plain::plain_text(&card()).contains("\n\nlook"));
    }
}
