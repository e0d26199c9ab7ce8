//! The discovery-tool presenters: `grep` and `glob` (DSH's `dsh-tool-fs-search`).
//!
//! * Call: a `generic` `search` card titled `Grep <pattern>[ in <path>][
//!   (<include>)]` / `Glob <pattern>[ in <path>]`, with the pattern as
//!   `rawInput`.
//! * Result: the `search` card persisted in `meta` — `shape: "matches"`
//!   (files grouped with their matched lines) for grep, `shape: "paths"` for
//!   glob — with `truncated` and `total`, and no title of its own. No view on
//!   error, or when the meta is malformed or of the other tool's shape.

use serde_json::Value;

use super::schema::{Ty, opt, req};
use super::{Args, Outcome, Presenter, arg_str, record, typed};
use crate::wire::view::{GenericView, SearchBody, SearchView, View};

pub(super) static GREP: Presenter = Presenter {
    params: &[
        req("pattern", Ty::Str),
        opt("path", Ty::Str),
        opt("include", Ty::Str),
    ],
    call: grep_call,
    result: Some(grep_result),
};

pub(super) static GLOB: Presenter = Presenter {
    params: &[req("pattern", Ty::Str), opt("path", Ty::Str)],
    call: glob_call,
    result: Some(glob_result),
};

fn grep_call(args: &Args) -> Option<View> {
    let filter = arg_str(args, "include")
        .map(|i| format!(" ({i})"))
        .unwrap_or_default();
    search_call("Grep", args, &filter)
}

fn glob_call(args: &Args) -> Option<View> {
    search_call("Glob", args, "")
}

fn search_call(verb: &str, args: &Args, filter: &str) -> Option<View> {
    let pattern = arg_str(args, "pattern").unwrap_or_default();
    let place = arg_str(args, "path")
        .map(|p| format!(" in {p}"))
        .unwrap_or_default();
    Some(View::Generic(GenericView {
        title: Some(format!("{verb} {pattern}{place}{filter}")),
        kind: Some("search".into()),
        raw_input: Some(pattern.into()),
        ..GenericView::default()
    }))
}

fn grep_result(_args: &Args, result: &Outcome) -> Option<View> {
    search_result(result, Shape::Matches)
}

fn glob_result(_args: &Args, result: &Outcome) -> Option<View> {
    search_result(result, Shape::Paths)
}

#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Matches,
    Paths,
}

fn search_result(result: &Outcome, want: Shape) -> Option<View> {
    if result.is_error {
        return None;
    }
    let (shape, view) = search_view_from_meta(result.meta)?;
    (shape == want).then_some(view)
}

/// DSH's `searchViewFromMeta`: the search card the tool persisted, when well
/// formed (and, typed, one a card reads: whole counts and line numbers).
fn search_view_from_meta(meta: Option<&Value>) -> Option<(Shape, View)> {
    let meta = record(meta)?;
    let truncated = meta.get("truncated").and_then(Value::as_bool)?;
    let total = meta.get("total").filter(|t| t.is_number())?.as_u64()?;
    let (shape, body) = match meta.get("shape").and_then(Value::as_str) {
        Some("matches") => {
            let files = meta
                .get("files")
                .filter(|f| all_items(f, is_file_matches))?;
            (Shape::Matches, SearchBody::Matches(typed(files)?))
        }
        Some("paths") => {
            let paths = meta
                .get("paths")
                .filter(|p| all_items(p, Value::is_string))?;
            (Shape::Paths, SearchBody::Paths(typed(paths)?))
        }
        _ => return None,
    };
    let mut view = SearchView::new(None, body);
    view.truncated = truncated;
    view.total = total;
    Some((shape, View::Search(view)))
}

/// Whether `value` is an array whose every item passes `check`.
fn all_items(value: &Value, check: fn(&Value) -> bool) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(check))
}

/// `{path: string, matches: [{lineNumber: number, line: string}]}`.
fn is_file_matches(value: &Value) -> bool {
    value.as_object().is_some_and(|group| {
        group.get("path").is_some_and(Value::is_string)
            && group
                .get("matches")
                .is_some_and(|m| all_items(m, is_line_match))
    })
}

fn is_line_match(value: &Value) -> bool {
    value.as_object().is_some_and(|m| {
        m.get("lineNumber").is_some_and(Value::is_number)
            && m.get("line").is_some_and(Value::is_string)
    })
}
