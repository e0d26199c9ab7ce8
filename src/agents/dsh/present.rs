//! Built-in presenters for DSH's stock tools (`agents::Stock` gives them to
//! every transcript, and the other agents' to their sessions). Only
//! `agents/<name>/` names that agent's tools: DSH's are named here.
//!
//! Used when a frame carries no view (session logs, old hosts). Each presenter
//! is a pure function of (tool name, arguments, result content, isError, meta)
//! returning, typed, the view the host would have sent, or `None` where the
//! host sends none — or where the host would send one that no card reads (a
//! number where the protocol wants an integer, from arguments the model got
//! wrong): there the host's view falls back to the generic card, and so does
//! the lack of one.
//!
//! The host's dispatch (`viewFor` in DSH's api-proxy, `defineTool` in
//! dsh-tools) is mirrored here: the raw arguments are `JSON.parse`d, softly
//! validated against the tool's parameter schema (a parse failure or any
//! violation means no view, never an error), and only then handed to the
//! tool's own presenter. A tool the host does not know, or one without a
//! presenter for that phase, gets no view.
//!
//! This file owns the dispatch table; `schema` owns parsing and validation,
//! `js` the JavaScript number semantics, and `shell`, `fs`, `search`, `web`
//! and `todo` the per-tool presenters.

mod fs;
mod js;
mod schema;
mod search;
mod shell;
mod todo;
mod web;

#[cfg(test)]
mod tests;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::session::Args;
use crate::session::{Call, CallRole, Settled};
use crate::wire::View;

use schema::Param;

/// A settled call as a result presenter sees it (DSH's `ToolResult`).
struct Outcome<'a> {
    content: &'a [Value],
    is_error: bool,
    meta: Option<&'a Value>,
}

/// One stock tool's presenters, as registered with the host.
struct Presenter {
    /// The tool's parameter schema (the implicit, open root object).
    params: &'static [Param],
    /// `presentCall`: every stock tool here has one (it answers but for a
    /// view no card reads).
    call: fn(&Args) -> Option<View>,
    /// `presentResult`, when the tool declares one.
    result: Option<fn(&Args, &Outcome) -> Option<View>>,
}

/// The stock tools and their presenters.
static PRESENTERS: &[(&str, &Presenter)] = &[
    ("bash", &shell::BASH),
    ("read", &fs::READ),
    ("write", &fs::WRITE),
    ("edit", &fs::EDIT),
    ("grep", &search::GREP),
    ("glob", &search::GLOB),
    ("web_search", &web::WEB_SEARCH),
    ("web_fetch", &web::WEB_FETCH),
    ("todo_write", &todo::TODO_WRITE),
];

/// The stock tools that speak to the person rather than run: their calls
/// are drawn as the question they ask or the plan they write.
static ROLES: &[(&str, CallRole)] = &[
    ("ask_user_question", CallRole::Asks),
    ("todo_write", CallRole::Plans),
];

/// What a call of stock tool `tool` is to the person ([`CallRole`]).
pub fn role(tool: &str) -> CallRole {
    ROLES
        .iter()
        .find(|(name, _)| *name == tool)
        .map_or(CallRole::Tool, |(_, r)| *r)
}

#[cfg(any(test, feature = "internals"))]
/// The names of the stock tools deck has presenters for.
pub fn stock_tools() -> impl Iterator<Item = &'static str> {
    PRESENTERS.iter().map(|(name, _)| *name)
}

/// The presenter of a stock tool, by tool name.
fn presenter(tool: &str) -> Option<&'static Presenter> {
    PRESENTERS
        .iter()
        .find(|(name, _)| *name == tool)
        .map(|(_, p)| *p)
}

/// The call view of a call of a stock tool.
pub fn call_view(call: Call<'_>) -> Option<View> {
    let presenter = presenter(call.tool)?;
    let args = schema::parse(call.arguments, presenter.params)?;
    (presenter.call)(&args)
}

/// The result view for a settled call.
pub fn result_view(s: &Settled<'_>) -> Option<View> {
    let presenter = presenter(s.tool)?;
    let present = presenter.result?;
    let args = schema::parse(s.arguments, presenter.params)?;
    present(
        &args,
        &Outcome {
            content: s.content,
            is_error: s.is_error,
            meta: s.meta,
        },
    )
}

/// A string argument (present after validation when the schema requires it).
fn arg_str<'a>(args: &'a Args, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

/// The one content block of a result, when it has exactly one (`content.length === 1`).
fn single_block(content: &[Value]) -> Option<&Value> {
    match content {
        [block] => Some(block),
        _ => None,
    }
}

/// Whether a content block is tagged `type: "text"`.
fn is_text_block(block: &Value) -> bool {
    block.get("type").and_then(Value::as_str) == Some("text")
}

/// A plain JSON object (JS: `typeof v === 'object' && v !== null && !Array.isArray(v)`).
fn record(value: Option<&Value>) -> Option<&Map<String, Value>> {
    value.and_then(Value::as_object)
}

/// JS `typeof field === 'string' || field === undefined` on an object field.
fn absent_or_str(map: &Map<String, Value>, key: &str) -> bool {
    map.get(key).is_none_or(Value::is_string)
}

/// A piece of the host's view passed through from what the tool persisted,
/// typed as a card reads it (`None`: no card would read it).
fn typed<T: DeserializeOwned>(value: &Value) -> Option<T> {
    T::deserialize(value).ok()
}
