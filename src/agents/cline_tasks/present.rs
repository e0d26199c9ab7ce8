//! The VS Code extensions' tools (Cline's, Roo Code's, Kilo Code's) as
//! cards — the only place naming them. A call's arguments are its tags'
//! parameters (all strings) or its native input; a result is the text the
//! extension sent the model (`read.rs`), a command's exit code in its
//! `meta`.
//!
//! | tool | card |
//! |---|---|
//! | execute_command | terminal: the command, its output (after `Output:`), the exit code its text says |
//! | read_file | read: the file from line 1 when the call asks no range (the extension sends the whole file), at the numbers it wrote (`12 | …`); else generic |
//! | write_to_file, replace_in_file, apply_diff | diff: a file written whole from line 1; each SEARCH/REPLACE block's old and new text, at its `:start_line:` (Roo Code's) or at no known line |
//! | search_files, list_files | search: the matches at their lines where the text numbers them (`12 | …`), else the files found; a listing's paths |
//! | web_fetch | web: the URL fetched |
//! | anything else | generic with the raw input and the output |

use serde_json::Value;

use super::read::COMMAND;
use crate::session::{Args, arg};
use crate::text::markdown::fenced;
use crate::agents::Mapping;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, ReadLine, ReadView, SearchBody, SearchFile, SearchMatch, SearchView, TerminalView,
    View, WebBody, WebView,
};

/// The tools and their cards (`docs/agents.md`'s table; any other tool is
/// `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["execute_command"], card: "terminal" },
    Mapping { tools: &["read_file"], card: "read" },
    Mapping { tools: &["write_to_file", "replace_in_file", "apply_diff"], card: "diff" },
    Mapping { tools: &["search_files", "list_files"], card: "search" },
    Mapping { tools: &["web_fetch"], card: "web" },
];

/// The presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ClineTasks;



/// The file a call names: its `path`, or the first `<path>` of Roo Code's
/// `args` (several files read at once).
fn path(args: &Args) -> Option<&str> {
    arg(args, "path").or_else(|| {
        let a = arg(args, "args")?;
        let start = a.find("<path>")? + "<path>".len();
        Some(a[start..start + a[start..].find("</path>")?].trim())
    })
}

impl Presenters for ClineTasks {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        Some(match call.tool {
            COMMAND => View::Terminal(TerminalView {
                title: arg(&args, "command").map(str::to_string),
                ..TerminalView::default()
            }),
            "write_to_file" | "replace_in_file" | "apply_diff" => edit_view(call.tool, &args)?,
            "read_file" => GenericView::new(format!("Read {}", path(&args).unwrap_or_default()), "read").into(),
            "search_files" => GenericView::new(format!("Search {}", arg(&args, "regex").unwrap_or_default()), "search").into(),
            "list_files" => GenericView::new(format!("List {}", path(&args).unwrap_or_default()), "search").into(),
            "web_fetch" => GenericView::new(format!("Fetch {}", arg(&args, "url").unwrap_or_default()), "fetch").into(),
            tool => GenericView {
                raw_input: (!args.is_empty()).then(|| Value::Object(args.clone())),
                ..GenericView::new(tool, "other")
            }
            .into(),
        })
    }

    fn result_view(&self, s: &Settled<'_>) -> Option<Presented> {
        let args = parse(s.arguments);
        let text = crate::session::text_of(s.content);
        let generic = || (!text.is_empty()).then(|| View::from(GenericView::default().with_text(fenced(&text))).into());
        if s.is_error {
            // A refusal, a cancel, an error: its message.
            return generic();
        }
        let view = match s.tool {
            COMMAND => View::Terminal(TerminalView {
                title: arg(&args, "command").map(str::to_string),
                output: Some(output(&text)),
                exit_code: s.meta.and_then(|m| m.get("exitCode")).and_then(Value::as_i64),
                ..TerminalView::default()
            }),
            "read_file" => match read_view(&args, &text) {
                Some(v) => v,
                None => return generic(),
            },
            "write_to_file" | "replace_in_file" | "apply_diff" => edit_view(s.tool, &args)?,
            "search_files" => search_view(&text),
            "list_files" => {
                let paths = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("No files found"));
                SearchView::new(None, SearchBody::Paths(paths.map(str::to_string).collect())).into()
            }
            "web_fetch" => WebView::new(
                Some("Fetch".into()),
                WebBody::Fetch {
                    url: arg(&args, "url").unwrap_or_default().to_string(),
                    status_code: None,
                },
            )
            .into(),
            _ => return generic(),
        };
        Some(view.into())
    }
}

/// A command's output: what follows `Output:` (the status line before it
/// is the exit code's, drawn on its own).
fn output(text: &str) -> String {
    match text.split_once("\nOutput:\n") {
        Some((_, out)) => out.to_string(),
        None if text.starts_with("Command executed") && !text.contains('\n') => String::new(),
        None => text.to_string(),
    }
}

/// A line the extension numbered (`  12 | text`).
fn numbered(line: &str) -> Option<ReadLine> {
    let (n, body) = line.split_once(" | ").or_else(|| line.strip_suffix(" |").map(|n| (n, "")))?;
    Some(ReadLine::new(n.trim().parse().ok()?, body))
}

/// A file read: the lines as numbered, or the whole file from line 1 when
/// no range was asked; `None` when its lines cannot be placed.
fn read_view(args: &Args, text: &str) -> Option<View> {
    let path = path(args)?;
    // Roo Code wraps the lines: `<file><path>…</path>\n<content lines="1-3">`.
    let body = match text.find("<content") {
        Some(i) => {
            let rest = &text[i..];
            let start = rest.find('>')? + 1;
            &rest[start..rest.find("</content>").unwrap_or(rest.len())]
        }
        None => text,
    };
    let body = body.strip_prefix('\n').unwrap_or(body).trim_end_matches('\n');
    let lines: Option<Vec<ReadLine>> = body.split('\n').map(numbered).collect();
    let lines = match lines.filter(|l| !l.is_empty()) {
        Some(l) => l,
        None if ["start_line", "end_line", "line_range"].iter().all(|k| !args.contains_key(*k)) => {
            body.split('\n').zip(1..).map(|(l, n)| ReadLine::new(n, l)).collect()
        }
        None => return None,
    };
    let from = lines.first()?.number;
    Some(ReadView::new(path, from, lines).into())
}

/// What a search found: Roo Code's numbered matches under `# path`; Cline's
/// files (its matches, `│`-prefixed, carry no line numbers).
fn search_view(text: &str) -> View {
    let mut files: Vec<SearchFile> = Vec::new();
    let mut paths: Vec<String> = Vec::new();
    for l in text.lines() {
        if let Some(p) = l.strip_prefix("# ") {
            files.push(SearchFile::new(p.trim(), Vec::new()));
        } else if let (Some(f), Some(m)) = (files.last_mut(), numbered(l)) {
            f.matches.push(SearchMatch::new(m.number, m.text));
        } else if !l.is_empty() && !l.starts_with('│') && !l.starts_with("Found ") && !l.starts_with("----") {
            paths.push(l.trim().to_string());
        }
    }
    if files.iter().any(|f| !f.matches.is_empty()) {
        SearchView::new(None, SearchBody::Matches(files)).into()
    } else {
        SearchView::new(None, SearchBody::Paths(paths)).into()
    }
}

/// An edit as its call says it: a file written whole, or each SEARCH/
/// REPLACE block of a diff.
fn edit_view(tool: &str, args: &Args) -> Option<View> {
    let path = path(args)?;
    let diffs = if tool == "write_to_file" {
        vec![FileDiff::new(path, None, arg(args, "content").unwrap_or_default()).at(1).existed_unknown()]
    } else {
        blocks(arg(args, "diff")?)
            .into_iter()
            .map(|(line, old, new)| {
                let d = FileDiff::new(path, Some(old), new);
                match line {
                    Some(n) => d.at(n),
                    None => d,
                }
            })
            .collect()
    };
    let verb = if tool == "write_to_file" { "Write" } else { "Edit" };
    (!diffs.is_empty()).then(|| {
        View::Diff(DiffView {
            title: Some(format!("{verb} {path}")),
            diffs,
            locations: Vec::new(),
        })
    })
}

/// The SEARCH/REPLACE blocks of a diff (Cline's `------- SEARCH` …
/// `=======` … `+++++++ REPLACE`, or `<<<<<<< SEARCH` … `>>>>>>> REPLACE`;
/// Roo Code's `:start_line:N` and `-------` after the search marker): each
/// block's line (when said), old text and new text.
fn blocks(diff: &str) -> Vec<(Option<u64>, String, String)> {
    enum At {
        Out,
        Search,
        Replace,
    }
    let mut out = Vec::new();
    let (mut at, mut line, mut old, mut new) = (At::Out, None, String::new(), String::new());
    for l in diff.lines() {
        let marker = l.trim_end();
        match at {
            At::Out if marker.ends_with("SEARCH") && (marker.starts_with("<<<<<<<") || marker.starts_with("-------")) => {
                at = At::Search;
                (line, old, new) = (None, String::new(), String::new());
            }
            At::Search if old.is_empty() && marker.starts_with(":start_line:") => {
                line = marker[":start_line:".len()..].trim().parse().ok();
            }
            At::Search if old.is_empty() && marker == "-------" => {}
            At::Search if marker == "=======" => at = At::Replace,
            At::Search => {
                old.push_str(l);
                old.push('\n');
            }
            At::Replace if marker.ends_with("REPLACE") && (marker.starts_with(">>>>>>>") || marker.starts_with("+++++++")) => {
                at = At::Out;
                out.push((line, std::mem::take(&mut old), std::mem::take(&mut new)));
            }
            At::Replace => {
                new.push_str(l);
                new.push('\n');
            }
            At::Out => {}
        }
    }
    out
}


#[cfg(test)]
mod tests;
