//! One session file read for the library: loaded and folded exactly as
//! `deck view` folds it (same loader, same reducer, same presenters), into
//! a [`SessionRow`] per session it holds — agent, title, cwd, times,
//! calls, errors, size, and its problem if it has one — and a [`Doc`] per
//! searchable entry: each prompt, answer and tool card as the plain text
//! deck shows (so a match found here is on the card it opens at), with the
//! card's tool, tag, paths and outcome for the filters. A file that cannot
//! be read is still a row, with its problem, and no docs.

use serde::{Deserialize, Serialize};

use super::discover::Found;
use crate::cards::{self, item::item_text, plain};
use crate::session::{Item, Outline, ToolCard, Transcript};
use crate::source::{self, Format};

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
}

/// The library's name of an input format's agent.
pub fn agent_of(format: Format) -> &'static str {
    match format {
        Format::ClaudeCode => "claude-code",
        Format::Codex => "codex",
        Format::Acp => "acp",
        _ => "dsh",
    }
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

/// Read `found` up to the size it has when its read begins (what a writer
/// appends meanwhile is not chased): its sessions' rows, each searchable
/// entry handed to `doc` as it is made (not all held at once).
pub fn read(found: &Found, doc: &mut dyn FnMut(Doc)) -> FileRead {
    let path = found.path.to_string_lossy().into_owned();
    let opened = std::fs::File::open(&found.path).and_then(|f| Ok((f.metadata()?, f)));
    let (loaded, size, mtime_ns) = match opened {
        Ok((meta, f)) => (
            source::load_file_upto(&path, f, meta.len()),
            meta.len(),
            super::discover::mtime_ns(&meta),
        ),
        Err(source) => (
            Err(source::LoadError::Io {
                path: path.clone(),
                source,
            }),
            found.size,
            found.mtime_ns,
        ),
    };
    let rows = match loaded {
        Ok(l) => rows(l, path, size, doc),
        Err(e) => vec![SessionRow {
            agent: found.agent.unwrap_or("unknown").to_string(),
            path,
            bytes: size,
            problem: Some(e.to_string()),
            ..SessionRow::default()
        }],
    };
    FileRead {
        rows,
        size,
        mtime_ns,
    }
}

/// The rows of what was loaded of a file of `size` bytes, its entries to
/// `doc`.
fn rows(
    loaded: source::Loaded,
    path: String,
    size: u64,
    doc: &mut dyn FnMut(Doc),
) -> Vec<SessionRow> {
    let agent = agent_of(loaded.format);
    let mut rows = Vec::new();
    let none = loaded.sessions.is_empty();
    // One session at a time, its records given to the fold (each dropped
    // once folded): the records and the transcript they make are never
    // both held whole, nor the sessions done.
    for s in loaded.sessions {
        let outline = Outline::of(&s.records);
        let t = Transcript::from_records(s.id.clone(), s.records, crate::present::stock());
        let errors = t.error_count();
        let skipped = t.diagnostics().len();
        let problem = t.diagnostics().front().map(|d| {
            let n = if skipped == 1 { "1 line".to_string() } else { format!("{skipped} lines") };
            format!("{n} skipped or repaired (line {}: {})", d.origin.line, d.reason)
        });
        rows.push(SessionRow {
            agent: agent.to_string(),
            id: s.id.clone(),
            title: t
                .title()
                .and_then(|t| t.lines().next())
                .map(str::to_string)
                .or(outline.title),
            cwd: t.cwd().map(str::to_string),
            path: path.clone(),
            started: t.first_time(),
            ended: t.last_time(),
            calls: t.cards().len(),
            errors,
            bytes: size,
            problem,
        });
        docs(&t, agent, doc);
    }
    if none {
        rows.push(SessionRow {
            agent: agent.to_string(),
            path,
            bytes: size,
            problem: Some("no session in it".into()),
            ..SessionRow::default()
        });
    }
    rows
}

/// The searchable entries of `t`.
fn docs(t: &Transcript, agent: &str, out: &mut dyn FnMut(Doc)) {
    let session = t.session_id().map(str::to_string);
    for (i, item) in t.items().iter().enumerate() {
        let mut doc = Doc {
            agent: agent.to_string(),
            session: session.clone(),
            item: i as u64,
            call: None,
            tool: None,
            kind: String::new(),
            text: String::new(),
            paths: Vec::new(),
            error: false,
            time: None,
        };
        match item {
            Item::User(m) => {
                doc.kind = "prompt".into();
                doc.time = Some(m.time).filter(|&t| t > 0);
                doc.text = item_text(t, item);
            }
            Item::Assistant(m) => {
                doc.kind = "answer".into();
                doc.time = Some(m.time).filter(|&t| t > 0);
                doc.text = item_text(t, item);
            }
            Item::Tool(c) => {
                let Some(card) = t.cards().get(*c) else { continue };
                card_doc(card, &mut doc);
            }
            Item::Prompt(_) | Item::Todo { .. } | Item::Compaction(_) => {
                doc.kind = "note".into();
                doc.text = item_text(t, item);
            }
            Item::Turn(_) | Item::Diagnostic(_) | Item::Retry(_) => continue,
        }
        // A subagent's calls are found as what they are, after the call
        // that started it, and open at it.
        let nested = match item {
            Item::Tool(c) => t.cards().get(*c).and_then(|c| c.nested.as_ref()),
            _ => None,
        };
        let parent = nested.map(|_| doc.clone());
        if !doc.text.trim().is_empty() {
            out(doc);
        }
        if let (Some(n), Some(parent)) = (nested, parent) {
            nested_docs(n.transcript(), &parent, out);
        }
    }
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
    doc.text = plain::plain_text_of(card, &r);
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
