//! Commands Codex classified (`parsed_cmd`, carried in a result's
//! `meta.parsedCmd`) drawn as what they did — only where the output lets
//! the card be faithful, else they stay terminal cards:
//!
//! * a `read` that is exactly `cat PATH`, exit 0, output not cut: a `read`
//!   card of the whole file (lines 1..N of N);
//! * a `search` run as `rg` or `grep` with line numbers (`-n`, `-rn`,
//!   `--line-number`; exit 0, output not cut) whose every output line is
//!   `path:line:text` (so not coloured): a `search` card of matches
//!   grouped by file.

use serde_json::Value;

use crate::agents::codex::read::output::ExecOutput;
use crate::wire::view::{ReadLine, ReadView, SearchBody, SearchFile, SearchMatch, SearchView, View};

/// The read or search view of a classified command, when faithful.
pub fn view(command: &str, out: &ExecOutput<'_>, meta: Option<&Value>) -> Option<View> {
    if out.exit_code != Some(0) || out.truncated || out.running.is_some() {
        return None;
    }
    let parsed = meta?.get("parsedCmd")?.as_array()?;
    let [only] = parsed.as_slice() else {
        return None;
    };
    match only.get("type")?.as_str()? {
        "read" => read(command, only.get("path")?.as_str()?, &out.body),
        "search" => search(command, &out.body),
        _ => None,
    }
}

fn read(command: &str, path: &str, body: &str) -> Option<View> {
    let file = command.strip_prefix("cat ")?.trim();
    let unquoted = file
        .strip_prefix('\'')
        .and_then(|f| f.strip_suffix('\''))
        .unwrap_or(file);
    if unquoted != path || path.is_empty() {
        return None;
    }
    let lines: Vec<ReadLine> = (1..)
        .zip(body.lines())
        .map(|(number, text)| ReadLine::new(number, text))
        .collect();
    let mut view = ReadView::new(path, 1, lines);
    view.total_lines = view.lines.len() as u64;
    Some(view.into())
}

fn search(command: &str, body: &str) -> Option<View> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let numbered = words.iter().any(|w| {
        *w == "--line-number"
            || w.strip_prefix('-')
                .is_some_and(|f| !f.starts_with('-') && f.contains('n'))
    });
    let searcher = matches!(words.first(), Some(&("rg" | "grep")));
    if !searcher || !numbered || body.is_empty() {
        return None;
    }
    let mut files: Vec<SearchFile> = Vec::new();
    let mut total = 0;
    for line in body.lines() {
        let (path, rest) = line.split_once(':')?;
        let (number, text) = rest.split_once(':')?;
        let number: u64 = number.parse().ok()?;
        if path.is_empty() {
            return None;
        }
        let m = SearchMatch::new(number, text);
        match files.last_mut() {
            Some(f) if f.path == path => f.matches.push(m),
            _ => files.push(SearchFile::new(path, vec![m])),
        }
        total += 1;
    }
    let mut view = SearchView::new(None, SearchBody::Matches(files));
    view.total = total;
    Some(view.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use crate::agents::codex::read::output::parse;

    fn meta(kind: &str) -> Value {
        json!({"parsedCmd": [{"type": kind, "path": "a.txt"}]})
    }

    #[test]
    fn only_faithful_outputs() {
        let ok = parse("Exit code: 0\nOutput:\nx\ny\n");
        let v = view("cat a.txt", &ok, Some(&meta("read"))).expect("read").to_tree();
        assert_eq!(v["totalLines"], 2);
        assert_eq!(v["lines"][1], json!({"number": 2, "text": "y"}));
        assert_eq!(view("cat -n a.txt", &ok, Some(&meta("read"))), None);
        assert_eq!(view("head a.txt", &ok, Some(&meta("read"))), None);
        let failed = parse("Exit code: 1\nOutput:\nx\n");
        assert_eq!(view("cat a.txt", &failed, Some(&meta("read"))), None);
        let cut = parse("Exit code: 0\nWarning: truncated output\nOutput:\nx\n");
        assert_eq!(view("cat a.txt", &cut, Some(&meta("read"))), None);
        let hits = parse("Exit code: 0\nOutput:\na.rs:3:fn a\na.rs:9:fn b\nb.rs:1:fn c\n");
        let v = view("rg -n fn .", &hits, Some(&meta("search"))).expect("search").to_tree();
        assert_eq!(v["total"], 3);
        assert_eq!(v["files"][0]["matches"][1]["lineNumber"], 9);
        assert_eq!(view("rg fn .", &hits, Some(&meta("search"))), None);
        assert!(view("grep -rn fn .", &hits, Some(&meta("search"))).is_some());
        assert!(view("rg --line-number fn .", &hits, Some(&meta("search"))).is_some());
        let coloured = parse("Exit code: 0\nOutput:\n\u{1b}[35ma.rs\u{1b}[m:\u{1b}[32m3\u{1b}[m:fn a\n");
        assert_eq!(view("grep -rn --color=always fn .", &coloured, Some(&meta("search"))), None);
        let one_file = parse("Exit code: 0\nOutput:\n3:fn a\n");
        assert_eq!(view("rg -n fn a.rs", &one_file, Some(&meta("search"))), None);
        assert_eq!(view("rg -n fn .", &hits, None), None);
    }
}
