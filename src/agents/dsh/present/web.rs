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

use serde_json::{Value, json};

use super::schema::{Ty, req};
use super::{Args, Outcome, Presenter, absent_or_str, arg_str, record};

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

fn search_call(args: &Args) -> Value {
    let title = queries_title(args);
    json!({"card": "generic", "title": title, "kind": "search", "rawInput": title})
}

fn search_result(args: &Args, result: &Outcome) -> Option<Value> {
    if result.is_error {
        return None;
    }
    let meta = record(result.meta)?;
    let sources = meta
        .get("sources")
        .filter(|s| s.as_array().is_some_and(|s| s.iter().all(is_web_source)))?;
    let truncated = meta.get("truncated").filter(|t| t.is_boolean())?;
    if !absent_or_str(meta, "answer") {
        return None;
    }
    let mut view = json!({
        "card": "web",
        "kind": "search",
        "title": queries_title(args),
        "sources": sources,
        "truncated": truncated,
    });
    if let (Some(answer), Some(map)) = (meta.get("answer"), view.as_object_mut()) {
        map.insert("answer".into(), answer.clone());
    }
    Some(view)
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

fn fetch_call(args: &Args) -> Value {
    let url = arg_str(args, "url").unwrap_or_default();
    json!({"card": "generic", "title": url, "kind": "fetch", "rawInput": url})
}

fn fetch_result(args: &Args, result: &Outcome) -> Option<Value> {
    if result.is_error {
        return None;
    }
    let meta = record(result.meta)?;
    let url = meta.get("url").filter(|u| u.is_string())?;
    let status = meta.get("statusCode").filter(|s| s.is_number())?;
    let truncated = meta.get("truncated").filter(|t| t.is_boolean())?;
    Some(json!({
        "card": "web",
        "kind": "fetch",
        "title": arg_str(args, "url").unwrap_or_default(),
        "url": url,
        "statusCode": status,
        "truncated": truncated,
    }))
}
