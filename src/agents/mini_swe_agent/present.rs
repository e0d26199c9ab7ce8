//! mini-swe-agent's and SWE-agent's actions as cards — the only place
//! naming them. Every action is a bash command line (mini-swe-agent's one
//! tool, `bash`; a SWE-agent step's `action`, run in its shell).
//!
//! | tool | card |
//! |---|---|
//! | bash, action | terminal: the command, its output, the exit code the result records (mini-swe-agent's `returncode`; a SWE-agent step has none); a command that is plainly a read (`cat FILE`, `sed -n 'A,Bp' FILE`, `head -n N FILE`) or a search (`grep -n`, `find`) that exited 0 is a read card at the lines the command fixes, or a search card; SWE-agent's `str_replace_editor view` listing is a read card at the lines it numbers, and its `submit` step's observation (the patch, a `git diff`) a diff card at the hunks' lines |
//!
//! A result's `meta` (`read.rs`): `exitCode` (the action ran and exited so)
//! and `ended` (`rejected`, `interrupted`, `submitted`, `not run`: it did
//! not run, or its output was not kept).

use serde_json::Value;

use crate::agents::Mapping;
use crate::agents::unified::unified_hunks;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, ReadLine, ReadView, SearchBody, SearchFile, SearchMatch, SearchView, TerminalView, View,
};

mod command;

use command::{Plain, plain, words};

/// The actions and their card (`docs/agents.md`'s table).
pub(super) const MAPPING: &[Mapping] = &[Mapping {
    tools: &["bash", "action"],
    card: "terminal",
}];

/// The mini-swe-agent presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MiniSweAgent;

fn command_of(arguments: &str) -> String {
    let args = parse(arguments);
    args.get("command").and_then(Value::as_str).unwrap_or_default().to_string()
}

impl Presenters for MiniSweAgent {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let command = command_of(call.arguments);
        Some(match plain(&command) {
            Some(Plain::Read { path, from, to, .. }) => {
                let range = to.map(|to| format!(" ({from} - {to})")).unwrap_or_default();
                GenericView {
                    locations: vec![Location::new(&path, Some(from))],
                    ..GenericView::new(format!("Read {path}{range}"), "read")
                }
                .into()
            }
            Some(Plain::Grep { pattern, paths, .. }) => {
                let mut title = format!("Grep {pattern}");
                if !paths.is_empty() {
                    title.push_str(&format!(" in {}", paths.join(" ")));
                }
                GenericView::new(title, "search").into()
            }
            Some(Plain::Find { root }) => GenericView {
                raw_input: Some(command.clone().into()),
                ..GenericView::new(format!("Find in {root}"), "search")
            }
            .into(),
            None => terminal(&command, None),
        })
    }

    fn result_view(&self, s: &Settled<'_>) -> Option<Presented> {
        let command = command_of(s.arguments);
        let text = crate::session::text_of(s.content);
        let meta = |k: &str| s.meta.and_then(|m| m.get(k));
        let exit_code = meta("exitCode").and_then(Value::as_i64);
        if s.is_error {
            // It did not run (rejected, interrupted), or raised: what the
            // log says of it, under the command.
            return Some(terminal(&command, Some(text)).into());
        }
        if meta("ended").and_then(Value::as_str) == Some("submitted") {
            let view = TerminalView {
                title: Some(command),
                description: Some("submits: the output of the command that ends a task is not kept".into()),
                ..TerminalView::default()
            };
            return Some(View::Terminal(view).into());
        }
        let view = match (plain(&command), exit_code) {
            (Some(Plain::Read { path, from, to, whole }), Some(0)) => read(&path, from, to, whole, &text),
            (Some(Plain::Grep { paths, named, .. }), Some(0 | 1)) => grep(&paths, named, exit_code, &text),
            (Some(Plain::Find { .. }), Some(0)) => find(&text),
            _ if s.tool == super::read::ACTION => editor_view(&command, &text).or_else(|| patch(&command, &text)),
            _ => None,
        };
        let view = view.unwrap_or_else(|| {
            View::Terminal(TerminalView {
                title: Some(command),
                output: Some(text),
                exit_code,
                ..TerminalView::default()
            })
        });
        Some(view.into())
    }
}

fn terminal(command: &str, output: Option<String>) -> View {
    View::Terminal(TerminalView {
        title: Some(command.to_string()),
        output,
        ..TerminalView::default()
    })
}

/// The output's lines (a final newline ends the last, it starts none).
fn lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') || text.is_empty() {
        lines.pop();
    }
    lines
}

/// The lines a read printed, numbered from the first it asked for; no more
/// than it asked for (else the output is not the file's lines alone).
fn read(path: &str, from: u64, to: Option<u64>, whole: bool, text: &str) -> Option<View> {
    let lines = lines(text);
    let count = lines.len() as u64;
    if to.is_some_and(|to| count > to - from + 1) {
        return None;
    }
    let numbered = (from..).zip(lines).map(|(n, l)| ReadLine::new(n, l)).collect();
    let mut view = ReadView::new(path, from, numbered);
    if whole {
        view.total_lines = count;
    }
    Some(view.into())
}

/// `grep -n`'s lines: `N:text` (one file), or `path:N:text`; exit 1 with
/// nothing printed: no match. A line of another shape: not drawn as a
/// search.
fn grep(paths: &[String], named: bool, exit_code: Option<i64>, text: &str) -> Option<View> {
    if exit_code == Some(1) && !text.trim().is_empty() {
        return None;
    }
    let mut files: Vec<SearchFile> = Vec::new();
    for line in lines(text) {
        let (file, rest) = if named { line.split_once(':')? } else { (paths.first()?.as_str(), line) };
        let (n, body) = rest.split_once(':')?;
        let m = SearchMatch::new(n.parse().ok()?, body);
        match files.iter_mut().find(|f| f.path == file) {
            Some(f) => f.matches.push(m),
            None => files.push(SearchFile::new(file, vec![m])),
        }
    }
    Some(SearchView::new(None, SearchBody::Matches(files)).into())
}

fn find(text: &str) -> Option<View> {
    let paths: Vec<String> = lines(text).into_iter().filter(|l| !l.is_empty()).map(str::to_string).collect();
    if paths.iter().any(|p| p.starts_with("find: ")) {
        return None;
    }
    Some(SearchView::new(None, SearchBody::Paths(paths)).into())
}

/// SWE-agent's `str_replace_editor view PATH`: a `cat -n` listing, after
/// `Here's the result of running `cat -n` on PATH:` — its lines at the
/// numbers it gives.
fn editor_view(command: &str, text: &str) -> Option<View> {
    let w = words(command)?;
    let ["str_replace_editor", "view", path, ..] = w.iter().map(String::as_str).collect::<Vec<_>>()[..] else {
        return None;
    };
    let head = format!("Here's the result of running `cat -n` on {path}:\n");
    let body = text.strip_prefix(&head)?;
    let mut numbered = Vec::new();
    for line in lines(body) {
        let (n, l) = line.trim_start().split_once('\t')?;
        numbered.push(ReadLine::new(n.parse().ok()?, l));
    }
    let from = numbered.first().map_or(1, |l: &ReadLine| l.number);
    Some(ReadView::new(path, from, numbered).into())
}

/// SWE-agent's `submit`: its observation is the submission, a `git diff`
/// — each file's hunks at the lines their headers give.
fn patch(command: &str, text: &str) -> Option<View> {
    if command.trim() != "submit" {
        return None;
    }
    let text = text.replace("\r\n", "\n");
    let mut diffs = Vec::new();
    for file in text.split("diff --git ").skip(1) {
        let named = |prefix: &str| file.lines().find_map(|l| l.strip_prefix(prefix));
        let path = named("+++ b/").or_else(|| named("--- a/"))?;
        for h in unified_hunks(file).into_iter().filter(|h| h.old != h.new) {
            let mut d = FileDiff::new(path, Some(h.old), h.new);
            d.start_line = h.old_start;
            d.new_start_line = h.new_start.filter(|n| h.old_start != Some(*n));
            diffs.push(d);
        }
    }
    (!diffs.is_empty()).then(|| {
        View::Diff(DiffView {
            title: Some("Submit".into()),
            diffs,
            locations: Vec::new(),
        })
    })
}

#[cfg(test)]
mod tests;
