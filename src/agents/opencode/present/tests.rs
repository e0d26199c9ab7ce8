//! The presenters on the real database's calls and results
//! (`tests/fixtures/agents/opencode/tour/`), folded as deck folds it.

use serde_json::json;

use super::*;
use crate::session::{Settled, Status, Transcript};
use crate::wire::view::SearchBody;

fn tour() -> Transcript {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/agents/opencode/tour/opencode.db");
    let loaded = crate::source::load_path(path).expect("loads");
    let s = loaded.sessions.into_iter().next().expect("a session");
    Transcript::from_records(s.id, s.records, crate::agents::stock())
}

fn view(t: &Transcript, call: &str) -> View {
    let card = t.cards().iter().find(|c| c.call_id == call).expect("the call");
    card.result_view.as_ref().expect("a result view").typed().expect("typed")
}

#[test]
fn every_call_draws_its_card_with_its_true_status() {
    let t = tour();
    let got: Vec<(&str, Status)> = t.cards().iter().map(|c| (c.tool_name(), c.status)).collect();
    assert_eq!(
        got,
        [
            ("read", Status::Ok),
            ("glob", Status::Ok),
            ("grep", Status::Ok),
            ("read", Status::Ok),
            ("read", Status::Ok),
            ("edit", Status::Ok),
            ("write", Status::Ok),
            ("bash", Status::Ok),
            ("webfetch", Status::Error),
            ("bash", Status::Failed),
            ("bash", Status::Ok),
        ]
    );
}

#[test]
fn edits_sit_at_their_real_lines_and_reads_at_theirs() {
    let t = tour();
    let View::Diff(edit) = view(&t, "call_2_1_0") else { panic!("a diff") };
    assert_eq!(edit.diffs.len(), 1);
    assert_eq!((edit.diffs[0].start_line, edit.diffs[0].new_start_line), (Some(5), None));
    assert!(edit.diffs[0].new_text.contains("if not xs:"));
    let View::Diff(write) = view(&t, "call_2_2_0") else { panic!("a diff") };
    assert_eq!((write.diffs[0].old_text.as_deref(), write.diffs[0].start_line), (None, Some(1)));
    // The window asked for, at the tool's numbers, the file's length its note says.
    let View::Read(window) = view(&t, "call_2_0_0") else { panic!("a read") };
    let numbers: Vec<u64> = window.lines.iter().map(|l| l.number).collect();
    assert_eq!((numbers, window.total_lines), (vec![8, 9, 10], 21));
    let View::Read(whole) = view(&t, "call_1_2_0") else { panic!("a read") };
    assert_eq!((whole.lines.len(), whole.total_lines), (21, 21));
    assert_eq!(whole.lines[3].text, "def mean(xs):");
    // A directory's listing is no file's lines.
    assert!(matches!(view(&t, "call_1_0_0"), View::Generic(_)));
}

#[test]
fn shell_search_and_web_cards() {
    let t = tour();
    let View::Terminal(failed) = view(&t, "call_3_1_0") else { panic!("a terminal") };
    assert_eq!((failed.exit_code, failed.title.as_deref()), (Some(2), Some("ls missing-dir")));
    let View::Search(grep) = view(&t, "call_1_1_1") else { panic!("a search") };
    let SearchBody::Matches(files) = &grep.body else { panic!("matches") };
    let lines: Vec<u64> = files[0].matches.iter().map(|m| m.line_number).collect();
    assert_eq!((files[0].path.as_str(), lines), ("/workspace/demo/src/stats.py", vec![4, 8, 12]));
    let View::Search(glob) = view(&t, "call_1_1_0") else { panic!("a search") };
    assert_eq!(glob.body, SearchBody::Paths(vec!["/workspace/demo/src/stats.py".into()]));
    // The offline fetch: its error on the generic card.
    let View::Generic(fetch) = view(&t, "call_3_0_0") else { panic!("generic") };
    assert!(format!("{fetch:?}").contains("Transport error"));
}

#[test]
fn an_overwrite_is_not_drawn_as_a_new_file() {
    let args = json!({"filePath": "/w/a", "content": "x\n"}).to_string();
    let meta = json!({"exists": true});
    let s = Settled::new("write", &args, &[], false, Some(&meta));
    let Some(Presented::View(View::Diff(d))) = OpenCode.result_view(&s) else { panic!("a diff") };
    assert_eq!((d.title.as_deref(), d.diffs[0].start_line), (Some("Overwrite /w/a"), None));
}

#[test]
fn reads_of_every_generation_at_their_numbers() {
    let args = json!({"filePath": "/w/a.py"}).to_string();
    let lines = |output: &str| {
        let content = [json!({"type": "text", "text": output})];
        let s = Settled::new("read", &args, &content, false, None);
        let Some(Presented::View(View::Read(r))) = OpenCode.result_view(&s) else { panic!("a read: {output}") };
        let got: Vec<(u64, String)> = r.lines.iter().map(|l| (l.number, l.text.clone())).collect();
        (got, r.total_lines)
    };
    let want = vec![(8, "def f(x):".to_string()), (9, "    return x | 1".to_string()), (10, String::new())];
    // 1.18: the tag on its own line; 1.1: the first line on the tag's.
    let now = "<path>/w/a.py</path>\n<type>file</type>\n<content>\n8: def f(x):\n9:     return x | 1\n10: \n\n(Showing lines 8-10 of 21. Use offset=11 to continue.)\n</content>";
    assert_eq!(lines(now), (want.clone(), 21));
    let one = "<path>/w/a.py</path>\n<type>file</type>\n<content>8: def f(x):\n9:     return x | 1\n10: \n\n(File has more lines. Use 'offset' parameter to read beyond line 10)\n</content>";
    assert_eq!(lines(one), (want.clone(), 0));
    // Before: `<file>`, zero-padded numbers and a bar.
    let old = "<file>\n00008| def f(x):\n00009|     return x | 1\n00010| \n\n(End of file - total 10 lines)\n</file>";
    assert_eq!(lines(old), (want.clone(), 10));
    let bar = "<file>\n00008 |def f(x):\n00009 |    return x | 1\n00010 |\n</file>";
    assert_eq!(lines(bar), (want, 0));
}
