//! ACP calls that touch files or the web: diffs, reads, searches, fetches.

use serde_json::Value;

use super::Call;
use crate::wire::view::{
    Block, DiffView, FileDiff, Location, ReadLine, ReadView, SearchBody, SearchFile, SearchMatch,
    SearchView, View, WebBody, WebSource, WebView,
};

/// The diff card of a call's `diff` items. A hunk gets its line number
/// only where the recording shows the file's text and the change is found
/// in it exactly once: the new text in what the client wrote, else the
/// old text in what it served; a new file (`oldText` null) starts at 1.
pub(super) fn diff(call: &Call) -> View {
    let diffs: Vec<FileDiff> = call
        .items("diff")
        .into_iter()
        .filter_map(|d| {
            let path = d.get("path")?.as_str()?;
            let new = d.get("newText")?.as_str()?;
            let old = d.get("oldText").and_then(Value::as_str);
            let mut diff = FileDiff::new(path, old.map(str::to_string), new);
            diff.start_line = start_line(call, path, old, new);
            Some(diff)
        })
        .collect();
    let mut locations = call.locations();
    if locations.is_empty() {
        locations = diffs.iter().map(|d| Location::new(d.path.as_str(), None)).collect();
    }
    View::Diff(DiffView {
        title: Some(call.title()),
        diffs,
        locations,
    })
}

fn start_line(call: &Call, path: &str, old: Option<&str>, new: &str) -> Option<u64> {
    let Some(old) = old else {
        return Some(1);
    };
    let file = call.file(path)?;
    if let Some(written) = file.get("written").and_then(Value::as_str) {
        return line_of_once(written, new);
    }
    let read = file.get("read")?;
    let from = read.get("line").and_then(Value::as_u64).unwrap_or(1);
    line_of_once(read.get("content")?.as_str()?, old).map(|l| l + from - 1)
}

/// The 1-based line where `needle` starts in `hay`, when it is found once
/// and starts a line.
fn line_of_once(hay: &str, needle: &str) -> Option<u64> {
    if needle.is_empty() {
        return None;
    }
    let mut found = hay.match_indices(needle).map(|(i, _)| i);
    let at = found.next()?;
    if found.next().is_some() || (at > 0 && hay.as_bytes()[at - 1] != b'\n') {
        return None;
    }
    Some(hay[..at].bytes().filter(|b| *b == b'\n').count() as u64 + 1)
}

/// The read card: the client's answer to `fs/read_text_file` for the
/// call's file, numbered from the line asked for; else the call's text,
/// unnumbered; else (an agent that read the file itself and showed
/// nothing, as Gemini CLI does) the generic card: a read card would claim
/// an empty file.
pub(super) fn read(call: &Call, text: &str) -> View {
    let path = call
        .locations()
        .into_iter()
        .next()
        .map(|l| l.path)
        .unwrap_or_default();
    let title = call.title();
    let served = call.file(&path).and_then(|f| f.get("read"));
    match served.and_then(|r| Some((r, r.get("content")?.as_str()?))) {
        Some((r, content)) => {
            let from = r.get("line").and_then(Value::as_u64).unwrap_or(1).max(1);
            let body = content.strip_suffix('\n').unwrap_or(content);
            let lines = (from..)
                .zip(body.split('\n'))
                .map(|(number, l)| ReadLine::new(number, l))
                .collect();
            let mut view = ReadView::new(path, from, lines);
            view.title = Some(title);
            view.into()
        }
        None if text.trim().is_empty() => super::generic(call, None),
        None => {
            let mut view = ReadView::new(path, 1, Vec::new());
            view.title = Some(title);
            view.content = Some(vec![Block::text(text)]);
            view.into()
        }
    }
}

/// The search card: `path:line:text` lines as matches by file, else lines
/// that look like paths, else the call's `locations`; `None` when the
/// text is none of these.
pub(super) fn search(call: &Call, text: &str) -> Option<View> {
    let title = Some(call.title());
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        let paths: Vec<String> = call.locations().into_iter().map(|l| l.path).collect();
        return (!paths.is_empty()).then(|| SearchView::new(title, SearchBody::Paths(paths)).into());
    }
    let matches: Option<Vec<(&str, u64, &str)>> = lines
        .iter()
        .map(|l| {
            let (path, rest) = l.split_once(':')?;
            let (n, line) = rest.split_once(':')?;
            Some((path, n.parse().ok()?, line))
        })
        .collect();
    if let Some(matches) = matches {
        let mut files: Vec<SearchFile> = Vec::new();
        for (path, n, line) in matches {
            let m = SearchMatch::new(n, line);
            match files.iter_mut().find(|f| f.path == path) {
                Some(f) => f.matches.push(m),
                None => files.push(SearchFile::new(path, vec![m])),
            }
        }
        return Some(SearchView::new(title, SearchBody::Matches(files)).into());
    }
    let pathlike = |l: &&str| l.trim() == *l && (l.contains('/') || l.contains('.'));
    lines.iter().all(pathlike).then(|| {
        let paths = lines.iter().map(|l| l.to_string()).collect();
        SearchView::new(title, SearchBody::Paths(paths)).into()
    })
}

/// A URL the call fetches: its input's `url`, else the first one in its title.
pub(super) fn url(call: &Call) -> Option<String> {
    if let Some(u) = call.state.get("rawInput").and_then(|i| i.get("url")).and_then(Value::as_str) {
        return Some(u.to_string());
    }
    call.title()
        .split_whitespace()
        .find(|w| w.starts_with("https://") || w.starts_with("http://"))
        .map(str::to_string)
}

/// The web card: a page fetched (the call's text said to be what the
/// agent made of it), or a search (the links its text lists as
/// `Links: [{title, url}]`, the rest as the answer).
pub(super) fn web(call: &Call, text: &str) -> View {
    let search = |sources, answer| {
        let body = WebBody::Search {
            sources,
            answer,
            failures: Vec::new(),
        };
        WebView::new(Some(call.title()), body).into()
    };
    if let Some(url) = url(call) {
        let answer = format!("*What the agent returned for the page:*\n\n{text}");
        return search(vec![WebSource::new(url)], Some(answer));
    }
    let mut sources = Vec::new();
    let mut answer = Vec::new();
    for line in text.lines() {
        match line.strip_prefix("Links: ").and_then(|l| serde_json::from_str::<Value>(l).ok()) {
            Some(Value::Array(links)) => sources.extend(links.into_iter().filter_map(|l| {
                let mut s = WebSource::new(l.get("url")?.as_str()?);
                s.title = l.get("title").and_then(Value::as_str).map(str::to_string);
                Some(s)
            })),
            _ => answer.push(line),
        }
    }
    let answer = answer.join("\n").trim().to_string();
    search(sources, (!answer.is_empty()).then_some(answer))
}
