//! Presenters for ACP sessions (the records `acp/read.rs` reads
//! from a recording): a call's card comes from the protocol's own words —
//! its `kind`, title, content items and locations — and from what the
//! client answered about it (`meta.acp`: its terminals, the files it
//! names), never from the agent's tool name.
//!
//! | kind | card |
//! |---|---|
//! | execute | terminal: the command the client ran (`terminal/create`), its output and exit as the client saw them (`deck acp`'s `seen` line) or answered them (`terminal/output`, `terminal/wait_for_exit`), absent when unknown; without a terminal, the agent's word: `rawOutput`'s `Exited with code N`, else the call's text as output |
//! | edit, delete, move + diff items | diff: line numbers only where the file's text the client served or wrote places the change (found once), else none |
//! | read | read: the `fs/read_text_file` answer numbered from the line asked for; else the content, unnumbered |
//! | search | search: `path:line:text` lines as matches, else paths (or `locations`) |
//! | fetch | web: a page (a URL in the input or the title) or a search (its links and text) |
//! | think, other, anything else | generic: title, kind, raw input, content |
//!
//! A `failed` call is a generic card with its message, whatever its kind.

mod files;
#[cfg(test)]
mod tests;

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::session::arguments_object as parse;
use crate::session::{self, Presented, Presenters, Settled};
use crate::wire::view::GENERIC_KINDS;
use crate::wire::view::{GenericView, Location, TerminalView, View, WebBody, WebView};

/// The ACP presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Acp;

/// A tool call as the presenter reads it: the merged ACP tool call, and
/// what the client said of it (`meta.acp`, on results).
struct Call<'a> {
    /// Borrowed from the result's meta where it is there (not copied for
    /// each view drawn), else parsed from the arguments.
    state: Cow<'a, Map<String, Value>>,
    acp: Option<&'a Value>,
}

impl Call<'_> {
    fn str(&self, key: &str) -> Option<&str> {
        self.state.get(key).and_then(Value::as_str)
    }

    fn kind(&self) -> &str {
        self.str("kind").unwrap_or("other")
    }

    /// The title, without the backticks or quotes wrapping all of it.
    fn title(&self) -> String {
        let t = self.str("title").unwrap_or_default().trim();
        for q in ['`', '"'] {
            if let Some(inner) = t.strip_prefix(q).and_then(|r| r.strip_suffix(q))
                && !inner.is_empty()
                && !inner.contains(q)
            {
                return inner.to_string();
            }
        }
        t.to_string()
    }

    /// Content items of `type`.
    fn items(&self, ty: &str) -> Vec<&Value> {
        self.state
            .get("content")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter(|i| i.get("type").and_then(Value::as_str) == Some(ty))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The text of the content blocks (a fence around all of it removed).
    fn text(&self) -> String {
        let texts: Vec<&str> = self
            .items("content")
            .into_iter()
            .filter_map(|i| i.pointer("/content/text").and_then(Value::as_str))
            .collect();
        unfence(&texts.join("\n")).to_string()
    }

    /// `rawOutput` as text: a string, or its text blocks joined.
    fn raw_output(&self) -> Option<String> {
        match self.state.get("rawOutput")? {
            Value::String(s) => Some(s.clone()),
            Value::Array(blocks) => {
                let t: Vec<&str> = blocks
                    .iter()
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect();
                (!t.is_empty()).then(|| t.join("\n"))
            }
            _ => None,
        }
    }

    fn locations(&self) -> Vec<Location> {
        self.state
            .get("locations")
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|x| x.get("path").and_then(Value::as_str))
                    .map(|p| Location::new(p, None))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What the client said of a file the call names (`{read, written}`).
    fn file(&self, path: &str) -> Option<&Value> {
        self.acp?.get("files")?.get(path)
    }
}

/// The text inside a markdown fence that wraps all of it.
fn unfence(text: &str) -> &str {
    let t = text.trim();
    let ticks = t.bytes().take_while(|b| *b == b'`').count();
    if ticks < 3 {
        return text;
    }
    let fence = &t[..ticks];
    match t[ticks..].split_once('\n') {
        Some((_lang, rest)) if rest.trim_end().ends_with(fence) => {
            let body = rest.trim_end();
            body[..body.len() - ticks].strip_suffix('\n').unwrap_or(&body[..body.len() - ticks])
        }
        _ => text,
    }
}

impl Presenters for Acp {
    fn call_view(&self, call: session::Call<'_>) -> Option<View> {
        let call = Call {
            state: Cow::Owned(parse(call.arguments)),
            acp: None,
        };
        let title = call.title();
        Some(match call.kind() {
            "execute" => View::Terminal(TerminalView {
                title: Some(title),
                ..TerminalView::default()
            }),
            "edit" | "delete" | "move" if !call.items("diff").is_empty() => files::diff(&call),
            "fetch" => match files::url(&call) {
                Some(url) => WebView::new(
                    Some(title),
                    WebBody::Fetch {
                        url,
                        status_code: None,
                    },
                )
                .into(),
                None => generic(&call, None),
            },
            _ => generic(&call, None),
        })
    }

    fn result_view(&self, settled: &Settled<'_>) -> Option<Presented> {
        result(settled).map(Presented::View)
    }
}

/// The view of a settled call's result.
fn result(s: &Settled<'_>) -> Option<View> {
    let acp = s.meta.and_then(|m| m.get("acp"));
    let state = match acp.and_then(|a| a.get("toolCall")) {
        Some(Value::Object(state)) => Cow::Borrowed(state),
        _ => Cow::Owned(parse(s.arguments)),
    };
    let call = Call { state, acp };
    let text = {
        let t = call.text();
        if t.is_empty() {
            unfence(&crate::session::text_of(s.content)).to_string()
        } else {
            t
        }
    };
    if s.is_error {
        let message = if text.is_empty() {
            call.raw_output().unwrap_or_default()
        } else {
            text
        };
        let view = GenericView::new(call.title(), generic_kind(call.kind()));
        return Some(view.with_text(message).into());
    }
    Some(match call.kind() {
        "execute" => terminal(&call, &text),
        "edit" | "delete" | "move" if !call.items("diff").is_empty() => files::diff(&call),
        "read" => files::read(&call, &text),
        "search" => files::search(&call, &text).unwrap_or_else(|| generic(&call, Some(&text))),
        "fetch" => files::web(&call, &text),
        _ => generic(&call, Some(&text)),
    })
}

/// The kind as a generic card's glyph hint (one the protocol names).
fn generic_kind(kind: &str) -> &str {
    if GENERIC_KINDS.contains(&kind) {
        kind
    } else {
        "other"
    }
}

/// Title, kind, raw input and (on results) the call's text.
fn generic(call: &Call, text: Option<&str>) -> View {
    let mut view = GenericView {
        raw_input: call.state.get("rawInput").filter(|v| !v.is_null()).cloned(),
        locations: call.locations(),
        ..GenericView::new(call.title(), generic_kind(call.kind()))
    };
    let text = text.map(str::to_string).unwrap_or_else(|| call.text());
    if !text.is_empty() {
        view = view.with_text(text);
    }
    view.into()
}

/// The terminal card of an `execute` call.
fn terminal(call: &Call, text: &str) -> View {
    let mut view = TerminalView::default();
    let title = call.title();
    let term = call
        .acp
        .and_then(|a| a.get("terminals"))
        .and_then(Value::as_array)
        .and_then(|t| t.first());
    let field = |k: &str| term.and_then(|t| t.get(k));
    let command = field("command").and_then(Value::as_str).map(|c| {
        let args: Vec<&str> = field("args")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        std::iter::once(c).chain(args).collect::<Vec<_>>().join(" ")
    });
    match command {
        Some(c) => {
            if title != c && !title.is_empty() {
                view.description = Some(title);
            }
            view.title = Some(c);
        }
        None => view.title = Some(title),
    }
    view.cwd = field("cwd").and_then(Value::as_str).map(str::to_string);
    // A terminal the client ran: its output and exit are what the client
    // saw (or answered), never the agent's word; unknown, they are absent.
    // A call run by the agent itself has only the agent's word.
    let raw = match term {
        Some(_) => None,
        None => call.raw_output().map(|r| exited(&r)),
    };
    let output = match term {
        Some(_) => field("output").and_then(Value::as_str).unwrap_or_default().to_string(),
        None => raw.as_ref().map_or_else(|| text.to_string(), |r| r.1.clone()),
    };
    view.output = Some(output);
    let status = field("exitStatus");
    let code = status
        .and_then(|s| s.get("exitCode"))
        .and_then(Value::as_i64)
        .or(raw.and_then(|r| r.0));
    let signal = status.and_then(|s| s.get("signal")).and_then(Value::as_str);
    if let Some(s) = signal {
        view.signal = Some(s.into());
    } else {
        view.exit_code = code;
    }
    View::Terminal(view)
}

/// `Exited with code N.Final output:\n\n…` (Claude Code's adapter): the
/// code and the output; any other text is all output.
fn exited(raw: &str) -> (Option<i64>, String) {
    let Some(rest) = raw.strip_prefix("Exited with code ") else {
        return (None, raw.to_string());
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
    let code = digits.parse().ok();
    let output = rest
        .split_once("Final output:\n\n")
        .map_or(String::new(), |(_, o)| o.to_string());
    (code, output)
}
