//! What the library makes of a session: a [`SessionRow`] per session a
//! file holds — agent, title, cwd, times, calls, errors, size, and its
//! problem if it has one — and a [`Doc`] per searchable entry: each
//! prompt, answer and tool card as the plain text deck shows (so a match
//! found here is on the card it opens at), with the card's tool, tag, paths
//! and outcome for the filters. Made from a folded transcript, whole
//! ([`super::read`]) or as it is folded ([`super::fold`]); nothing here
//! reads a file.

use serde::{Deserialize, Serialize};

use crate::cards::{self, plain::{self, item_text}};
use crate::session::{Item, ToolCard, Transcript};
use crate::source::Format;

/// One session of the library, as the list shows it and `--json` prints it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRow {
    /// `dsh`, `claude-code`, `codex`, `acp`; `unknown` for a file that
    /// could not be read outside the agents' folders.
    pub agent: String,
    pub id: Option<String>,
    /// The agent's own title, else the first prompt (first line, ≤ 80
    /// characters). As the file has it: sanitize before showing.
    pub title: Option<String>,
    pub cwd: Option<String>,
    pub path: String,
    /// Epoch ms of the first and the last event with a time.
    pub started: Option<i64>,
    pub ended: Option<i64>,
    pub calls: usize,
    /// Calls that failed (an error result, a non-zero exit).
    pub errors: usize,
    /// The file's size.
    pub bytes: u64,
    /// Why the file could not be read, or what was skipped in it.
    pub problem: Option<String>,
}

/// One searchable entry of a session: a prompt, an answer or a tool card.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub agent: String,
    pub session: Option<String>,
    /// Its index among the session's entries (`Transcript::items`).
    pub item: u64,
    /// The tool call it is, for a card.
    pub call: Option<String>,
    pub tool: Option<String>,
    /// `prompt`, `answer`, or the card's tag (`terminal`, `diff` …).
    pub kind: String,
    pub text: String,
    /// The files a diff or read card is about.
    pub paths: Vec<String>,
    pub error: bool,
    /// Epoch ms.
    pub time: Option<i64>,
    /// What each piece of `text` is, from the byte it starts at: `prompt`,
    /// `answer`, `thinking`, `tool input`, `tool output`, `error`, `note`
    /// (a hit is labelled by the piece its match is in).
    pub parts: Vec<(usize, &'static str)>,
}

impl Doc {
    /// `pieces` as the doc's text (joined by `sep`) and parts.
    fn set_pieces<'a>(&mut self, pieces: impl IntoIterator<Item = (&'static str, &'a str)>, sep: &str) {
        for (label, text) in pieces {
            if text.is_empty() {
                continue;
            }
            if !self.text.is_empty() {
                self.text.push_str(sep);
            }
            if self.parts.last().is_none_or(|(_, l)| *l != label) {
                self.parts.push((self.text.len(), label));
            }
            self.text.push_str(text);
        }
    }
}

/// The library's name of an input format's agent.
pub fn agent_of(format: Format) -> &'static str {
    format.agent().name()
}

/// What reading one file gave: its sessions' rows, and the size and
/// modification time it had when its read began — what was read, so what
/// the manifest keys it by (a file appended to meanwhile differs, and is
/// read again next time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRead {
    pub rows: Vec<SessionRow>,
    pub size: u64,
    pub mtime_ns: i64,
}

/// What reading a file gives the index as it goes.
#[derive(Debug, Clone, PartialEq)]
// Made and handed on one at a time: no array of them to make smaller.
#[allow(clippy::large_enum_variant)]
pub enum Entry {
    /// A searchable entry.
    Doc(Doc),
    /// The entries given so far for this file are stale: drop them. The
    /// file is being read again whole, and each comes again.
    Again,
}

/// The row of a file that holds no session.
pub(crate) fn no_session(agent: &str, path: String, size: u64) -> SessionRow {
    SessionRow {
        agent: agent.to_string(),
        path,
        bytes: size,
        problem: Some("no session in it".into()),
        ..SessionRow::default()
    }
}

/// The row of session `t` of the file at `path`, of `size` bytes;
/// `outline_title` its title read from its records (when it has none of
/// its own).
pub(crate) fn row(
    t: &Transcript,
    outline_title: Option<String>,
    agent: &str,
    path: &str,
    size: u64,
) -> SessionRow {
    let skipped = t.diagnostics().len();
    let problem = t.diagnostics().front().map(|d| {
        let n = if skipped == 1 { "1 line".to_string() } else { format!("{skipped} lines") };
        format!("{n} skipped or repaired (line {}: {})", d.origin.line, d.reason)
    });
    SessionRow {
        agent: agent.to_string(),
        id: t.session_id().map(str::to_string),
        title: t
            .title()
            .and_then(|t| t.lines().next())
            .map(str::to_string)
            .or(outline_title),
        cwd: t.cwd().map(str::to_string).or_else(|| {
            crate::agents::by_name(agent).and_then(|a| a.side_cwd(std::path::Path::new(path)))
        }),
        path: path.to_string(),
        started: t.first_time(),
        ended: t.last_time(),
        calls: t.cards().len(),
        errors: t.error_count(),
        bytes: size,
        problem,
    }
}

/// The searchable entries of item `i` of `t`: its own, if it is one, and
/// for a card whose call started a subagent, the subagent's calls (found
/// as what they are, after the card, and opened at it).
pub(crate) fn docs(t: &Transcript, agent: &str, i: usize) -> Vec<Doc> {
    let mut out = Vec::new();
    let Some(item) = t.items().get(i) else {
        return out;
    };
    let mut doc = Doc {
        agent: agent.to_string(),
        session: t.session_id().map(str::to_string),
        item: i as u64,
        call: None,
        tool: None,
        kind: String::new(),
        text: String::new(),
        paths: Vec::new(),
        error: false,
        time: None,
        parts: Vec::new(),
    };
    let mut nested = None;
    match item {
        Item::User(m) => {
            doc.kind = "prompt".into();
            doc.time = Some(m.time).filter(|&t| t > 0);
            doc.set_pieces([("prompt", item_text(t, item).as_str())], "");
        }
        Item::Assistant(m) => {
            doc.kind = "answer".into();
            doc.time = Some(m.time).filter(|&t| t > 0);
            let blocks: Vec<(&'static str, String)> = m
                .blocks
                .iter()
                .map(|b| {
                    let label = if b.reasoning { "thinking" } else { "answer" };
                    (label, crate::text::sanitize::strip_controls(&b.text))
                })
                .collect();
            doc.set_pieces(blocks.iter().map(|(l, t)| (*l, t.as_str())), "\n\n");
        }
        Item::Tool(c) => {
            let Some(card) = t.cards().get(*c) else {
                return out;
            };
            card_doc(card, &mut doc);
            nested = card.nested.as_ref();
        }
        Item::Prompt(_) | Item::Todo { .. } | Item::Compaction(_) => {
            doc.kind = "note".into();
            doc.set_pieces([("note", item_text(t, item).as_str())], "");
        }
        // A turn that ended in an error: its words and code are found
        // (`kind:error`; `error:true` stays the failed calls').
        Item::Turn(turn) => {
            let Some(end) = turn.end.as_ref().filter(|e| e.reason == "error") else {
                return out;
            };
            doc.kind = "error".into();
            doc.time = Some(turn.time).filter(|&t| t > 0);
            let said = [Some(&end.reason), end.code.as_ref(), end.message.as_ref()];
            let said: Vec<&str> = said.into_iter().flatten().map(String::as_str).collect();
            let said = crate::text::sanitize::strip_controls(&said.join(" "));
            doc.set_pieces([("error", said.as_str())], "");
        }
        Item::Diagnostic(_) | Item::Retry(_) => return out,
    }
    let parent = nested.map(|_| doc.clone());
    if !doc.text.trim().is_empty() {
        out.push(doc);
    }
    if let (Some(n), Some(parent)) = (nested, parent) {
        nested_docs(n.transcript(), &parent, &mut |d| out.push(d));
    }
    out
}

/// `doc` made the entry of `card`.
fn card_doc(card: &ToolCard, doc: &mut Doc) {
    let r = cards::resolve(card);
    doc.kind = r.view.tag().to_string();
    doc.call = Some(card.call_id.clone());
    doc.tool = card.tool.clone();
    doc.error = card.status.is_bad();
    doc.time = card.started.or(card.ended);
    if matches!(doc.kind.as_str(), "diff" | "read") {
        doc.paths.extend(plain::target(card));
    }
    doc.text.clear();
    doc.parts.clear();
    let pieces = plain::plain_parts_of(card, &r);
    doc.set_pieces(pieces.iter().map(|(p, t)| (p.label(), t.as_str())), "\n");
}

/// The entries of the calls of a nested transcript (a subagent's, and
/// those nested in it), each at the entry of the call that started it
/// (`parent`'s item).
fn nested_docs(t: &Transcript, parent: &Doc, out: &mut dyn FnMut(Doc)) {
    for card in t.cards() {
        let mut doc = Doc {
            paths: Vec::new(),
            ..parent.clone()
        };
        card_doc(card, &mut doc);
        if !doc.text.trim().is_empty() {
            out(doc);
        }
        if let Some(n) = &card.nested {
            nested_docs(n.transcript(), parent, out);
        }
    }
}
