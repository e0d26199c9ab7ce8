//! Cards as plain text, for copying: unwrapped, no gutters, no glyphs, no
//! styles — the content a person would paste elsewhere. Controls are
//! stripped (an OSC 52 payload must carry no escapes).
//!
//! A card's text holds its nested transcript's (a subagent's), item by
//! item, and an item's text holds its card's: so the text of a
//! transcript's items ([`item_text`]) is made here too, as the library
//! indexes it and a copy takes it.

use serde_json::Value;

use super::nested::{counts, first_turn};
use super::{blocks_text, conversation, resolve};
use crate::session::{Item, ToolCard, Transcript};
use crate::text::sanitize::{self, strip_controls};
use crate::wire::View;
use crate::wire::view::{SearchBody, WebBody};

fn json_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// A unified diff's hunk headers (`@@ -A,B +C,D @@`) moved down: the old
/// side `old_by` lines, the new side `new_by`. Only headers start with
/// `@@`: every other line of a hunk starts with ` `, `-`, `+` or `\`.
fn shift_hunks(text: &str, old_by: usize, new_by: usize) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        let shifted = line.strip_prefix("@@ -").and_then(|rest| {
            let (old, rest) = rest.split_once(" +")?;
            let (new, tail) = rest.split_once(" @@")?;
            let moved = |range: &str, by: usize| -> Option<String> {
                let (start, len) = match range.split_once(',') {
                    Some((s, l)) => (s.parse::<usize>().ok()?, Some(l)),
                    None => (range.parse::<usize>().ok()?, None),
                };
                Some(match len {
                    Some(l) => format!("{},{l}", start.saturating_add(by)),
                    None => start.saturating_add(by).to_string(),
                })
            };
            Some(format!(
                "@@ -{} +{} @@{tail}",
                moved(old, old_by)?,
                moved(new, new_by)?
            ))
        });
        out.push_str(shifted.as_deref().unwrap_or(line));
    }
    out
}

/// The whole card as plain text: its title, the approval that gated it,
/// then what it shows (its question or plan, else its view) and the raw
/// result text it shows.
pub fn plain_text(card: &ToolCard) -> String {
    plain_text_of(card, &resolve(card))
}

/// Which part of a card a piece of its text is: what was asked of the
/// tool (its title or command, the edit it makes), what it gave back, or
/// how it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Input,
    Output,
    Error,
}

impl Part {
    /// What a search hit in it is called.
    pub fn label(self) -> &'static str {
        match self {
            Part::Input => "tool input",
            Part::Output => "tool output",
            Part::Error => "error",
        }
    }
}

/// [`plain_text`] of a card already resolved (the session library reads
/// the card's tag from the same resolution).
pub fn plain_text_of(card: &ToolCard, r: &super::Resolved) -> String {
    let parts = parts(card, r, false);
    let texts: Vec<&str> = parts.iter().map(|(_, t)| t.as_str()).collect();
    texts.join("\n")
}

/// The card's text part by part, as the library indexes it: the pieces of
/// [`plain_text_of`] in its order, each with what it is, and the error
/// the card's header shows (`FsError FS_EDIT_NOT_FOUND`), which a copy
/// leaves out. Controls stripped; no piece empty.
pub fn plain_parts_of(card: &ToolCard, r: &super::Resolved) -> Vec<(Part, String)> {
    parts(card, r, true)
}

/// The card's text pieces; `header`: with the error its header shows.
fn parts(card: &ToolCard, r: &super::Resolved, header: bool) -> Vec<(Part, String)> {
    let mut out = match super::asked::plain_text(card) {
        Some(text) => vec![(Part::Input, text)],
        None => vec![(Part::Input, r.title.clone())],
    };
    if let Some(g) = super::prompt::gate(card) {
        out.push((Part::Input, format!("⚑ {}", g.pill)));
        out.push((Part::Input, g.reason));
    }
    if let Some(e) = card.result.as_ref().and_then(|res| res.error.as_ref()).filter(|_| header) {
        let said: Vec<&str> = [&e.name, &e.code].into_iter().flatten().map(String::as_str).collect();
        if !said.is_empty() {
            out.push((Part::Error, said.join(" ")));
        }
    }
    // A question or a plan was said above.
    if !card.converses() {
        view_text(r, header, &mut out);
    }
    if let Some(raw) = &r.raw_result {
        // A failed call's words are its error.
        let part = if card.status.is_bad() { Part::Error } else { Part::Output };
        out.push((part, raw.clone()));
    }
    // Below the body at full density: how its background task ended, the
    // subagent's transcript.
    out.extend(super::task::plain_text(card).into_iter().map(|t| (Part::Output, t)));
    out.extend(nested_text(card).into_iter().map(|t| (Part::Output, t)));
    out.into_iter()
        .filter(|(_, s)| !s.is_empty())
        .map(|(p, s)| (p, sanitize::strip_controls(&s)))
        .collect()
}

/// What a resolved view shows, as text pieces; `indexed`: for the index,
/// a diff without its `\ No newline at end of file` markers (a patch
/// copied keeps them).
fn view_text(r: &super::Resolved, indexed: bool, out: &mut Vec<(Part, String)>) {
    let mut put = |p: Part, s: String| out.push((p, s));
    match &r.view {
        View::Terminal(t) => {
            if let Some(d) = &t.description {
                put(Part::Output, d.clone());
            }
            if let Some(o) = &t.output {
                put(Part::Output, shown_output(o));
            }
            match (t.exit_code, &t.signal) {
                (_, Some(s)) => put(Part::Output, format!("[killed by signal: {s}]")),
                (Some(c), None) => put(Part::Output, format!("[exit code: {c}]")),
                _ => {}
            }
        }
        View::Diff(d) => {
            for f in &d.diffs {
                let old = f.old_text.as_deref().unwrap_or("");
                let diff = similar::TextDiff::from_lines(old, &f.new_text);
                let from = if f.old_text.is_some() {
                    format!("a/{}", f.path)
                } else {
                    "/dev/null".into()
                };
                let text = diff
                    .unified_diff()
                    .context_radius(3)
                    .header(&from, &format!("b/{}", f.path))
                    .to_string();
                // The texts start at a known line of the file: the hunks
                // say the file's line numbers, not the texts'.
                let at = |s: u64| usize::try_from(s).unwrap_or(usize::MAX).saturating_sub(1);
                let text = match f.start_line {
                    Some(s) if s > 1 || f.new_start_line.is_some_and(|n| n > 1) => {
                        let new = f.new_start_line.unwrap_or(s);
                        shift_hunks(&text, at(s), at(new))
                    }
                    _ => text,
                };
                let text = if indexed {
                    text.split_inclusive('\n')
                        .filter(|l| !l.starts_with("\\ "))
                        .collect()
                } else {
                    text
                };
                // The edit is what was asked of the tool.
                put(Part::Input, text);
            }
        }
        View::Read(v) => {
            put(
                Part::Output,
                v.lines
                    .iter()
                    .map(|l| l.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
        }
        View::Search(s) => match &s.body {
            SearchBody::Matches(files) => {
                for f in files {
                    for m in &f.matches {
                        put(Part::Output, format!("{}:{}: {}", f.path, m.line_number, m.line));
                    }
                }
            }
            SearchBody::Paths(p) => put(Part::Output, p.join("\n")),
        },
        View::Web(w) => match &w.body {
            WebBody::Search {
                sources,
                answer,
                failures,
            } => {
                if let Some(a) = answer {
                    put(Part::Output, a.clone());
                }
                for s in sources {
                    put(
                        Part::Output,
                        format!("{} {}", s.title.as_deref().unwrap_or(""), s.url)
                            .trim()
                            .to_string(),
                    );
                }
                for f in failures {
                    put(Part::Error, format!("failed: {} ({}: {})", f.query, f.code, f.message));
                }
            }
            WebBody::Fetch { url, status_code } => put(
                Part::Output,
                format!(
                    "{url} {}",
                    status_code.map(|c| c.to_string()).unwrap_or_default()
                )
                .trim()
                .to_string(),
            ),
        },
        View::Generic(g) => {
            if let Some(i) = &g.raw_input {
                put(Part::Input, json_text(i));
            }
            if let Some(c) = &g.content {
                put(Part::Output, blocks_text(c));
            }
        }
    }
}

/// Terminal output as deck shows it: sequences interpreted, `\r` redraws
/// resolved, wiped screens kept (the emulator of the terminal card).
fn shown_output(output: &str) -> String {
    let mut lines = Vec::new();
    crate::text::ansi::lines_into(
        output,
        &crate::theme::Theme::plain(),
        ratatui::style::Style::default(),
        &mut |l| lines.push(l.text()),
    );
    lines.join("\n")
}

/// The card's raw output, sanitised (what `Y` copies): a terminal card's
/// output as the tool wrote it, every `\r` step kept, escape sequences
/// taken out whole; else the result's text.
pub fn raw_output(card: &ToolCard) -> Option<String> {
    let r = resolve(card);
    let raw = match &r.view {
        View::Terminal(t) if t.output.is_some() => t.output.clone(),
        _ => card.result.as_ref().map(|res| res.text()),
    }?;
    Some(sanitize::strip_sequences(&raw)).filter(|s| !s.trim().is_empty())
}

/// The card's command, path or URL (what `c` copies).
pub fn target(card: &ToolCard) -> Option<String> {
    let r = resolve(card);
    let t = match &r.view {
        View::Terminal(_) => Some(r.title.clone()),
        View::Diff(d) => d
            .diffs
            .first()
            .map(|f| f.path.clone())
            .or_else(|| d.locations.first().map(|l| l.path.clone())),
        View::Read(v) => Some(v.path.clone()),
        View::Search(_) => Some(r.title.clone()),
        View::Web(w) => match &w.body {
            WebBody::Fetch { url, .. } => Some(url.clone()),
            WebBody::Search { sources, .. } => sources.first().map(|s| s.url.clone()),
        },
        View::Generic(g) => g
            .locations
            .first()
            .map(|l| l.path.clone())
            .or_else(|| {
                g.raw_input
                    .as_ref()
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .or_else(|| Some(card.arguments.clone()).filter(|a| !a.is_empty())),
    };
    t.map(|s| sanitize::strip_controls(&s))
}

/// An item as plain text (for copying, and for a search's first look):
/// cards through [`plain_text`], conversation items as their text.
pub fn item_text(t: &Transcript, item: &Item) -> String {
    match item {
        Item::User(m) => strip_controls(&m.text),
        Item::Assistant(m) => strip_controls(
            &m.blocks
                .iter()
                .map(|b| b.text.as_str())
                .collect::<Vec<_>>()
                .join("\n\n"),
        ),
        Item::Turn(m) => match &m.end {
            None => m.label(),
            Some(e) => strip_controls(&format!(
                "{} {}{}{}",
                m.label(),
                e.reason,
                e.message
                    .as_ref()
                    .map(|s| format!(": {s}"))
                    .unwrap_or_default(),
                e.usage
                    .as_ref()
                    .and_then(conversation::usage_text)
                    .map(|u| format!(" · {u}"))
                    .unwrap_or_default()
            )),
        },
        Item::Todo { todos, .. } => strip_controls(&conversation::todo_text(todos)),
        Item::Tool(i) => t
            .cards()
            .get(*i)
            .map(|c| plain_text(c))
            .unwrap_or_default(),
        Item::Prompt(p) => super::prompt::plain_text(p),
        Item::Diagnostic(i) => t
            .diagnostics()
            .get(*i)
            .map(|d| strip_controls(&format!("line {}: {}\n{}", d.origin.line, d.reason, d.raw)))
            .unwrap_or_default(),
        Item::Retry(r) => strip_controls(&r.summary()),
        Item::Compaction(c) => strip_controls(&conversation::compaction_text(c)),
    }
}

/// A card's nested transcript as text: its summary, then its items' texts.
pub(super) fn nested_text(card: &ToolCard) -> Option<String> {
    let t = card.nested.as_ref()?.transcript();
    let mut parts = vec![summary_text(t)];
    parts.extend(
        t.items()
            .iter()
            .filter(|it| !t.merged(it) && !first_turn(it))
            .map(|it| item_text(t, it))
            .filter(|s| !s.is_empty()),
    );
    Some(parts.join("\n\n"))
}

/// The words of a nested transcript's summary row (`nested::summary`).
fn summary_text(t: &Transcript) -> String {
    let mut text = "subagent".to_string();
    for (words, _) in counts(t) {
        text.push_str(" · ");
        text.push_str(&words);
    }
    text
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::plain_text;
    use crate::session::{AttachedView, Status, ToolCard, ViewSource};

    fn diff_card(diff: serde_json::Value) -> ToolCard {
        let mut card = ToolCard::new("c1");
        card.tool = Some("edit".into());
        card.status = Status::Ok;
        let view = json!({"card": "diff", "title": "Edit a.rs", "diffs": [diff]});
        card.result_view = Some(AttachedView::new(ViewSource::Presenter, view));
        card
    }

    /// A diff of texts that start at a known line of the file says the
    /// file's line numbers: the same hunks as the whole file's diff.
    #[test]
    fn hunks_of_texts_placed_in_their_file_say_the_files_lines() {
        let file: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let changed = file.replace("line 20\n", "LINE 20\n");
        let whole = diff_card(json!({"path": "a.rs", "oldText": file, "newText": changed, "startLine": 1}));
        let cut = |t: &str| t.lines().skip(16).take(7).map(|l| format!("{l}\n")).collect::<String>();
        let part = diff_card(json!({"path": "a.rs", "oldText": cut(&file), "newText": cut(&changed), "startLine": 17}));
        let text = plain_text(&part);
        assert!(text.contains("@@ -17,7 +17,7 @@"), "{text}");
        assert_eq!(text, plain_text(&whole));
        // Unplaced texts keep the texts' own numbers.
        let loose = diff_card(json!({"path": "a.rs", "oldText": cut(&file), "newText": cut(&changed)}));
        assert!(plain_text(&loose).contains("@@ -1,7 +1,7 @@"));
    }

    #[test]
    fn only_hunk_headers_move() {
        let text = "--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+@@ -1 +1 @@\n";
        assert_eq!(
            super::shift_hunks(text, 9, 9),
            "--- a/x\n+++ b/x\n@@ -9,0 +10 @@\n+@@ -1 +1 @@\n"
        );
        // A hunk below others that added lines: its sides move apart.
        assert_eq!(
            super::shift_hunks("@@ -1,3 +1,5 @@\n", 407, 409),
            "@@ -408,3 +410,5 @@\n"
        );
    }
}
