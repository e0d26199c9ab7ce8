//! The presenters on the real session's calls and results
//! (`tests/fixtures/agents/gemini-cli/tour/`), folded as deck folds it.

use std::sync::Arc;


use super::GeminiCli;
use crate::agents::card_dump::fold_lines;
use crate::agents::gemini_cli::read::Reader;
use crate::session::{Status, Transcript};
use crate::wire::view::{SearchBody, View};
use crate::wire::WireError;

const TOUR: &str = include_str!(
    "../../../../tests/fixtures/agents/gemini-cli/tour/session-2026-12-04T07-51-b8660323.jsonl"
);

fn fold(text: &str) -> Transcript {
    fold_lines(Reader::default(), Arc::new(GeminiCli), text)
}

fn views(t: &Transcript, tool: &str) -> Vec<(Result<View, WireError>, Status)> {
    t.cards()
        .iter()
        .filter(|c| c.tool.as_deref() == Some(tool))
        .map(|c| (c.result_view.as_ref().expect("a result view").typed(), c.status))
        .collect()
}

#[test]
fn every_call_draws_its_card_with_its_true_status() {
    let t = fold(TOUR);
    let got: Vec<(&str, &str, Status)> = t
        .cards()
        .iter()
        .map(|c| {
            let tag = c.result_view.as_ref().and_then(|v| v.tag()).unwrap_or_default();
            (c.tool_name(), if tag.is_empty() { "none" } else { "some" }, c.status)
        })
        .collect();
    assert_eq!(got.len(), 11, "{got:#?}");
    let status: Vec<(&str, Status)> = got.iter().map(|g| (g.0, g.2)).collect();
    assert_eq!(
        status,
        [
            ("list_directory", Status::Ok),
            ("glob", Status::Ok),
            ("grep_search", Status::Ok),
            ("read_file", Status::Ok),
            ("read_file", Status::Ok),
            ("replace", Status::Ok),
            ("write_file", Status::Ok),
            ("run_shell_command", Status::Ok),
            ("web_fetch", Status::Error),
            ("run_shell_command", Status::Failed),
            ("run_shell_command", Status::Ok),
        ]
    );
}

#[test]
fn edits_sit_at_their_real_lines_and_reads_at_theirs() {
    let t = fold(TOUR);
    let edit = views(&t, "replace");
    let Ok(View::Diff(d)) = &edit[0].0 else {
        panic!("{:?}", edit[0]);
    };
    // `@@ -6,6 +6,8 @@`: the hunk from line 6, the new lines 9-10 in it.
    assert_eq!(d.diffs[0].start_line, Some(6));
    assert!(d.diffs[0].new_text.contains("if not xs:"), "{d:?}");
    let write = views(&t, "write_file");
    let Ok(View::Diff(w)) = &write[0].0 else {
        panic!("{:?}", write[0]);
    };
    assert_eq!((w.diffs[0].old_text.as_deref(), w.diffs[0].start_line), (None, Some(1)));
    let reads = views(&t, "read_file");
    let Ok(View::Read(whole)) = &reads[0].0 else {
        panic!("{:?}", reads[0]);
    };
    assert_eq!((whole.offset, whole.lines.len() as u64, whole.total_lines), (1, 21, 21));
    let Ok(View::Read(range)) = &reads[1].0 else {
        panic!("{:?}", reads[1]);
    };
    // Lines 8-10 (10 is blank); the file's length not claimed from a window.
    let numbers: Vec<u64> = range.lines.iter().map(|l| l.number).collect();
    assert_eq!((numbers, range.total_lines), (vec![8, 9, 10], 0));
    assert_eq!(range.lines[0].text, "def spread(xs):");
}

#[test]
fn shell_search_and_web_cards() {
    let t = fold(TOUR);
    let shells = views(&t, "run_shell_command");
    let codes: Vec<Option<i64>> = shells
        .iter()
        .map(|(v, _)| match v {
            Ok(View::Terminal(t)) => t.exit_code,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(codes, [Some(0), Some(2), Some(0)]);
    let Ok(View::Terminal(ls)) = &shells[1].0 else { unreachable!() };
    assert_eq!(ls.output.as_deref(), Some("ls: cannot access 'missing-dir': No such file or directory"));
    let grep = views(&t, "grep_search");
    let Ok(View::Search(s)) = &grep[0].0 else {
        panic!("{:?}", grep[0]);
    };
    let SearchBody::Matches(files) = &s.body else { panic!("{s:?}") };
    assert!(files[0].matches.iter().all(|m| m.line_number > 0), "{files:?}");
    let glob = views(&t, "glob");
    assert!(matches!(&glob[0].0, Ok(View::Search(_))), "{glob:?}");
    // The failed fetch: its message on the generic card.
    let fetch = views(&t, "web_fetch");
    let Ok(View::Generic(g)) = &fetch[0].0 else {
        panic!("{:?}", fetch[0]);
    };
    assert!(format!("{:?}", g.content).contains("Blocked Host"));
}
