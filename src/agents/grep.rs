//! Search tools' text output as agents' logs hold it — ripgrep's
//! `path:N:text` lines, or one path a line — read into what the search
//! card draws: matches by file, or paths. Shared by the agents whose grep
//! tools print it (Copilot CLI's, Kimi Code's).

use std::collections::HashMap;

use crate::wire::view::{SearchFile, SearchMatch};

/// `path:N:text`: the first `:N:` with N a line number splits it.
pub(crate) fn numbered(line: &str) -> Option<(&str, u64, &str)> {
    let mut from = 0;
    while let Some(at) = line[from..].find(':').map(|i| i + from) {
        let rest = &line[at + 1..];
        if let Some((n, body)) = rest.split_once(':')
            && let Ok(n) = n.parse::<u64>()
            && at > 0
        {
            return Some((&line[..at], n, body));
        }
        from = at + 1;
    }
    None
}

/// Every line of `text` as `path:N:text`, grouped by file in the order the
/// files first appear; `None` when a line is not one.
pub(crate) fn matches(text: &str) -> Option<Vec<SearchFile>> {
    let mut files: Vec<SearchFile> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for line in text.lines() {
        let (path, n, body) = numbered(line)?;
        let m = SearchMatch::new(n, body);
        match index.get(path) {
            Some(&i) => files[i].matches.push(m),
            None => {
                index.insert(path, files.len());
                files.push(SearchFile::new(path, vec![m]));
            }
        }
    }
    Some(files)
}

/// One path a line; none when the text says nothing matched (`No …`).
pub(crate) fn paths(text: &str) -> Vec<String> {
    if text.starts_with("No ") {
        return Vec::new();
    }
    text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_at_their_line_number_and_group_by_file() {
        assert_eq!(numbered("src/a:b.py:12:x = 1"), Some(("src/a:b.py", 12, "x = 1")));
        assert_eq!(numbered("no number: here"), None);
        let files = matches("a.py:1:x\nb.py:2:y\na.py:3:z").unwrap();
        let got: Vec<(&str, Vec<u64>)> = files
            .iter()
            .map(|f| (f.path.as_str(), f.matches.iter().map(|m| m.line_number).collect()))
            .collect();
        assert_eq!(got, [("a.py", vec![1, 3]), ("b.py", vec![2])]);
        assert!(matches("a.py:1:x\nplain").is_none());
        assert!(paths("No files found").is_empty());
        assert_eq!(paths("a\n\nb\n"), ["a", "b"]);
    }
}
