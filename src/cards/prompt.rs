//! Approval and question cards: what the host asked the user and how it
//! ended. Same chrome as a tool card (status glyph, kind glyph, title,
//! outcome on the right, a gutter under it), so a waiting approval reads like
//! a pending tool and an answered question like a settled one.
//!
//! A prompt has a card of its own while it waits for an answer here, or
//! when its call is not in the session; else it is drawn on its call's card
//! ([`gate`]: the approval's pill and reason; `asked.rs`: the question).
//! A waiting approval lists the options its agent offers (ACP), numbered
//! as the keys that choose them.
//!
//! ```text
//! ◌ ⚑ Approval · bash                            waiting for approval
//! │ escalate sandbox to danger-full-access: probes the approval flow.
//! │   1 Always Allow · allow always
//! │   2 Allow · allow once
//! │ $ echo probe > /var/tmp/probe.txt …     (the call's card, waiting)
//! ✓ ? Question · Confirm                                      answered
//! │ Continue the capture?
//! │   ● Yes (Recommended) — Keep going
//! │   ○ No
//! ```

use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use super::chrome::{GUTTER, cap};
use super::{Ctx, Density, Keep};
use crate::session::{Answer, Ask, Prompt, Question};
use crate::text::{self, Line, Span, sanitize, wrap};
use crate::theme::Role;

/// `allowed-once` → `allowed once`.
pub fn outcome_label(p: &Prompt) -> String {
    match &p.outcome {
        Some(o) => sanitize::inline(o).replace(['-', '_'], " "),
        None => match p.ask {
            Ask::Approval { .. } => "waiting for approval".into(),
            Ask::Question { .. } => "waiting for an answer".into(),
        },
    }
}

/// The style role of a prompt's outcome: waiting, refused, or neither.
fn outcome_role(p: &Prompt) -> Role {
    if p.is_waiting() {
        Role::Warning
    } else if p.is_refused() {
        Role::StatusError
    } else {
        Role::Muted
    }
}

/// The approval on a call's card: its pill and reason (none while it waits
/// for an answer on its own card, which draws the call).
pub fn gate(card: &crate::session::ToolCard) -> Option<super::chrome::Gate> {
    let p = card.approval.as_ref().filter(|p| !p.answerable())?;
    let Ask::Approval { reason, .. } = &p.ask else {
        return None;
    };
    Some(super::chrome::Gate {
        pill: outcome_label(p),
        role: outcome_role(p),
        reason: reason.clone(),
    })
}

fn status(p: &Prompt) -> (&'static str, Role) {
    if p.is_waiting() {
        ("◌", Role::StatusPending)
    } else if p.is_refused() {
        ("✗", Role::StatusError)
    } else {
        ("✓", Role::StatusOk)
    }
}

/// `Approval · <tool name>` / `Question · Confirm`.
pub fn title(p: &Prompt) -> String {
    match &p.ask {
        Ask::Approval { tool, .. } => format!("Approval · {}", sanitize::inline(tool)),
        Ask::Question { questions, .. } => {
            let heads: Vec<String> = questions
                .iter()
                .map(|q| sanitize::inline(&q.header))
                .filter(|h| !h.is_empty())
                .collect();
            if heads.is_empty() {
                "Question".into()
            } else {
                format!("Question · {}", heads.join(", "))
            }
        }
    }
}

fn header(p: &Prompt, ctx: &Ctx) -> Line {
    let theme = ctx.theme;
    let (glyph, role) = status(p);
    let kind = match p.ask {
        Ask::Approval { .. } => "⚑",
        Ask::Question { .. } => "?",
    };
    let mut left = Line::new();
    left.push_str(glyph, theme.style(role));
    left.push_str(" ", Style::default());
    left.push_str(kind, theme.style(Role::Warning));
    left.push_str(" ", Style::default());
    let right = outcome_label(p);
    let right_style = theme.style(outcome_role(p));
    let title = title(p);
    let fixed = left.width() + 2 + right.width();
    if fixed + 1 > ctx.width {
        left.push_str(title, theme.style(Role::Title));
        return wrap::truncate(&left, ctx.width);
    }
    let room = ctx.width - fixed;
    let title = wrap::truncate_str(&title, room);
    let pad = if text::unbounded(ctx.width) {
        0
    } else {
        room - title.width()
    };
    left.push_str(title, theme.style(Role::Title));
    left.push_str(" ".repeat(pad + 2), Style::default());
    left.push_str(right, right_style);
    left
}

fn words(text: &str, style: Style, width: usize) -> Vec<Line> {
    sanitize::lines(text)
        .into_iter()
        .flat_map(|l| wrap::words(&Line::styled(l, style), width))
        .collect()
}

/// Rows of the call's own card under a waiting approval, at most.
pub const CALL_ROWS: usize = 40;

fn question_body(
    q: &Question,
    answer: Option<&Answer>,
    many: bool,
    waiting: bool,
    ctx: &Ctx,
) -> Vec<Line> {
    let theme = ctx.theme;
    let mut out = Vec::new();
    let text = if many && !q.header.is_empty() {
        format!("{}: {}", q.header, q.question)
    } else {
        q.question.clone()
    };
    out.extend(words(&text, theme.style(Role::Text), ctx.width));
    let chosen = |label: &str| answer.is_some_and(|a| a.selected.iter().any(|s| s == label));
    let indent = [Span::plain("    ")];
    for (n, o) in q.options.iter().enumerate() {
        let on = chosen(&o.label);
        let number;
        let (mark, mark_style, label_style) = if waiting {
            // Waiting: numbered, the keys that choose them.
            number = format!("{:>3} ", n + 1);
            (
                number.as_str(),
                theme.style(Role::Focus),
                theme.style(Role::Text),
            )
        } else if on {
            (
                "  ● ",
                theme.style(Role::StatusOk),
                theme.style(Role::Title),
            )
        } else {
            ("  ○ ", theme.style(Role::Muted), theme.style(Role::Text))
        };
        let mut l = Line::new();
        l.push_str(sanitize::inline(&o.label), label_style);
        if !o.description.is_empty() {
            l.push_str(" — ", theme.style(Role::Muted));
            l.push_str(sanitize::inline(&o.description), theme.style(Role::Muted));
        }
        let first = [Span::new(mark, mark_style)];
        out.extend(wrap::with_gutter(l, ctx.width, &first, &indent, false));
    }
    // Answers that are not one of the options (typed text, or options the
    // question did not list).
    if let Some(a) = answer {
        let extra = a
            .selected
            .iter()
            .filter(|s| !q.options.iter().any(|o| &o.label == *s))
            .cloned()
            .chain(a.text.clone());
        for s in extra {
            let l = Line::styled(sanitize::inline(&s), theme.style(Role::Title));
            let first = [Span::new("  → ", theme.style(Role::StatusOk))];
            out.extend(wrap::with_gutter(l, ctx.width, &first, &indent, false));
        }
    }
    out
}

/// The questions of a prompt with the answers chosen; `numbered`: the
/// options numbered as the keys that choose them (waiting for an answer).
pub fn question_rows(p: &Prompt, numbered: bool, ctx: &Ctx) -> Vec<Line> {
    let Ask::Question {
        questions, answers, ..
    } = &p.ask
    else {
        return Vec::new();
    };
    let many = questions.len() > 1;
    let mut out = Vec::new();
    for q in questions {
        let a = crate::session::answer_to(q, questions, answers);
        out.extend(question_body(q, a, many, numbered, ctx));
    }
    if questions.is_empty() {
        out.push(Line::styled(
            "(the question itself is not in this log)",
            ctx.theme.style(Role::Muted),
        ));
    }
    out
}

/// The options of a waiting approval, numbered as the keys that choose
/// them: `  1 Always Allow · allow always`.
pub fn option_rows(p: &Prompt, ctx: &Ctx) -> Vec<Line> {
    let Ask::Approval { options, .. } = &p.ask else {
        return Vec::new();
    };
    let theme = ctx.theme;
    let indent = [Span::plain("    ")];
    let mut out = Vec::new();
    for (n, o) in options.iter().enumerate() {
        let number = if n < 9 {
            format!("{:>3} ", n + 1)
        } else {
            "    ".to_string()
        };
        let role = if o.rejects() {
            Role::StatusError
        } else if o.allows() {
            Role::StatusOk
        } else {
            Role::Muted
        };
        let mut l = Line::new();
        l.push_str(sanitize::inline(&o.name), theme.style(Role::Text));
        if !o.kind.is_empty() {
            l.push_str(" · ", theme.style(Role::Muted));
            l.push_str(sanitize::inline(&o.kind).replace('_', " "), theme.style(role));
        }
        let first = [Span::new(number, theme.style(Role::Focus))];
        out.extend(wrap::with_gutter(l, ctx.width, &first, &indent, false));
    }
    out
}

fn body(p: &Prompt, ctx: &Ctx) -> Vec<Line> {
    match &p.ask {
        // The tool is in the title; the call's card, when known, is drawn
        // under it while it waits, or carries it once answered.
        Ask::Approval { reason, .. } if !reason.is_empty() => {
            words(reason, ctx.theme.style(Role::Text), ctx.width)
        }
        Ask::Approval { .. } => Vec::new(),
        Ask::Question { .. } => question_rows(p, p.is_waiting(), ctx),
    }
}

/// Draw a prompt card at the context's density.
#[cfg(any(test, feature = "internals"))]
pub fn render(p: &Prompt, ctx: &Ctx) -> Vec<Line> {
    render_with_call(p, None, ctx)
}

/// [`render`], and under an approval still waiting, the card of the call it
/// is about (the command it would run, the diff it would apply), in full up
/// to [`CALL_ROWS`] rows: what the user is asked to allow.
pub fn render_with_call(
    p: &Prompt,
    call: Option<&crate::session::ToolCard>,
    ctx: &Ctx,
) -> Vec<Line> {
    if ctx.width == 0 {
        return vec![Line::new()];
    }
    let head = wrap::fit(header(p, ctx), ctx.width);
    if ctx.density == Density::Line {
        return vec![head];
    }
    let inner = Ctx {
        width: ctx.width.saturating_sub(super::chrome::GUTTER_WIDTH).max(1),
        ..*ctx
    };
    let mut lines = body(p, &inner);
    if ctx.density == Density::Preview {
        lines = cap(
            lines,
            ctx.preview_rows.max(3),
            Keep::Head,
            ctx.theme.style(Role::Muted),
        );
    }
    if p.is_waiting() {
        lines.extend(option_rows(p, &inner));
    }
    if let (Some(card), true, Ask::Approval { .. }) = (call, p.is_waiting(), &p.ask) {
        let full = Ctx {
            density: Density::Full,
            ..inner
        };
        // Only the rows shown are kept, however big the call's card.
        let mut call_rows = super::Rows::capped(CALL_ROWS, Keep::Head);
        super::render_into(card, &full, &mut call_rows);
        lines.extend(call_rows.finish(ctx.theme.style(Role::Muted)));
    }
    let gutter = [Span::new(GUTTER, ctx.theme.style(Role::Border))];
    let mut out = Vec::with_capacity(lines.len() + 1);
    out.push(head);
    for l in lines {
        out.push(wrap::fit(l.prefixed(&gutter), ctx.width));
    }
    out
}

/// The card as plain text (search, copy).
pub fn plain_text(p: &Prompt) -> String {
    titled_text(p, &outcome_label(p))
}

/// The prompt as plain text under its title and `outcome`: the reason, or
/// the questions, their options and the answers.
pub fn titled_text(p: &Prompt, outcome: &str) -> String {
    let mut out = format!("{}  {outcome}", title(p));
    match &p.ask {
        Ask::Approval { reason, .. } => {
            if !reason.is_empty() {
                out.push('\n');
                out.push_str(&sanitize::inline(reason));
            }
        }
        Ask::Question {
            questions, answers, ..
        } => {
            for q in questions {
                out.push('\n');
                out.push_str(&sanitize::inline(&q.question));
                for o in &q.options {
                    out.push_str("\n  ");
                    out.push_str(&sanitize::inline(&o.label));
                }
            }
            for a in answers {
                for s in a.selected.iter().chain(a.text.iter()) {
                    out.push_str("\n→ ");
                    out.push_str(&sanitize::inline(s));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Choice;
    use crate::theme::Theme;

    fn approval(outcome: Option<&str>) -> Prompt {
        Prompt {
            ask: Ask::Approval {
                id: "a1".into(),
                tool: "some_tool".into(),
                call_id: Some("call_1".into()),
                reason: "escalate sandbox to danger-full-access".into(),
                options: Vec::new(),
            },
            seq: Some(305),
            rpc_id: None,
            outcome: outcome.map(str::to_string),
            rev: 0,
        }
    }

    fn texts(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.text().trim_end().to_string())
            .collect()
    }

    #[test]
    fn approval_states() {
        let theme = Theme::dark();
        let ctx = Ctx::new(60, &theme, Density::Preview);
        let waiting = render(&approval(None), &ctx);
        assert!(waiting[0].text().starts_with("◌ ⚑ Approval · some_tool"));
        assert!(waiting[0].text().ends_with("waiting for approval"));
        let ok = render(&approval(Some("allowed-once")), &ctx);
        assert!(ok[0].text().starts_with("✓"));
        assert!(ok[0].text().ends_with("allowed once"));
        assert_eq!(ok[0].spans[0].style, theme.style(Role::StatusOk));
        let no = render(&approval(Some("denied")), &ctx);
        assert!(no[0].text().starts_with("✗"));
        assert_eq!(no[0].spans[0].style, theme.style(Role::StatusError));
        // The reason, never the raw call id.
        assert_eq!(
            texts(&ok[1..]),
            vec!["│ escalate sandbox to danger-full-access"]
        );
        assert!(!plain_text(&approval(Some("allowed-once"))).contains("call_1"));
        assert_eq!(
            render(&approval(None), &Ctx::new(60, &theme, Density::Line)).len(),
            1
        );
    }

    #[test]
    fn a_waiting_approval_numbers_the_agents_options() {
        let theme = Theme::dark();
        let mut p = approval(None);
        let option = |id: &str, name: &str, kind: &str| crate::session::PermissionOption {
            id: id.into(),
            name: name.into(),
            kind: kind.into(),
        };
        if let Ask::Approval { options, .. } = &mut p.ask {
            *options = vec![
                option("aa", "Always Allow", "allow_always"),
                option("r", "Reject\u{1b}[31m", "reject_once"),
            ];
        }
        let lines = render(&p, &Ctx::new(60, &theme, Density::Preview));
        assert_eq!(
            texts(&lines[1..]),
            vec![
                "│ escalate sandbox to danger-full-access",
                "│   1 Always Allow · allow always",
                "│   2 Reject␛[31m · reject once",
            ]
        );
        assert_eq!(lines[3].spans.last().unwrap().style, theme.style(Role::StatusError));
        for w in 0..30 {
            for l in render(&p, &Ctx::new(w, &theme, Density::Full)) {
                assert!(l.width() <= w.max(1), "width {w}: {:?}", l.text());
            }
        }
        // Answered: the outcome says what was chosen, the options go.
        p.outcome = Some("allowed always".into());
        let done = render(&p, &Ctx::new(60, &theme, Density::Preview));
        assert!(done[0].text().ends_with("allowed always"));
        assert_eq!(done.len(), 2);
    }

    #[test]
    fn question_marks_the_chosen_option() {
        let theme = Theme::dark();
        let p = Prompt {
            ask: Ask::Question {
                questions: vec![Question {
                    id: "q1".into(),
                    header: "Confirm".into(),
                    question: "Continue?".into(),
                    options: vec![
                        Choice {
                            label: "Yes".into(),
                            description: "Keep going".into(),
                        },
                        Choice {
                            label: "No".into(),
                            description: String::new(),
                        },
                    ],
                    multi_select: false,
                }],
                call_id: None,
                answers: vec![Answer {
                    id: "q1".into(),
                    selected: vec!["Yes".into()],
                    text: None,
                    question: None,
                }],
            },
            seq: None,
            rpc_id: Some("r".into()),
            outcome: Some("answered".into()),
            rev: 1,
        };
        let lines = render(&p, &Ctx::new(50, &theme, Density::Preview));
        assert_eq!(
            texts(&lines),
            vec![
                "✓ ? Question · Confirm                    answered",
                "│ Continue?",
                "│   ● Yes — Keep going",
                "│   ○ No",
            ]
        );
        for w in 0..30 {
            for l in render(&p, &Ctx::new(w, &theme, Density::Full)) {
                assert!(l.width() <= w.max(1), "width {w}: {:?}", l.text());
            }
        }
        assert!(plain_text(&p).contains("→ Yes"));
    }
}
