//! Where a diff's snippets sit in their files: a model of each file the
//! session has shown, kept as the session folds, so a diff card can number
//! its rows with the file's real line numbers.
//!
//! DSH's edit views carry old/new snippets, not positions. What places a
//! snippet: the file's text from an earlier `read` card (whole or ranged:
//! its lines carry their numbers), the whole text of a new file, and the
//! text earlier edits left. An edit whose old snippet occurs exactly once
//! among the known lines is placed there, and, once it succeeded, applied
//! to the model. Anything else (no model, no match, two matches, a hole in
//! what is known) places nothing, and the card draws no numbers: a number
//! shown is the file's, or absent.
//!
//! Cheap on the fold's path: a read card is only noted (its index); its
//! view is typed when an edit of that file first needs it. Bounded: a file
//! past [`MAX_LINES`] known lines is not modelled.

use std::sync::Arc;

use super::{AttachedView, Status, ToolCard};
use crate::wire::View;

/// Files longer than this (in lines) are not modelled.
pub const MAX_LINES: usize = 200_000;

/// What is known of one file.
#[derive(Debug, Clone)]
pub(super) enum Known {
    /// The lines shown by the read card at this index (typed when needed).
    Read(usize),
    /// Line `n` (1-based) at index `n - 1`; `None`: not known.
    Lines(Arc<Vec<Option<String>>>),
}

/// path → what is known of the file.
pub(super) type Files = imbl::HashMap<Arc<str>, Known>;

/// The view a card draws, when it is of `tag`: the result's, else the call's.
fn drawn<'a>(card: &'a ToolCard, tag: &str) -> Option<&'a AttachedView> {
    [&card.result_view, &card.call_view]
        .into_iter()
        .flatten()
        .find(|v| tag_of(v).as_deref() == Some(tag))
}

/// A view's tag: read from the text's start when `card` is its first key
/// (as hosts and presenters write views: no scan of a big view), else
/// from a scan of its keys.
fn tag_of(v: &AttachedView) -> Option<std::borrow::Cow<'_, str>> {
    match v.kept_text().and_then(|t| first_key_tag(t.as_str())) {
        Some(t) => Some(std::borrow::Cow::Borrowed(t)),
        None => v.tag().map(std::borrow::Cow::Owned),
    }
}

/// The value of `"card"` when it is the object's first key and a plain
/// string: `{"card": "diff", …`.
fn first_key_tag(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix('{')?.trim_start();
    let rest = rest.strip_prefix("\"card\"")?.trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find(['"', '\\'])?;
    (rest.as_bytes()[end] == b'"').then(|| &rest[..end])
}

/// A settled card updates the models: a read notes its file; a diff is
/// placed (its placements returned, one per file entry of the drawn view)
/// and, when it succeeded, applied. `cards` is every card so far (a read
/// noted earlier is typed from there).
pub(super) fn settle(
    files: &mut Files,
    cards: &super::Slots<Arc<ToolCard>>,
    index: usize,
) -> Option<Vec<Option<usize>>> {
    let card = cards.get(index)?;
    // Only read and diff views matter here: one look at each view.
    let tags: Vec<_> = [&card.result_view, &card.call_view]
        .into_iter()
        .flatten()
        .filter_map(tag_of)
        .collect();
    if !tags.iter().any(|t| t == "read" || t == "diff") {
        return None;
    }
    if card.status == Status::Ok
        && let Some(v) = drawn(card, "read")
        // Its path: typed as far as its first line (the scan that found
        // its shape already went over the rest).
        && let Ok(View::Read(r)) = v.typed_head(1)
    {
        files.insert(Arc::from(r.path.as_str()), Known::Read(index));
        return None;
    }
    let v = drawn(card, "diff")?;
    let Ok(View::Diff(d)) = v.typed() else {
        return None;
    };
    let applied = card.status == Status::Ok;
    let mut placements = Vec::with_capacity(d.diffs.len());
    for f in &d.diffs {
        let path: Arc<str> = Arc::from(f.path.as_str());
        let Some(old) = &f.old_text else {
            // A new file (or one written whole): its text is all of it.
            placements.push(Some(1));
            if applied {
                let lines: Vec<Option<String>> = split(&f.new_text).into_iter().map(Some).collect();
                if lines.len() <= MAX_LINES {
                    files.insert(path, Known::Lines(Arc::new(lines)));
                } else {
                    files.remove(&path);
                }
            }
            continue;
        };
        let Some(model) = lines_of(files, cards, &path) else {
            placements.push(None);
            continue;
        };
        let old_lines = split(old);
        let at = find_once(&model, &old_lines);
        placements.push(at.map(|i| i + 1));
        if !applied {
            continue;
        }
        match at {
            Some(i) => {
                let mut next = Vec::with_capacity(model.len());
                next.extend_from_slice(&model[..i]);
                next.extend(split(&f.new_text).into_iter().map(Some));
                next.extend_from_slice(&model[i + old_lines.len()..]);
                if next.len() <= MAX_LINES {
                    files.insert(path, Known::Lines(Arc::new(next)));
                } else {
                    files.remove(&path);
                }
            }
            // The file changed where the model cannot follow: forget it.
            None => {
                files.remove(&path);
            }
        }
    }
    if applied {
        written_whole(files, card, &d);
    }
    Some(placements)
}

/// A write that succeeded leaves its file holding the whole text the call
/// gave (its call view: `oldText: null`), whatever hunks the result drew:
/// later edits of the file are placed in that text.
fn written_whole(files: &mut Files, card: &ToolCard, drawn: &crate::wire::view::DiffView) {
    let Some(Ok(View::Diff(call))) = card.call_view.as_ref().map(|v| v.typed()) else {
        return;
    };
    for f in &call.diffs {
        if f.old_text.is_some() || !drawn.diffs.iter().any(|d| d.path == f.path) {
            continue;
        }
        let lines: Vec<Option<String>> = split(&f.new_text).into_iter().map(Some).collect();
        let path: Arc<str> = Arc::from(f.path.as_str());
        if lines.len() <= MAX_LINES {
            files.insert(path, Known::Lines(Arc::new(lines)));
        } else {
            files.remove(&path);
        }
    }
}

/// The known lines of `path`, typing a noted read card when needed.
fn lines_of(
    files: &mut Files,
    cards: &super::Slots<Arc<ToolCard>>,
    path: &Arc<str>,
) -> Option<Arc<Vec<Option<String>>>> {
    match files.get(path)? {
        Known::Lines(l) => Some(l.clone()),
        Known::Read(i) => {
            let card = cards.get(*i)?;
            let Ok(View::Read(r)) = drawn(card, "read")?.typed() else {
                files.remove(path);
                return None;
            };
            let last = r.lines.iter().map(|l| l.number).max().unwrap_or(0);
            let last = usize::try_from(last).ok().filter(|&n| n <= MAX_LINES)?;
            let mut lines = vec![None; last];
            for l in &r.lines {
                if let Some(slot) = usize::try_from(l.number)
                    .ok()
                    .and_then(|n| n.checked_sub(1))
                    .and_then(|n| lines.get_mut(n))
                {
                    *slot = Some(l.text.clone());
                }
            }
            let lines = Arc::new(lines);
            files.insert(path.clone(), Known::Lines(lines.clone()));
            Some(lines)
        }
    }
}

/// A text's lines without their terminators (a final newline ends the last
/// line, it does not start another).
fn split(text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut lines: Vec<String> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    lines
}

/// Line comparisons one search may make: past it the snippet is left
/// unplaced (a file of one repeated line and a snippet of many would
/// otherwise cost their product).
const MAX_COMPARISONS: usize = 4_000_000;

/// Where `needle` occurs in `model` as consecutive known lines, when it
/// occurs exactly once (0-based).
fn find_once(model: &[Option<String>], needle: &[String]) -> Option<usize> {
    let first = needle.first()?;
    if needle.len() > model.len() {
        return None;
    }
    let mut found = None;
    let mut budget = MAX_COMPARISONS;
    for i in 0..=model.len() - needle.len() {
        if model[i].as_ref() != Some(first) {
            continue;
        }
        let mut whole = true;
        for (n, m) in needle.iter().zip(&model[i..]) {
            budget = budget.checked_sub(1)?;
            if m.as_ref() != Some(n) {
                whole = false;
                break;
            }
        }
        if whole {
            if found.is_some() {
                return None;
            }
            found = Some(i);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(t: &[&str]) -> Vec<Option<String>> {
        t.iter().map(|s| Some(s.to_string())).collect()
    }

    fn needle(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_snippet_is_placed_only_where_it_occurs_once() {
        let m = lines(&["a", "b", "c", "b", "c", "d"]);
        assert_eq!(find_once(&m, &needle(&["c", "d"])), Some(4));
        assert_eq!(find_once(&m, &needle(&["b", "c"])), None, "twice");
        assert_eq!(find_once(&m, &needle(&["x"])), None);
        assert_eq!(find_once(&m, &needle(&[])), None);
        let holes = vec![Some("a".into()), None, Some("c".into())];
        assert_eq!(find_once(&holes, &needle(&["a", "b"])), None, "a hole");
        assert_eq!(find_once(&holes, &needle(&["c"])), Some(2));
    }

    #[test]
    fn a_search_that_would_cost_too_much_places_nothing() {
        let same: Vec<Option<String>> = (0..20_000).map(|_| Some("x".to_string())).collect();
        let mut model = same.clone();
        model.push(Some("end".into()));
        let mut snippet: Vec<String> = (0..1_000).map(|_| "x".to_string()).collect();
        snippet.push("end".into());
        // Found once, but only after ~20M comparisons: given up.
        assert_eq!(find_once(&model, &snippet), None);
        assert_eq!(find_once(&model[19_000..], &snippet), Some(0));
    }

    #[test]
    fn the_tag_is_read_from_the_start_when_it_is_first() {
        assert_eq!(first_key_tag(r#"{"card":"diff","diffs":[]}"#), Some("diff"));
        assert_eq!(first_key_tag(" { \"card\" : \"read\" }"), Some("read"));
        assert_eq!(first_key_tag(r#"{"title":"x","card":"diff"}"#), None);
        assert_eq!(first_key_tag(r#"{"card":"di\u0066f"}"#), None);
        assert_eq!(first_key_tag(r#"{"card":7}"#), None);
        assert_eq!(first_key_tag(r#"{"card":"#), None);
    }

    #[test]
    fn lines_split_without_an_empty_last_one() {
        assert_eq!(split("a\nb\n"), vec!["a", "b"]);
        assert_eq!(split("a\r\nb"), vec!["a", "b"]);
        assert_eq!(split(""), Vec::<String>::new());
        assert_eq!(split("\n"), vec![""]);
    }
}
