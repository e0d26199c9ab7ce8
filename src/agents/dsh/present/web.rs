//! The web-tool presenters: `web_search` and `web_fetch` (DSH's `dsh-tool-web`).
//!
//! * `web_search` call: a `generic` `search` card titled (and `rawInput`) the
//!   queries joined by `, `. Result: a `web` `search` card with that title,
//!   the structured `sources` and `truncated` from `meta`, and `answer` when
//!   the meta has one. No view on error (e.g. `WEB_PROVIDER_ERROR`) or
//!   malformed meta.
//! * `web_fetch` call: a `generic` `fetch` card titled (and `rawInput`) the
//!   URL. Result: a `web` `fetch` card (`url`, `statusCode`, `truncated` from
//!   `meta`, titled by the requested URL); no view on error — which is every
//!   fetch of a host without a fetch provider (`WEB_PROVIDER_UNAVAILABLE`).

use serde_json::Value;

use super::schema::{Ty, req};
use super::{Args, Outcome, Presenter, absent_or_str, arg_str, record, typed};
use crate::wire::view::{GenericView, View, WebBody, WebView};

pub(super) static WEB_SEARCH: Presenter = Presenter {
    params: &[req("queries", Ty::List(&Ty::Str))],
    call: search_call,
    result: Some(search_result),
};

pub(super) static WEB_FETCH: Presenter = Presenter {
    params: &[req("url", Ty::Str)],
    call: fetch_call,
    result: Some(fetch_result),
};

/// `args.queries.join(', ')`.
fn queries_title(args: &Args) -> String {
    let queries = args
        .get("queries")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    queries
        .iter()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A `generic` call card titled `title` with it as input too.
fn call(title: String, kind: &str) -> Option<View> {
    Some(View::Generic(GenericView {
        raw_input: Some(title.clone().into()),
        title: Some(title),
        kind: Some(kind.into()),
        ..GenericView::default()
    }))
}

fn search_call(args: &Args) -> Option<View> {
    call(queries_title(args), "search")
}

fn search_result(args: &Args, result: &Outcome) -> Option<View> {
    if result.is_error {
        return None;
    }
    let meta = record(result.meta)?;
    let sources = meta
        .get("sources")
        .filter(|s| s.as_array().is_some_and(|s| s.iter().all(is_web_source)))?;
    let truncated = meta.get("truncated").and_then(Value::as_bool)?;
    if !absent_or_str(meta, "answer") {
        return None;
    }
    let body = WebBody::Search {
        sources: typed(sources)?,
        answer: meta.get("answer").and_then(Value::as_str).map(str::to_string),
        failures: Vec::new(),
    };
    let mut view = WebView::new(Some(queries_title(args)), body);
    view.truncated = truncated;
    Some(View::Web(view))
}

/// `{url: string, title?: string, snippet?: string, publishedAt?: string}`.
fn is_web_source(value: &Value) -> bool {
    value.as_object().is_some_and(|source| {
        source.get("url").is_some_and(Value::is_string)
            && ["title", "snippet", "publishedAt"]
                .iter()
                .all(|key| absent_or_str(source, key))
    })
}

fn fetch_call(args: &Args) -> Option<View> {
    call(arg_str(args, "url").unwrap_or_default().into(), "fetch")
}

fn fetch_result(args: &Args, result: &Outcome) -> Option<View> {
    if result.is_error {
        return None;
    }
    let meta = record(result.meta)?;
    let url = meta.get("url").and_then(Value::as_str)?;
    // A number that is not an integer: a view no card reads.
    let status = meta.get("statusCode").filter(|s| s.is_number())?.as_i64()?;
    let truncated = meta.get("truncated").and_then(Value::as_bool)?;
    let body = WebBody::Fetch {
        url: url.into(),
        status_code: Some(status),
    };
    let mut view = WebView::new(Some(arg_str(args, "url").unwrap_or_default().into()), body);
    view.truncated = truncated;
    Some(View::Web(view))
}
