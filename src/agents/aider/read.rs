//! aider's chat history (`.aider.chat.history.md`) read into DSH-shaped
//! records, one line at a time (each a JSON string: `Agent::text_lines`).
//! The file is markdown that aider appends to (`aider/io.py`), read the
//! way aider reads it back (`utils.split_chat_history_markdown`):
//!
//! * `# aider chat started at YYYY-MM-DD HH:MM:SS` — a run starts (local
//!   time, no zone: not taken as a time; the first names the session);
//! * `#### text` — what the user typed (a multi-line input is one `#### `
//!   line each): a prompt, a turn; `/run CMD`, `!CMD` and `/test CMD` are
//!   also a command (a call of tool `run` / `test`);
//! * `> text` — aider's own messages: before a run's first input its
//!   banner (`Aider v…`, `Model: …`: the header), after it the results of
//!   what the answer or command did (`Applied edit to P`, `Added N lines of
//!   output to the chat.`, `Tokens: … sent, … received.`), and the rest
//!   (questions it answered itself, commits, warnings), kept as a quote;
//! * anything else — the model's answer, as it came. Its SEARCH/REPLACE
//!   blocks (`<<<<<<< SEARCH` … `=======` … `>>>>>>> REPLACE`, the file
//!   named on a line before) are calls of tool `edit`.
//!
//! What this reader decides: a call's id is `L<line>` (its `<<<<<<<
//! SEARCH` or `####` line's number: the file names none); an edit is `ok`
//! when `Applied edit to` its file follows, an error when aider says the
//! block failed to match, else its outcome is unknown; a command's output
//! and exit code are never in the file (its result says how many lines of
//! output went to the chat), so a `/run` ends `unknown`, and a `/test`
//! whose output was added failed (aider adds it only on a non-zero exit),
//! else `unknown`; an edit whose file aider asked to create (`> P` then
//! `> Create new file? … y`) says so (`meta.created`). Times are unknown (0). Token counts are taken when
//! exact (`236`, not `2.6k`).

use serde_json::{Map, Value};

use crate::agents::read::{Out, Translate};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{AssistantMessage, ContentBlock, Json, MessageContent, PartContent, ResultPart, ToolCall, ToolResult};
use crate::wire::{EventKind, Origin};

mod answer;

use answer::{Piece, pieces};

/// `# aider chat started at TIME`: TIME.
pub fn run_started(line: &str) -> Option<&str> {
    line.strip_prefix("# aider chat started at ").map(str::trim)
}

/// Reads one history file's lines, in order, into records.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs, turns and usage.
    w: Turns,
    /// Runs started so far.
    runs: u64,
    /// The current run's first input was seen (its banner is over).
    input_seen: bool,
    /// The answer being read: its lines and where each was.
    answer: Vec<(String, Origin)>,
    /// The prompt being read (a multi-line input), and where it began.
    prompt: Option<(Vec<String>, Origin)>,
    /// The line number the prompt's next line would have.
    prompt_next: usize,
    /// Calls of the current exchange waiting for their result.
    pending: Vec<Pending>,
    /// aider's messages since the last answer or input, kept as a quote.
    said: Vec<String>,
    said_at: Origin,
}

/// A call waiting for what aider says of it.
#[derive(Debug)]
struct Pending {
    id: String,
    tool: &'static str,
    /// An edit's file.
    path: Option<String>,
    step: u64,
    /// Lines of a command's output added to the chat.
    output_lines: Option<u64>,
    /// aider asked to create the edit's file, and the answer was yes.
    created: bool,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            runs: 0,
            input_seen: false,
            answer: Vec::new(),
            prompt: None,
            prompt_next: 0,
            pending: Vec::new(),
            said: Vec::new(),
            said_at: Origin::default(),
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let Some(line) = v.as_str() else {
            self.w.diagnostic("not a line of aider's chat history".into(), v, origin, out);
            return;
        };
        let line = line.trim_end_matches('\r');
        if let Some(time) = run_started(line) {
            self.close(origin, out);
            if self.w.turn_open {
                self.w.end_turn(origin, out);
            }
            self.runs += 1;
            self.input_seen = false;
            if self.runs == 1 {
                let id = format!("aider-{}", time.replace(['-', ':'], "").replace(' ', "-"));
                self.w.session = Some(id.clone());
                self.w.learn("id", Value::from(id));
            }
            return;
        }
        if self.runs == 0 {
            if !line.trim().is_empty() {
                let reason = "a line before the first `# aider chat started at`".to_string();
                self.w.diagnostic(reason, v, origin, out);
            }
            return;
        }
        if let Some(text) = line.strip_prefix("#### ") {
            self.end_answer(out);
            self.flush_said(out);
            let text = text.strip_suffix("  ").unwrap_or(text).to_string();
            match &mut self.prompt {
                Some((lines, _)) if origin.line == self.prompt_next => lines.push(text),
                _ => {
                    self.close(origin, out);
                    self.prompt = Some((vec![text], origin));
                }
            }
            self.prompt_next = origin.line + 1;
            self.input_seen = true;
            return;
        }
        self.end_prompt(out);
        if let Some(text) = line.strip_prefix("> ").or((line == ">").then_some("")) {
            self.end_answer(out);
            self.aider_said(text.trim_end(), origin, out);
            return;
        }
        if self.answer.is_empty() && line.trim().is_empty() {
            return;
        }
        self.flush_said(out);
        self.answer.push((line.to_string(), origin));
    }

    fn finish(&mut self, out: &mut Out) {
        self.end_prompt(out);
        self.end_answer(out);
        self.close(Origin::default(), out);
        if self.w.turn_open {
            self.w.end_turn(Origin::default(), out);
        }
        self.w.finish(out);
    }
}

impl Reader {
    /// The prompt read so far, whole: a turn, and a command's call.
    fn end_prompt(&mut self, out: &mut Out) {
        let Some((lines, origin)) = self.prompt.take() else {
            return;
        };
        let text = lines.join("\n");
        let text = if text == "<blank>" { String::new() } else { text };
        self.w.prompt(text.clone(), origin, out);
        let command = match text.split_once(' ') {
            Some(("/run", cmd)) => Some(("run", cmd)),
            Some(("/test", cmd)) => Some(("test", cmd)),
            _ => text.strip_prefix('!').map(|cmd| ("run", cmd)),
        };
        if let Some((tool, cmd)) = command.filter(|(_, c)| !c.trim().is_empty()) {
            let args = Map::from_iter([("command".to_string(), Value::from(cmd.trim()))]);
            self.call(tool, format!("L{}", origin.line), None, Value::Object(args), origin, out);
        }
    }

    /// A call of `tool` with its arguments, waiting for its result.
    fn call(&mut self, tool: &'static str, id: String, path: Option<String>, args: Value, origin: Origin, out: &mut Out) {
        let data = ToolCall {
            turn: Some(self.w.turn),
            step: Some(self.w.step),
            call_id: Some(id.clone()),
            name: Some(tool.to_string()),
            arguments: Some(Value::String(args.to_string())),
        };
        self.w.emit(EventKind::ToolCall, data, origin, out);
        self.pending.push(Pending {
            id,
            tool,
            path,
            step: self.w.step,
            output_lines: None,
            created: false,
        });
    }

    /// The answer read so far, whole: its text and its edits, in order.
    fn end_answer(&mut self, out: &mut Out) {
        if self.answer.is_empty() {
            return;
        }
        let lines = std::mem::take(&mut self.answer);
        if !self.w.turn_open {
            self.w.start_turn(lines[0].1, out);
        }
        self.w.step += 1;
        for piece in pieces(&lines) {
            match piece {
                Piece::Text(text, origin) => self.text(vec![turns::block("text", text)], origin, out),
                Piece::Edit {
                    path,
                    search,
                    replace,
                    origin,
                } => {
                    let args = Map::from_iter([
                        ("path".to_string(), path.clone().map_or(Value::Null, Value::from)),
                        ("search".to_string(), Value::from(search)),
                        ("replace".to_string(), Value::from(replace)),
                    ]);
                    let id = format!("L{}", origin.line);
                    self.call("edit", id, path, Value::Object(args), origin, out);
                }
            }
        }
    }

    /// An assistant message of `blocks`.
    fn text(&mut self, blocks: Vec<ContentBlock>, origin: Origin, out: &mut Out) {
        let data = AssistantMessage {
            turn: Some(self.w.turn),
            step: Some(self.w.step),
            message: Some(MessageContent {
                content: Some(blocks.into_iter().map(Some).collect()),
                ..MessageContent::default()
            }),
            ..AssistantMessage::default()
        };
        self.w.emit(EventKind::AssistantMessage, data, origin, out);
    }

    /// One of aider's own messages.
    fn aider_said(&mut self, text: &str, origin: Origin, out: &mut Out) {
        if !self.input_seen {
            self.banner(text);
            return;
        }
        if let Some(path) = text.strip_prefix("Applied edit to ") {
            let at = self.pending.iter().position(|p| p.tool == "edit" && p.path.as_deref() == Some(path));
            if let Some(p) = at.map(|i| self.pending.remove(i)) {
                self.settle(p, Some(false), text, origin, out);
                return;
            }
        }
        if ["failed to exactly match", "did not conform", "SearchReplaceNoExactMatch"]
            .iter()
            .any(|f| text.contains(f))
        {
            let (edits, rest) = std::mem::take(&mut self.pending).into_iter().partition(|p| p.tool == "edit");
            self.pending = rest;
            let edits: Vec<Pending> = edits;
            if !edits.is_empty() {
                for p in edits {
                    self.settle(p, Some(true), text, origin, out);
                }
                return;
            }
        }
        if let Some(n) = added_lines(text)
            && let Some(i) = self.pending.iter().position(|p| p.tool != "edit")
        {
            let mut p = self.pending.remove(i);
            p.output_lines = Some(n);
            // A test's output is added only when it exited non-zero.
            let failed = (p.tool == "test").then_some(true);
            self.settle(p, failed, text, origin, out);
            return;
        }
        // `> path` then `> Create new file? (Y)es/(N)o [Yes]: y`.
        if text.starts_with("Create new file?")
            && text.ends_with(": y")
            && let Some(path) = self.said.last()
            && let Some(p) = self.pending.iter_mut().find(|p| p.tool == "edit" && p.path.as_ref() == Some(path))
        {
            p.created = true;
        }
        if let Some(counts) = tokens(text) {
            self.w.count(counts);
            return;
        }
        if self.said.is_empty() {
            self.said_at = origin;
        }
        self.said.push(text.to_string());
    }

    /// A run's banner: the version and the model.
    fn banner(&mut self, text: &str) {
        if let Some(v) = text.strip_prefix("Aider v")
            && !self.w.knows("version", v)
        {
            self.w.learn("version", Value::from(v));
        }
        if let Some(m) = text.strip_prefix("Model: ") {
            let model = m.split_once(" with ").map_or(m, |(model, _)| model);
            if !self.w.knows("model", model) {
                self.w.learn("model", Value::from(model));
            }
        }
    }

    /// aider's messages kept so far, as a quote.
    fn flush_said(&mut self, out: &mut Out) {
        if self.said.is_empty() {
            return;
        }
        let said = std::mem::take(&mut self.said);
        if !self.w.turn_open {
            self.w.start_turn(self.said_at, out);
        }
        let quote: Vec<String> = said.iter().map(|l| format!("> {l}")).collect();
        let origin = self.said_at;
        self.text(vec![turns::block("text", quote.join("  \n"))], origin, out);
    }

    /// The exchange is over: what is still waiting ends, unknown how.
    fn close(&mut self, origin: Origin, out: &mut Out) {
        self.end_prompt(out);
        self.end_answer(out);
        for p in std::mem::take(&mut self.pending) {
            self.settle(p, None, "", origin, out);
        }
        self.flush_said(out);
    }

    /// A call's result: `Some(is_error)`, or `None` when the file does not
    /// say how it ended; `text` is what aider said of it.
    fn settle(&mut self, p: Pending, is_error: Option<bool>, text: &str, origin: Origin, out: &mut Out) {
        let part = ResultPart::answering(&p.id, PartContent::Text(text.to_string().into()), is_error == Some(true));
        let mut data = ToolResult::of(self.w.turn, p.step, part);
        if is_error.is_none() {
            data.outcome = Some("unknown".into());
        }
        let mut meta = Map::new();
        if let Some(n) = p.output_lines {
            meta.insert("outputLines".into(), Value::from(n));
        }
        if p.created {
            meta.insert("created".into(), Value::Bool(true));
        }
        if !meta.is_empty() {
            data.meta = Some(Json::Tree(Value::Object(meta)));
        }
        self.w.emit(EventKind::ToolResult, data, origin, out);
    }
}

/// `Added N line(s) of output to the chat.`: N.
fn added_lines(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("Added ")?;
    let (n, rest) = rest.split_once(' ')?;
    matches!(rest, "line of output to the chat." | "lines of output to the chat.").then(|| n.parse().ok())?
}

/// `Tokens: 2.6k sent, 236 received.` (and cache counts, a cost after):
/// the input and output counts when exact.
fn tokens(text: &str) -> Option<[Option<u64>; 4]> {
    let rest = text.strip_prefix("Tokens: ")?;
    let rest = rest.split(". ").next().unwrap_or(rest).trim_end_matches('.');
    let (mut sent, mut received) = (None, None);
    for part in rest.split(", ") {
        match part.split_once(' ') {
            Some((n, "sent")) => sent = n.parse().ok(),
            Some((n, "received")) => received = n.parse().ok(),
            _ => {}
        }
    }
    Some([sent, received, None, None])
}

#[cfg(test)]
pub(crate) mod tests;
