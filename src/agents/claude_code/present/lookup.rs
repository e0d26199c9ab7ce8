//! Claude Code's Grep and Glob as search cards, WebSearch and WebFetch as
//! web cards, from the call's input and the result's `toolUseResult`.

use serde::Serialize;
use serde_json::Value;

use super::{Args, Outcome, arg};
use crate::wire::RawJson;
use crate::wire::view::{GenericView, View, WebBody, WebSource, WebView};

pub(super) fn search_call(tool: &str, args: &Args) -> View {
    let pattern = arg(args, "pattern").unwrap_or_default();
    let mut title = format!("{tool} {pattern}");
    if let Some(path) = arg(args, "path") {
        title.push_str(&format!(" in {path}"));
    }
    if let Some(glob) = arg(args, "glob") {
        title.push_str(&format!(" ({glob})"));
    }
    GenericView {
        raw_input: Some(Value::Object(args.clone())),
        ..GenericView::new(title, "search")
    }
    .into()
}

/// Matches by file (Grep's content mode, `path:line:text`), else the paths
/// found (`filenames`, or the result's lines), written straight as JSON
/// text: a search's lines are many small values.
pub(super) fn search_result(tool: &str, out: &Outcome) -> Option<RawJson> {
    let meta = out.meta;
    let field = |k: &str| meta.and_then(|m| m.get(k));
    let truncated = field("truncated").and_then(Value::as_bool).unwrap_or(false);
    if field("mode").and_then(Value::as_str) == Some("content") {
        let content = field("content").and_then(Value::as_str).unwrap_or_default();
        if let Some(files) = matches(content) {
            let total: usize = files.iter().map(|f| f.matches.len()).sum();
            return write(tool, SearchBody::Matches { files }, truncated, total as u64);
        }
    }
    let text;
    let paths: Vec<&str> = match field("filenames").and_then(Value::as_array) {
        Some(names) => names.iter().filter_map(Value::as_str).collect(),
        None => {
            text = out.text();
            text.lines()
                .filter(|l| !l.is_empty() && !l.starts_with("Found ") && !l.starts_with("No files"))
                .collect()
        }
    };
    let total = field("numFiles")
        .and_then(Value::as_u64)
        .unwrap_or(paths.len() as u64);
    write(tool, SearchBody::Paths { paths }, truncated, total)
}

fn write(tool: &str, body: SearchBody<'_>, truncated: bool, total: u64) -> Option<RawJson> {
    let view = SearchOut {
        card: "search",
        title: tool,
        body,
        truncated,
        total,
    };
    serde_json::to_string(&view).ok().map(RawJson::from_text)
}

/// A search card as [`search_result`] writes it (keys in this order).
#[derive(Serialize)]
struct SearchOut<'a> {
    card: &'static str,
    title: &'a str,
    #[serde(flatten)]
    body: SearchBody<'a>,
    truncated: bool,
    total: u64,
}

#[derive(Serialize)]
#[serde(tag = "shape", rename_all = "lowercase")]
enum SearchBody<'a> {
    Matches { files: Vec<FileMatches<'a>> },
    Paths { paths: Vec<&'a str> },
}

#[derive(Serialize)]
struct FileMatches<'a> {
    path: &'a str,
    matches: Vec<Match<'a>>,
}

#[derive(Serialize)]
struct Match<'a> {
    #[serde(rename = "lineNumber")]
    line_number: u64,
    line: &'a str,
}

/// `path:line:text` lines grouped by file, when every line is one.
fn matches(content: &str) -> Option<Vec<FileMatches<'_>>> {
    let mut files: Vec<FileMatches<'_>> = Vec::new();
    for line in content.lines().filter(|l| !l.is_empty()) {
        let (path, rest) = line.split_once(':')?;
        let (number, text) = rest.split_once(':')?;
        let m = Match {
            line_number: number.parse().ok()?,
            line: text,
        };
        match files.last_mut() {
            Some(f) if f.path == path => f.matches.push(m),
            _ => files.push(FileMatches {
                path,
                matches: vec![m],
            }),
        }
    }
    (!files.is_empty()).then_some(files)
}

pub(super) fn web_search_call(args: &Args) -> View {
    let query = arg(args, "query").unwrap_or_default();
    GenericView {
        raw_input: Some(query.into()),
        ..GenericView::new(query, "search")
    }
    .into()
}

/// The links found (`results[].content[]`) and what the search model wrote
/// of them (the results that are text).
pub(super) fn web_search_result(args: &Args, out: &Outcome) -> Option<View> {
    let results = out.meta?.get("results")?.as_array()?;
    let mut sources = Vec::new();
    let mut answer = Vec::new();
    for r in results {
        match r {
            Value::String(s) if !s.trim().is_empty() => answer.push(s.trim().to_string()),
            Value::Object(o) => {
                for link in o.get("content").and_then(Value::as_array).into_iter().flatten() {
                    if let Some(url) = link.get("url").and_then(Value::as_str) {
                        let mut s = WebSource::new(url);
                        s.title = link.get("title").and_then(Value::as_str).map(str::to_string);
                        sources.push(s);
                    }
                }
            }
            _ => {}
        }
    }
    let body = WebBody::Search {
        sources,
        answer: (!answer.is_empty()).then(|| answer.join("\n\n")),
        failures: Vec::new(),
    };
    let title = arg(args, "query").unwrap_or_default();
    Some(WebView::new(Some(title.into()), body).into())
}

pub(super) fn web_fetch_call(args: &Args) -> View {
    let url = arg(args, "url").unwrap_or_default();
    let view = GenericView {
        raw_input: Some(url.into()),
        ..GenericView::new(url, "fetch")
    };
    match arg(args, "prompt") {
        Some(p) => view.with_text(format!("Asked of the page: {p}")).into(),
        None => view.into(),
    }
}

/// What came back is not the page: a model read it and answered the
/// call's prompt. The card says so above that summary, under the URL.
pub(super) fn web_fetch_result(args: &Args, out: &Outcome) -> Option<View> {
    let meta = out.meta;
    let url = meta
        .and_then(|m| m.get("url"))
        .and_then(Value::as_str)
        .or_else(|| arg(args, "url"))?;
    let summary = meta
        .and_then(|m| m.get("result"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| out.text());
    let code = meta.and_then(|m| m.get("code")).and_then(Value::as_i64);
    let status = match (code, meta.and_then(|m| m.get("codeText")).and_then(Value::as_str)) {
        (Some(c), Some(t)) => format!("HTTP {c} {t}"),
        (Some(c), None) => format!("HTTP {c}"),
        _ => "fetched".to_string(),
    };
    let answer = format!("*The model's summary of the page, not the page itself:*\n\n{summary}");
    let mut source = WebSource::new(url);
    source.title = Some(status);
    let body = WebBody::Search {
        sources: vec![source],
        answer: Some(answer),
        failures: Vec::new(),
    };
    Some(WebView::new(Some(format!("Fetch {url}")), body).into())
}
