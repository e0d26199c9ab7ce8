//! Which bash commands are plainly a read or a search, from their words:
//! `cat FILE`, `sed -n 'A,Bp' FILE`, `head [-n N] FILE` (a read whose line
//! numbers the command fixes), `grep -n … PATTERN PATH…` (a search whose
//! output carries line numbers), `find ROOT -name …` (paths). Anything
//! else — a pipe, a redirection, an expansion, another flag — is not: the
//! terminal card draws it. It reads the command only; it never runs it.

/// A command that is plainly a read or a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plain {
    /// Lines `from`..=`to` of `path` (`to` unknown: to the end; `whole`:
    /// the whole file, so its length is the lines printed).
    Read {
        path: String,
        from: u64,
        to: Option<u64>,
        whole: bool,
    },
    /// `grep -n`: `pattern` in `paths`; `named`: each output line starts
    /// with its file's path.
    Grep {
        pattern: String,
        paths: Vec<String>,
        named: bool,
    },
    /// `find`: the paths under `root` that match.
    Find { root: String },
}

/// The words of `cmd` when it is one simple command: quotes removed; no
/// operator, redirection, expansion, comment or glob outside quotes.
pub fn words(cmd: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.trim().chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => cur.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => {
                            let n = chars.next()?;
                            if !matches!(n, '"' | '\\' | '$' | '`') {
                                cur.push('\\');
                            }
                            cur.push(n);
                        }
                        '$' | '`' => return None,
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.push(chars.next().filter(|c| *c != '\n')?);
            }
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '|' | '&' | ';' | '<' | '>' | '(' | ')' | '$' | '`' | '\n' | '\r' | '*' | '?' | '[' | '{' | '~' | '#'
            | '!' => return None,
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    (!words.is_empty()).then_some(words)
}

/// A path argument: not an option.
fn path(w: &str) -> Option<String> {
    (!w.is_empty() && !w.starts_with('-')).then(|| w.to_string())
}

/// What `cmd` plainly is, if it is a read or a search.
pub fn plain(cmd: &str) -> Option<Plain> {
    let w = words(cmd)?;
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    match w.as_slice() {
        ["cat", file] => Some(Plain::Read {
            path: path(file)?,
            from: 1,
            to: None,
            whole: true,
        }),
        ["sed", "-n", script, file] => {
            let range = script.strip_suffix('p')?;
            let (a, b) = range.split_once(',').unwrap_or((range, range));
            let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
            (a >= 1 && b >= a).then_some(())?;
            Some(Plain::Read {
                path: path(file)?,
                from: a,
                to: Some(b),
                whole: false,
            })
        }
        ["head", rest @ ..] => {
            let (n, file) = match rest {
                [file] => (10, *file),
                ["-n", n, file] => (n.parse().ok()?, *file),
                [opt, file] => {
                    let n = opt.strip_prefix("-n").or_else(|| opt.strip_prefix('-'))?;
                    (n.parse().ok()?, *file)
                }
                _ => return None,
            };
            (n >= 1).then_some(())?;
            Some(Plain::Read {
                path: path(file)?,
                from: 1,
                to: Some(n),
                whole: false,
            })
        }
        ["grep", rest @ ..] => grep(rest),
        ["find", root, rest @ ..] => {
            let root = path(root)?;
            let mut it = rest.iter();
            while let Some(p) = it.next() {
                match *p {
                    "-name" | "-iname" | "-path" | "-ipath" | "-type" | "-maxdepth" | "-mindepth" => {
                        it.next()?;
                    }
                    "-print" => {}
                    _ => return None,
                }
            }
            Some(Plain::Find { root })
        }
        _ => None,
    }
}

/// `grep` with short flags among `nrRiwExFHs` (`n` among them), a pattern
/// and paths (none: a recursive search of `.`).
fn grep(args: &[&str]) -> Option<Plain> {
    let mut flags = String::new();
    let mut i = 0;
    while let Some(a) = args.get(i).and_then(|a| a.strip_prefix('-')) {
        if a.is_empty() || !a.chars().all(|c| "nrRiwExFHs".contains(c)) {
            return None;
        }
        flags.push_str(a);
        i += 1;
    }
    if !flags.contains('n') {
        return None;
    }
    let pattern = args.get(i)?.to_string();
    let paths: Vec<String> = args[i + 1..].iter().map(|p| path(p)).collect::<Option<_>>()?;
    let recursive = flags.contains('r') || flags.contains('R');
    if paths.is_empty() && !recursive {
        return None; // it would read its input
    }
    let named = recursive || paths.len() > 1 || flags.contains('H');
    Some(Plain::Grep { pattern, paths, named })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_searches_and_what_is_neither() {
        let read = |p: &str, from, to, whole| Plain::Read { path: p.into(), from, to, whole };
        assert_eq!(plain("cat src/stats.py"), Some(read("src/stats.py", 1, None, true)));
        assert_eq!(plain("cat 'a b.txt'"), Some(read("a b.txt", 1, None, true)));
        assert_eq!(plain("sed -n '12,18p' src/stats.py"), Some(read("src/stats.py", 12, Some(18), false)));
        assert_eq!(plain("sed -n 5p f"), Some(read("f", 5, Some(5), false)));
        assert_eq!(plain("head -n 5 src/stats.py"), Some(read("src/stats.py", 1, Some(5), false)));
        assert_eq!(plain("head -20 f"), Some(read("f", 1, Some(20), false)));
        assert_eq!(plain("head f"), Some(read("f", 1, Some(10), false)));
        let grep = plain("grep -n 'def ' src/stats.py");
        assert_eq!(grep, Some(Plain::Grep { pattern: "def ".into(), paths: vec!["src/stats.py".into()], named: false }));
        assert!(matches!(plain("grep -rn foo"), Some(Plain::Grep { named: true, .. })));
        assert_eq!(plain("find . -name '*.py'"), Some(Plain::Find { root: ".".into() }));
        for not in [
            "cat a b",
            "cat src/*.py",
            "cat f | head",
            "cat f > g",
            "cat $F",
            "sed -n '12,18p;20p' f",
            "sed -i '9s/a/b/' f",
            "sed -n '18,12p' f",
            "head -n -5 f",
            "tail -n 5 f",
            "grep foo f",
            "grep -n -e foo f",
            "grep -n foo",
            "find . -name x -exec rm {} +",
            "find . -delete",
            "nl -ba f | sed -n '1,2p'",
            "python3 test.py\ncd src",
            "ls -R",
            "",
        ] {
            assert_eq!(plain(not), None, "{not:?}");
        }
    }
}
