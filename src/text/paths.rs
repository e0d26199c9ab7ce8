//! Paths as cards show them: relative to the session's working directory
//! when inside it, and cut in the middle — leading directories dropped for
//! `…/` — so the file name stays when a path does not fit. The full path
//! stays where the user reaches for it (the pager, copy).

use std::borrow::Cow;

use super::line::str_width;

/// `path` relative to `cwd` when inside it (`.` for `cwd` itself).
pub fn relative<'p>(path: &'p str, cwd: Option<&str>) -> Cow<'p, str> {
    let Some(cwd) = cwd.filter(|c| !c.is_empty()) else {
        return Cow::Borrowed(path);
    };
    match path.strip_prefix(cwd) {
        Some("") | Some("/") => Cow::Borrowed("."),
        Some(rest) if rest.starts_with('/') => Cow::Borrowed(&rest[1..]),
        _ => Cow::Borrowed(path),
    }
}

/// `text` with every path inside `cwd` made relative: `cwd/` dropped where
/// it starts a word, and `cwd` alone as a word becomes `.`.
pub fn relative_in<'t>(text: &'t str, cwd: Option<&str>) -> Cow<'t, str> {
    let Some(cwd) = cwd.filter(|c| !c.is_empty()) else {
        return Cow::Borrowed(text);
    };
    if !text.contains(cwd) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(cwd) {
        let starts_word = out.is_empty() && i == 0
            || rest[..i]
                .chars()
                .next_back()
                .or_else(|| out.chars().next_back())
                .is_none_or(|c| c.is_whitespace() || "([{'\"`=:".contains(c));
        let after = &rest[i + cwd.len()..];
        out.push_str(&rest[..i]);
        let ends_word = after
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || ")]}'\"`,:;".contains(c));
        if starts_word && after.starts_with('/') && after.len() > 1 {
            rest = &after[1..];
        } else if starts_word && ends_word {
            out.push('.');
            rest = after;
        } else {
            out.push_str(cwd);
            rest = after;
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// `text` fitted to `width` columns by cutting the longest path in it in
/// the middle: leading directories go, one at a time, for `…/`, so the
/// file name stays (`…/speed-src/grammar.rs`). `None` when the text has
/// no path or even `…/name` does not fit (cut it at the end then).
pub fn cut_middle(text: &str, width: usize) -> Option<String> {
    if str_width(text) <= width {
        return Some(text.to_string());
    }
    // The longest word with a directory in it.
    let (start, word) = text
        .split(' ')
        .scan(0usize, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        // A URL's host matters more than its file: cut at the end.
        .filter(|(_, w)| w.trim_end_matches('/').contains('/') && !w.contains("://"))
        .max_by_key(|(_, w)| w.len())?;
    let (before, after) = (&text[..start], &text[start + word.len()..]);
    let fixed = str_width(before) + str_width(after);
    let mut cut = word.trim_start_matches('/');
    loop {
        // Drop the leading directory.
        let (_, rest) = cut.split_once('/')?;
        if rest.is_empty() {
            return None;
        }
        cut = rest;
        let shown = format!("…/{cut}");
        if fixed + str_width(&shown) <= width {
            return Some(format!("{before}{shown}{after}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_the_cwd_are_relative() {
        let cwd = Some("/workspace/demo");
        assert_eq!(relative("/workspace/demo/src/a.rs", cwd), "src/a.rs");
        assert_eq!(relative("/workspace/demo", cwd), ".");
        assert_eq!(relative("/workspace/demo2/a.rs", cwd), "/workspace/demo2/a.rs");
        assert_eq!(relative("/etc/hosts", cwd), "/etc/hosts");
        assert_eq!(relative("/workspace/demo/a.rs", None), "/workspace/demo/a.rs");
    }

    #[test]
    fn paths_in_titles_are_relative() {
        let cwd = Some("/workspace/demo");
        assert_eq!(relative_in("Read /workspace/demo/notes.md (2 - 4)", cwd), "Read notes.md (2 - 4)");
        assert_eq!(relative_in("ls /workspace/demo", cwd), "ls .");
        assert_eq!(relative_in("cp /workspace/demo/a /workspace/demo/b", cwd), "cp a b");
        assert_eq!(relative_in("cat /workspace/demo2/x", cwd), "cat /workspace/demo2/x");
        assert_eq!(relative_in("x=/workspace/demo/y", cwd), "x=y");
        assert_eq!(relative_in("/opt/workspace/demo/y", cwd), "/opt/workspace/demo/y");
    }

    #[test]
    fn a_long_path_is_cut_in_the_middle_and_keeps_its_name() {
        let t = "Read /home/user/projects/highlighting-speed-src/grammar.rs (1 - 40)";
        let cut = cut_middle(t, 50).unwrap();
        assert_eq!(cut, "Read …/highlighting-speed-src/grammar.rs (1 - 40)");
        assert!(str_width(&cut) <= 50);
        assert_eq!(cut_middle(t, 30).unwrap(), "Read …/grammar.rs (1 - 40)");
        assert_eq!(cut_middle(t, 10), None);
        assert_eq!(cut_middle("Grep TODO (*.md) in a very long sentence", 20), None);
        assert_eq!(cut_middle("short", 20).unwrap(), "short");
        assert_eq!(cut_middle("http://127.0.0.1:18431/a/b/page.html", 20), None);
    }
}
