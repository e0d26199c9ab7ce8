//! Redaction of secrets in text: the rules (`rules.toml`, one data file,
//! parsed once), and [`Redactor::redact`], which replaces what they match
//! in one string by `‹redacted:KIND›` and the user's home folder by `~`.
//!
//! Owns the matching only: which strings of a session are scanned is the
//! caller's (`session::redact` walks records), and so is what happens to
//! a string that cannot be scanned. Linear in the text: the `regex` crate's
//! engines, one [`RegexSet`] pass to skip strings no rule matches, then one
//! pass per rule that does. Fails closed: a rule that does not compile is an
//! error naming it, and a string longer than [`MAX_SCAN`] is an error, never
//! passed through.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::{Regex, RegexSet};
use serde::Deserialize;

#[cfg(test)]
mod tests;

/// The rules deck ships.
pub const RULES: &str = include_str!("rules.toml");

/// The longest string scanned (64 MiB): a longer one is refused, not passed.
pub const MAX_SCAN: usize = 64 << 20;

/// The kind of a private key block, which [`Redactor::redact_next`]
/// follows from one string into the next.
pub const PRIVATE_KEY: &str = "private-key";
const KEY_BEGIN: &str = "-----BEGIN";
const KEY_END: &str = "-----END";

/// Whether a private key block is open at the end of the strings so far
/// (see [`Redactor::redact_next`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Carry {
    in_key: bool,
}

/// The kind a home folder counts under in reports (it is replaced by `~`).
pub const HOME_KIND: &str = "home";

/// Why text could not be redacted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RedactError {
    #[error("redaction rules do not parse: {0}")]
    Rules(String),
    #[error("redaction rule {kind:?} does not compile: {why}")]
    Rule { kind: String, why: String },
    #[error("a string of {0} bytes is longer than redaction scans ({MAX_SCAN} bytes)")]
    TooLong(usize),
}

/// One rule of the data file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSpec {
    kind: String,
    pattern: String,
    sample: String,
    secret: Option<String>,
    min_entropy: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    rule: Vec<RuleSpec>,
}

/// A compiled rule.
#[derive(Debug)]
pub struct Rule {
    kind: String,
    regex: Regex,
    /// Capture groups named `secret…`, in order: the first that took part
    /// is replaced; none, the whole match.
    groups: Vec<usize>,
    min_entropy: Option<f64>,
    sample: String,
    secret: Option<String>,
}

impl Rule {
    /// The name in `‹redacted:KIND›`.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The data file's sample text holding a secret of this kind.
    pub fn sample(&self) -> &str {
        &self.sample
    }

    /// The part of the sample that must be gone once redacted.
    pub fn secret(&self) -> &str {
        self.secret.as_deref().unwrap_or(&self.sample)
    }
}

/// What was replaced: a count per kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally(BTreeMap<String, usize>);

impl Tally {
    fn add(&mut self, kind: &str, n: usize) {
        if n > 0 {
            *self.0.entry(kind.to_string()).or_default() += n;
        }
    }

    /// Kinds and counts, by kind.
    pub fn iter(&self) -> impl Iterator<Item = (&str, usize)> {
        self.0.iter().map(|(k, n)| (k.as_str(), *n))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Add another tally's counts.
    pub fn merge(&mut self, other: &Tally) {
        for (k, n) in other.iter() {
            self.add(k, n);
        }
    }
}

/// The rules, compiled, and the home folder to show as `~`.
#[derive(Debug)]
pub struct Redactor {
    rules: Vec<Rule>,
    set: RegexSet,
    home: Option<String>,
}

impl Redactor {
    /// Rules from a rules file's text, and the home folder to replace
    /// (`None`, or `/`: none).
    pub fn new(rules: &str, home: Option<&str>) -> Result<Redactor, RedactError> {
        let file: RulesFile = toml::from_str(rules).map_err(|e| RedactError::Rules(e.to_string()))?;
        let mut out = Vec::with_capacity(file.rule.len());
        for spec in file.rule {
            let regex = Regex::new(&spec.pattern).map_err(|e| RedactError::Rule {
                kind: spec.kind.clone(),
                why: e.to_string(),
            })?;
            let groups = regex
                .capture_names()
                .enumerate()
                .filter(|(_, n)| n.is_some_and(|n| n.starts_with("secret")))
                .map(|(i, _)| i)
                .collect();
            out.push(Rule {
                kind: spec.kind,
                regex,
                groups,
                min_entropy: spec.min_entropy,
                sample: spec.sample,
                secret: spec.secret,
            });
        }
        let set = RegexSet::new(out.iter().map(|r| r.regex.as_str())).map_err(|e| {
            RedactError::Rules(format!("the rules together do not compile: {e}"))
        })?;
        let home = home
            .map(|h| h.trim_end_matches('/'))
            .filter(|h| h.len() > 1)
            .map(str::to_string);
        Ok(Redactor {
            rules: out,
            set,
            home,
        })
    }

    /// deck's rules and the user's home folder, compiled once.
    pub fn stock() -> Result<&'static Redactor, RedactError> {
        static STOCK: OnceLock<Result<Redactor, RedactError>> = OnceLock::new();
        STOCK
            .get_or_init(|| {
                let home = etcetera::home_dir().ok();
                Redactor::new(RULES, home.as_deref().and_then(std::path::Path::to_str))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The rules, in the order they are tried.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// `text` with every secret replaced, counted in `tally`; borrowed when
    /// nothing was.
    pub fn redact<'a>(&self, text: &'a str, tally: &mut Tally) -> Result<Cow<'a, str>, RedactError> {
        if text.len() > MAX_SCAN {
            return Err(RedactError::TooLong(text.len()));
        }
        let mut out = Cow::Borrowed(text);
        if self.set.is_match(text) {
            for i in self.set.matches(text).iter() {
                let Some(rule) = self.rules.get(i) else {
                    continue;
                };
                let (n, replaced) = apply(rule, &out);
                if let Some(r) = replaced {
                    tally.add(&rule.kind, n);
                    out = Cow::Owned(r);
                }
            }
        }
        if let Some(home) = &self.home
            && out.contains(home.as_str())
        {
            let (n, replaced) = replace_home(&out, home);
            if let Some(r) = replaced {
                tally.add(HOME_KIND, n);
                out = Cow::Owned(r);
            }
        }
        Ok(out)
    }

    /// [`Redactor::redact`] for one of a run of strings that may continue
    /// each other (the lines of a read card, a search's matching lines): a
    /// private key block begun in one and not ended is redacted on, whole
    /// strings, up to its end marker. `carry` says a block is open.
    pub fn redact_next<'a>(
        &self,
        text: &'a str,
        carry: &mut Carry,
        tally: &mut Tally,
    ) -> Result<Cow<'a, str>, RedactError> {
        let mut rest = text;
        let mut head = String::new();
        if carry.in_key {
            match text.find(KEY_END).and_then(|at| {
                text[at + KEY_END.len()..]
                    .find("-----")
                    .map(|e| at + KEY_END.len() + e + 5)
            }) {
                Some(end) => {
                    head = format!("‹redacted:{PRIVATE_KEY}›");
                    rest = &text[end..];
                    carry.in_key = false;
                }
                None => {
                    tally.add(PRIVATE_KEY, 1);
                    return Ok(Cow::Owned(format!("‹redacted:{PRIVATE_KEY}›")));
                }
            }
            tally.add(PRIVATE_KEY, 1);
        }
        // A block begun here and not ended: the strings after it are in it.
        if let Some(begin) = rest.rfind(KEY_BEGIN)
            && rest[begin..].contains("PRIVATE KEY")
            && !rest[begin..].contains(KEY_END)
        {
            carry.in_key = true;
        }
        let out = self.redact(rest, tally)?;
        Ok(if head.is_empty() {
            out
        } else {
            Cow::Owned(head + &out)
        })
    }

    /// The kinds the rules would still replace in `text` (an export's
    /// last check of what it wrote); empty when none.
    pub fn leaks(&self, text: &str) -> Result<Tally, RedactError> {
        let mut tally = Tally::default();
        self.redact(text, &mut tally)?;
        Ok(tally)
    }
}

/// One rule over `text`: how many it replaced, and the new text if any.
fn apply(rule: &Rule, text: &str) -> (usize, Option<String>) {
    let mut out = String::new();
    let (mut last, mut n) = (0, 0);
    for caps in rule.regex.captures_iter(text) {
        let m = if rule.groups.is_empty() {
            caps.get(0)
        } else {
            rule.groups.iter().find_map(|&g| caps.get(g))
        };
        let Some(m) = m else { continue };
        if rule.min_entropy.is_some_and(|min| !random_enough(m.as_str(), min))
            || m.as_str().starts_with(ENCODED_MARK)
        {
            continue;
        }
        out.push_str(&text[last..m.start()]);
        out.push_str("‹redacted:");
        out.push_str(&rule.kind);
        out.push('›');
        last = m.end();
        n += 1;
    }
    if n == 0 {
        return (0, None);
    }
    out.push_str(&text[last..]);
    (n, Some(out))
}

/// A redaction mark percent-encoded (in a link's URL): not a secret.
const ENCODED_MARK: &str = "%E2%80%B9redacted:";

/// A character of a path name (what may not touch the home folder's ends).
fn path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// `home` replaced by `~` where it stands as a whole path: not inside a
/// longer name (`/home/al` in `/home/alice`), a trailing `.` allowed
/// when a sentence ends there.
fn replace_home(text: &str, home: &str) -> (usize, Option<String>) {
    let mut out = String::new();
    let (mut last, mut n) = (0, 0);
    for (at, _) in text.match_indices(home) {
        if at < last {
            continue;
        }
        let before = text[..at].chars().next_back();
        let mut after = text[at + home.len()..].chars();
        let next = after.next();
        let whole_before = before.is_none_or(|c| !path_char(c));
        let whole_after = match next {
            None => true,
            Some('.') => after.next().is_none_or(|c| !path_char(c)),
            Some(c) => !path_char(c),
        };
        if whole_before && whole_after {
            out.push_str(&text[last..at]);
            out.push('~');
            last = at + home.len();
            n += 1;
        }
    }
    if n == 0 {
        return (0, None);
    }
    out.push_str(&text[last..]);
    (n, Some(out))
}

/// A value random enough to be a secret: of at least `min` bits a
/// character, with a letter and a digit, and not hex (a git SHA), a UUID
/// or a path.
fn random_enough(value: &str, min: f64) -> bool {
    let hex = value.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    let path = value.starts_with(['/', '.', '~']);
    let letter = value.chars().any(|c| c.is_ascii_alphabetic());
    let digit = value.chars().any(|c| c.is_ascii_digit());
    !hex && !path && letter && digit && entropy(value) >= min
}

/// Shannon entropy of the bytes of `s`, in bits a byte.
fn entropy(s: &str) -> f64 {
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
