//! A model answer of aider's history cut into its text and its
//! SEARCH/REPLACE edit blocks, in order (aider's `diff` edit format, as
//! `coders/editblock_coder.py` finds them): `<<<<<<< SEARCH`, the lines
//! searched for, `=======`, the lines put in their place, `>>>>>>>
//! REPLACE`; the file named on one of the (up to 3) lines before the
//! block that is not blank or a fence (`*`, `` ` ``, `#` and `:` around it
//! stripped; one word, no spaces), else the block before's file; the fence around a block
//! (```` ```python ```` … ```` ``` ````) belongs to it. A block not closed
//! before the answer ends is text.

use crate::wire::Origin;

/// A part of an answer.
#[derive(Debug, PartialEq)]
pub enum Piece {
    /// Text, where it began.
    Text(String, Origin),
    /// An edit: its file (`None`: not named), the text searched for (empty:
    /// a new file), its replacement; where its `<<<<<<< SEARCH` was.
    Edit {
        path: Option<String>,
        search: String,
        replace: String,
        origin: Origin,
    },
}

fn marker(line: &str, c: char, word: &str) -> bool {
    let line = line.trim_end();
    let n = line.chars().take_while(|&x| x == c).count();
    (5..=9).contains(&n) && {
        let rest = &line[n..];
        if word.is_empty() {
            rest.is_empty()
        } else {
            rest.strip_prefix(' ').is_some_and(|r| r == word || r == format!("{word}>"))
        }
    }
}

fn is_search(line: &str) -> bool {
    marker(line, '<', "SEARCH")
}

fn is_divider(line: &str) -> bool {
    marker(line, '=', "")
}

fn is_replace(line: &str) -> bool {
    marker(line, '>', "REPLACE")
}

fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

/// A file name on a line before a block.
fn file_name(line: &str) -> Option<String> {
    let name = line.trim().trim_matches(|c| matches!(c, '*' | '`' | '#' | ':')).trim();
    let one_word = !name.is_empty() && !name.contains(char::is_whitespace);
    (one_word && !is_fence(line)).then(|| name.to_string())
}

/// `lines` (the answer's, each with where it was) as text and edits.
pub fn pieces(lines: &[(String, Origin)]) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut text_from = 0;
    let mut last_path: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        if !is_search(&lines[i].0) {
            i += 1;
            continue;
        }
        // The block's end: `=======`, then `>>>>>>> REPLACE`.
        let divider = (i + 1..lines.len()).find(|&j| is_divider(&lines[j].0) || is_search(&lines[j].0));
        let Some(divider) = divider.filter(|&j| is_divider(&lines[j].0)) else {
            i += 1;
            continue;
        };
        let Some(end) = (divider + 1..lines.len()).find(|&j| is_replace(&lines[j].0)) else {
            i += 1;
            continue;
        };
        // What comes before it and belongs to it: its fence and its file.
        let mut start = i;
        let mut path = None;
        while start > text_from && i - start < 3 {
            let line = &lines[start - 1].0;
            if is_fence(line) || line.trim().is_empty() {
                start -= 1;
                continue;
            }
            if path.is_none()
                && let Some(name) = file_name(line)
            {
                path = Some(name);
                start -= 1;
            }
            break;
        }
        // Blank lines between the text and the block's file stay text.
        let path = path.or_else(|| last_path.clone());
        last_path.clone_from(&path);
        push_text(&lines[text_from..start], &mut out);
        let join = |from: usize, to: usize| -> String {
            lines[from..to].iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>().join("\n")
        };
        out.push(Piece::Edit {
            path,
            search: join(i + 1, divider),
            replace: join(divider + 1, end),
            origin: lines[i].1,
        });
        i = end + 1;
        if i < lines.len() && lines[i].0.trim() == "```" {
            i += 1;
        }
        text_from = i;
    }
    push_text(&lines[text_from..], &mut out);
    out
}

/// `lines` as a text piece, blank lines around it left out.
fn push_text(lines: &[(String, Origin)], out: &mut Vec<Piece>) {
    let Some(first) = lines.iter().position(|(l, _)| !l.trim().is_empty()) else {
        return;
    };
    let last = lines.iter().rposition(|(l, _)| !l.trim().is_empty()).unwrap_or(first);
    let text = lines[first..=last].iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>().join("\n");
    out.push(Piece::Text(text, lines[first].1));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(String, Origin)> {
        text.lines()
            .enumerate()
            .map(|(i, l)| (l.to_string(), Origin { line: i + 1, offset: 0 }))
            .collect()
    }

    #[test]
    fn text_and_blocks_in_order() {
        let answer = "Do it.\n\nsrc/a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\nnew.py\n```\n<<<<<<< SEARCH\n=======\nhi\n>>>>>>> REPLACE\n```\nDone.";
        let got = pieces(&lines(answer));
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(matches!(&got[0], Piece::Text(t, o) if t == "Do it." && o.line == 1));
        let Piece::Edit { path, search, replace, origin } = &got[1] else { panic!() };
        assert_eq!((path.as_deref(), search.as_str(), replace.as_str(), origin.line), (Some("src/a.py"), "x = 1", "x = 2", 5));
        let Piece::Edit { path, search, .. } = &got[2] else { panic!() };
        assert_eq!((path.as_deref(), search.as_str()), (Some("new.py"), ""));
        assert!(matches!(&got[3], Piece::Text(t, _) if t == "Done."));
    }

    #[test]
    fn an_unclosed_block_is_text_and_a_nameless_one_takes_the_last_file() {
        let got = pieces(&lines("<<<<<<< SEARCH\nx\n======="));
        assert!(matches!(&got[..], [Piece::Text(..)]));
        let two = "a.py\n<<<<<<< SEARCH\n1\n=======\n2\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n3\n=======\n4\n>>>>>>> REPLACE";
        let got = pieces(&lines(two));
        let paths: Vec<_> = got.iter().map(|p| match p { Piece::Edit { path, .. } => path.clone(), _ => None }).collect();
        assert_eq!(paths, [Some("a.py".into()), Some("a.py".into())]);
    }
}
