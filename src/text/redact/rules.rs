//! Rule files in gitleaks' format, read and compiled: the field's rule set
//! (`gitleaks.toml`, gitleaks v8.30.1, MIT) and deck's own (`rules.toml`),
//! one loader for both.
//!
//! Owns what a rule file means: each rule's regex (Go's RE2 syntax, read
//! by the `regex` crate with `\w`, `\d`, `\s` and `\b` made ASCII as Go
//! has them), its secret group, its entropy floor, its keywords (the
//! prefilter: a rule runs on a text only when one of its keywords is in
//! it), its allowlists and the global one — and finding a rule's secrets
//! in a text. Which rules run on a text, and what is replaced, is the
//! redactor's (`mod.rs`).
//!
//! Rules restricted to file paths (`path = …`, five of gitleaks') are not
//! used: a session's strings have no path to match.

use aho_corasick::AhoCorasick;
use regex::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};
use serde::Deserialize;

use super::RedactError;

/// Compiled size allowed for one rule (gitleaks' generic rule needs more
/// than the crate's default 10 MiB even with ASCII classes).
const SIZE_LIMIT: usize = 64 << 20;
/// The lazy DFA's cache for one rule: gitleaks' generic rule fills the
/// crate's default 2 MiB on code and would be rebuilt again and again.
const DFA_LIMIT: usize = 16 << 20;

/// One rule file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct File {
    title: Option<String>,
    min_version: Option<String>,
    allowlist: Option<AllowSpec>,
    #[serde(default)]
    rules: Vec<RuleSpec>,
    /// deck's own: the assignment detector's words (`assign.rs`).
    assignments: Option<toml::Value>,
    /// deck's own: rules (of any file) whose kind is the last choice when
    /// findings overlap (gitleaks' generic rule).
    #[serde(default)]
    demote: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RuleSpec {
    id: String,
    description: Option<String>,
    regex: Option<String>,
    secret_group: Option<usize>,
    entropy: Option<f64>,
    #[serde(default)]
    keywords: Vec<String>,
    path: Option<String>,
    #[serde(default)]
    allowlists: Vec<AllowSpec>,
    /// deck's own rules: a text holding a secret of this kind (tested).
    sample: Option<String>,
    /// … and the part of it that must be gone (default: all of it).
    secret: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct AllowSpec {
    description: Option<String>,
    condition: Option<String>,
    regex_target: Option<String>,
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    paths: Vec<String>,
}

/// What an allowlist's regexes are matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

/// A compiled allowlist: a finding it allows is not a secret.
#[derive(Debug)]
pub struct Allow {
    target: Target,
    regexes: Option<RegexSet>,
    stopwords: Option<AhoCorasick>,
    /// `condition = "AND"`: every check it has must hold.
    all: bool,
    /// It names paths: under AND it never holds here (no paths).
    paths: bool,
}

impl Allow {
    fn new(spec: &AllowSpec, rule: &str) -> Result<Allow, RedactError> {
        let target = match spec.regex_target.as_deref() {
            None | Some("secret") => Target::Secret,
            Some("match") => Target::Match,
            Some("line") => Target::Line,
            Some(other) => {
                return Err(RedactError::Rule {
                    kind: rule.to_string(),
                    why: format!("unknown allowlist regexTarget {other:?}"),
                });
            }
        };
        let regexes = if spec.regexes.is_empty() {
            None
        } else {
            let pats: Vec<String> = spec.regexes.iter().map(|p| ascii(p)).collect();
            Some(
                RegexSetBuilder::new(&pats)
                    .size_limit(SIZE_LIMIT)
                    .build()
                    .map_err(|e| RedactError::Rule {
                        kind: rule.to_string(),
                        why: format!("allowlist: {e}"),
                    })?,
            )
        };
        let stopwords = if spec.stopwords.is_empty() {
            None
        } else {
            let words: Vec<String> = spec.stopwords.iter().map(|w| w.to_lowercase()).collect();
            Some(AhoCorasick::new(&words).map_err(|e| RedactError::Rule {
                kind: rule.to_string(),
                why: format!("stopwords: {e}"),
            })?)
        };
        Ok(Allow {
            target,
            regexes,
            stopwords,
            all: spec
                .condition
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case("and")),
            paths: !spec.paths.is_empty(),
        })
    }

    /// Whether this allowlist lets a finding pass (gitleaks'
    /// `checkFindingAllowed`): its regexes on the target, its stopwords in
    /// the secret (lowercased).
    fn allows(&self, secret: &str, matched: &str, line: &str) -> bool {
        let target = match self.target {
            Target::Secret => secret,
            Target::Match => matched,
            Target::Line => line,
        };
        let regex = || {
            !target.is_empty()
                && self.regexes.as_ref().is_some_and(|set| set.is_match(target))
        };
        let stop = || {
            !secret.is_empty()
                && self
                    .stopwords
                    .as_ref()
                    .is_some_and(|ac| ac.is_match(&secret.to_lowercase()))
        };
        if self.all {
            if self.paths {
                return false;
            }
            let mut any = false;
            if self.regexes.is_some() {
                any = true;
                if !regex() {
                    return false;
                }
            }
            if self.stopwords.is_some() {
                any = true;
                if !stop() {
                    return false;
                }
            }
            any
        } else {
            regex() || stop()
        }
    }
}

/// A compiled rule.
#[derive(Debug)]
pub struct Rule {
    id: String,
    regex: Regex,
    secret_group: Option<usize>,
    entropy: Option<f64>,
    keywords: Vec<String>,
    allow: Vec<Allow>,
    sample: Option<String>,
    secret: Option<String>,
    /// Which file it came from (an index into the redactor's sets).
    set: usize,
}

impl Rule {
    /// The rule's id: the name in `‹redacted:KIND›`.
    pub fn kind(&self) -> &str {
        &self.id
    }

    /// deck's own rules: the sample text holding a secret of this kind.
    pub fn sample(&self) -> Option<&str> {
        self.sample.as_deref()
    }

    /// The part of the sample that must be gone once redacted.
    pub fn secret(&self) -> Option<&str> {
        self.secret.as_deref().or(self.sample.as_deref())
    }

    /// The lowercased keywords that make the rule run on a text.
    pub fn keywords(&self) -> &[String] {
        &self.keywords
    }

    /// The index of the rule set (file) it belongs to.
    pub fn set(&self) -> usize {
        self.set
    }

    /// Push the secrets this rule finds in `text` (byte ranges), allowed
    /// neither by `global` nor by its own allowlists.
    pub(super) fn find(&self, text: &str, global: &[Allow], out: &mut Vec<(usize, usize)>) {
        for caps in self.regex.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            // gitleaks trims newlines off a match's ends.
            let matched = whole.as_str().trim_matches('\n');
            if matched.is_empty() {
                continue;
            }
            let secret = match self.secret_group {
                Some(g) => caps.get(g),
                None => caps.iter().skip(1).flatten().find(|m| !m.is_empty()),
            };
            let (start, end) = match secret {
                Some(m) => (m.start(), m.end()),
                None => {
                    let lead = whole.as_str().len() - whole.as_str().trim_start_matches('\n').len();
                    (whole.start() + lead, whole.start() + lead + matched.len())
                }
            };
            let Some(secret) = text.get(start..end) else {
                continue;
            };
            // A value already replaced is not a secret again.
            if secret.contains('‹') || secret.is_empty() {
                continue;
            }
            if self.entropy.is_some_and(|min| entropy(secret) <= min) {
                continue;
            }
            let line = line_of(text, whole.start(), whole.end());
            if global
                .iter()
                .chain(&self.allow)
                .any(|a| a.allows(secret, matched, line))
            {
                continue;
            }
            out.push((start, end));
        }
    }
}

/// The lines a match spans.
fn line_of(text: &str, start: usize, end: usize) -> &str {
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let to = text[end..].find('\n').map_or(text.len(), |i| end + i);
    &text[from..to]
}

/// One rule file compiled.
#[derive(Debug)]
pub struct Set {
    /// Its place among the files.
    pub index: usize,
    /// Its name and version, as reports say it (`gitleaks v8.30.1`).
    pub name: String,
    /// Rules of the file left out (restricted to paths, or without a regex).
    pub skipped: usize,
    pub assignments: Option<toml::Value>,
    pub demote: Vec<String>,
}

/// Every rule of the files, in order, the files' global allowlists (one
/// list: each applies to every rule, as in gitleaks), and the sets.
pub struct Compiled {
    pub rules: Vec<Rule>,
    pub global: Vec<Allow>,
    pub sets: Vec<Set>,
}

/// Read and compile the rule files, in order.
pub fn compile(files: &[(&str, &str)]) -> Result<Compiled, RedactError> {
    let mut out = Compiled {
        rules: Vec::new(),
        global: Vec::new(),
        sets: Vec::new(),
    };
    for (set, (name, text)) in files.iter().enumerate() {
        let file: File = toml::from_str(text).map_err(|e| RedactError::Rules(e.to_string()))?;
        let _ = (&file.min_version, &file.title);
        if let Some(a) = &file.allowlist {
            let _ = &a.description;
            out.global.push(Allow::new(a, "(global allowlist)")?);
        }
        let mut skipped = 0;
        for spec in file.rules {
            let _ = &spec.description;
            let Some(pattern) = spec.regex.as_deref().filter(|_| spec.path.is_none()) else {
                skipped += 1;
                continue;
            };
            let regex = RegexBuilder::new(&ascii(pattern))
                .size_limit(SIZE_LIMIT)
                .dfa_size_limit(DFA_LIMIT)
                .build()
                .map_err(|e| RedactError::Rule {
                    kind: spec.id.clone(),
                    why: e.to_string(),
                })?;
            let allow = spec
                .allowlists
                .iter()
                .map(|a| Allow::new(a, &spec.id))
                .collect::<Result<Vec<_>, _>>()?;
            if spec.secret_group.is_some_and(|g| g >= regex.captures_len()) {
                return Err(RedactError::Rule {
                    kind: spec.id,
                    why: "secretGroup names no group of the regex".into(),
                });
            }
            out.rules.push(Rule {
                id: spec.id,
                regex,
                secret_group: spec.secret_group,
                entropy: spec.entropy.filter(|e| *e > 0.0),
                keywords: spec.keywords.iter().map(|k| k.to_lowercase()).collect(),
                allow,
                sample: spec.sample,
                secret: spec.secret,
                set,
            });
        }
        out.sets.push(Set {
            index: set,
            name: name.to_string(),
            demote: file.demote,
            skipped,
            assignments: file.assignments,
        });
    }
    Ok(out)
}

/// A Go RE2 pattern as the `regex` crate reads it with Go's meaning: the
/// Perl classes `\w`, `\d`, `\s` (and their negations) and `\b` are ASCII
/// in Go, Unicode-aware in the `regex` crate (and far bigger compiled).
pub fn ascii(p: &str) -> String {
    let mut out = String::with_capacity(p.len() + 16);
    let mut class = 0usize;
    let mut it = p.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\\' => {
                let Some(d) = it.next() else {
                    out.push('\\');
                    break;
                };
                let inside = class > 0;
                match d {
                    'w' if inside => out.push_str("0-9A-Za-z_"),
                    'w' => out.push_str("[0-9A-Za-z_]"),
                    'd' if inside => out.push_str("0-9"),
                    'd' => out.push_str("[0-9]"),
                    's' if inside => out.push_str(r"\t\n\f\r "),
                    's' => out.push_str(r"[\t\n\f\r ]"),
                    'W' if inside => out.push_str("[:^word:]"),
                    'W' => out.push_str("[[:^word:]]"),
                    'D' if inside => out.push_str("[:^digit:]"),
                    'D' => out.push_str("[[:^digit:]]"),
                    'S' if inside => out.push_str("[:^space:]"),
                    'S' => out.push_str("[[:^space:]]"),
                    'b' if !inside => out.push_str(r"(?-u:\b)"),
                    'B' if !inside => out.push_str(r"(?-u:\B)"),
                    d => {
                        out.push('\\');
                        out.push(d);
                    }
                }
            }
            '[' if class > 0 && it.peek() == Some(&':') => {
                // A POSIX class inside a class: copied whole.
                out.push('[');
                for e in it.by_ref() {
                    out.push(e);
                    if e == ']' {
                        break;
                    }
                }
            }
            '[' => {
                class += 1;
                out.push('[');
                if it.peek() == Some(&'^') {
                    out.push('^');
                    it.next();
                }
                if it.peek() == Some(&']') {
                    out.push(']');
                    it.next();
                }
            }
            ']' if class > 0 => {
                class -= 1;
                out.push(']');
            }
            // Go reads a `{` that starts no repetition (`{x}`, or after
            // `(`, `|` or nothing) as itself; the `regex` crate refuses it.
            '{' if class == 0 => {
                let rest: String = it.clone().take(24).collect();
                let counts = rest
                    .split_once('}')
                    .is_some_and(|(n, _)| {
                        let mut parts = n.splitn(2, ',');
                        let a = parts.next().unwrap_or("");
                        !a.is_empty()
                            && a.chars().all(|c| c.is_ascii_digit())
                            && parts.next().is_none_or(|b| b.chars().all(|c| c.is_ascii_digit()))
                    });
                let after_atom = !(out.is_empty() || out.ends_with('(') || out.ends_with('|'))
                    || out.ends_with("\\(")
                    || out.ends_with("\\|");
                if counts && after_atom {
                    out.push('{');
                } else {
                    out.push_str("\\{");
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Shannon entropy of the bytes of `s`, in bits a byte (gitleaks counts
/// characters; the secrets its rules take are ASCII, where they agree).
pub fn entropy(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in s.bytes() {
        counts[usize::from(b)] += 1;
    }
    let len = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / len;
            -p * p.log2()
        })
        .sum()
}
