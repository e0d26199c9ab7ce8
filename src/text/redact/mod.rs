//! Redaction of secrets in text, by the field's rule set: gitleaks' rules
//! (`gitleaks.toml`, v8.30.1, MIT: see `gitleaks.LICENSE`) and deck's own
//! (`rules.toml`: URL passwords, authorization headers, secrets named by
//! their assignment, a few kinds gitleaks lacks), both in gitleaks' format.
//! [`Redactor::redact`] replaces what they find in one string by
//! `‹redacted:KIND›` and the user's home folder by `~`.
//!
//! Owns the matching only: which strings of a session are scanned is the
//! caller's (`session::redact` walks records), and so is what happens to a
//! string that cannot be scanned. Linear in the text: one Aho-Corasick pass
//! over every rule's keywords picks the rules that may match (gitleaks'
//! prefilter), each runs once (the `regex` crate's engines); tokens cut over
//! two lines are looked for in the lines joined, base64 blobs in their
//! decoded text (`decode.rs`). What every finder found is merged and each
//! stretch replaced once. Fails closed: a rule that does not compile is an
//! error naming it, and a string longer than [`MAX_SCAN`] is an error,
//! never passed through.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

mod assign;
mod decode;
mod rules;
#[cfg(test)]
mod tests;

pub use assign::Form;
pub use decode::may_continue;
use assign::{Assignments, PASSWORD, SECRET};
pub use rules::Rule;
use rules::Allow;

/// The field's rule set: gitleaks' default rules, as gitleaks ships them.
pub const GITLEAKS: &str = include_str!("gitleaks.toml");
/// deck's own rules, and the assignment detector's words.
pub const RULES: &str = include_str!("rules.toml");
/// The rule files deck uses, named as reports say them, in the order
/// kinds are preferred.
pub const STOCK: &[(&str, &str)] = &[("gitleaks v8.30.1", GITLEAKS), ("deck", RULES)];

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

/// Who a keyword of the prefilter wakes.
#[derive(Debug, Clone, Copy)]
enum Owner {
    Rule(usize),
    Assignments,
}

/// A stretch of text to replace: bytes `start..end`, of kind `kind` (an
/// index into the redactor's kinds; lower is preferred when stretches
/// overlap). `piece`: a later part of one secret cut over lines (counted
/// once, with its first part).
#[derive(Debug, Clone, Copy)]
struct Found {
    start: usize,
    end: usize,
    kind: usize,
    piece: bool,
}

/// The most rules a redactor holds (the prefilter's bit set).
const MAX_RULES: usize = 512;

/// The rules, compiled, and the home folder to show as `~`.
pub struct Redactor {
    rules: Vec<Rule>,
    global: Vec<Allow>,
    /// Every kind by preference: rules (the demoted ones last) and the
    /// assignment detector's two.
    kinds: Vec<String>,
    /// Per rule, its index in `kinds`.
    rank: Vec<usize>,
    prefilter: AhoCorasick,
    owners: Vec<Vec<Owner>>,
    /// Rules without keywords: run on every text.
    always: Vec<usize>,
    assign: Assignments,
    version: String,
    home: Option<String>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redactor")
            .field("version", &self.version)
            .field("rules", &self.rules.len())
            .finish()
    }
}

impl Redactor {
    /// Rules from rule files' texts (gitleaks' format; one of them holds
    /// the `[assignments]` table), and the home folder to replace (`None`,
    /// or `/`: none).
    pub fn new(files: &[(&str, &str)], home: Option<&str>) -> Result<Redactor, RedactError> {
        let compiled = rules::compile(files)?;
        if compiled.rules.len() > MAX_RULES {
            return Err(RedactError::Rules(format!(
                "{} rules: at most {MAX_RULES}",
                compiled.rules.len()
            )));
        }
        let table = compiled
            .sets
            .iter()
            .find_map(|s| s.assignments.as_ref())
            .ok_or_else(|| RedactError::Rules("no [assignments] table".into()))?;
        let assign = Assignments::new(table)?;
        // Preference: specific rules in file order, then the assignment
        // detector, then the demoted (generic) ones.
        let demoted = |r: &Rule| compiled.sets.iter().any(|s| s.demote.iter().any(|d| d == r.kind()));
        let mut kinds = Vec::new();
        let mut rank = vec![0; compiled.rules.len()];
        for pass in [false, true] {
            for (i, r) in compiled.rules.iter().enumerate() {
                if demoted(r) == pass {
                    rank[i] = kinds.len();
                    kinds.push(r.kind().to_string());
                }
            }
            if !pass {
                kinds.push(PASSWORD.to_string());
                kinds.push(SECRET.to_string());
            }
        }
        let mut words: Vec<String> = Vec::new();
        let mut owners: Vec<Vec<Owner>> = Vec::new();
        let mut add = |w: &str, o: Owner| match words.iter().position(|x| x == w) {
            Some(i) => owners[i].push(o),
            None => {
                words.push(w.to_string());
                owners.push(vec![o]);
            }
        };
        let mut always = Vec::new();
        for (i, r) in compiled.rules.iter().enumerate() {
            if r.keywords().is_empty() {
                always.push(i);
            }
            for k in r.keywords() {
                add(k, Owner::Rule(i));
            }
        }
        for k in assign::KEYWORDS {
            add(k, Owner::Assignments);
        }
        let prefilter = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&words)
            .map_err(|e| RedactError::Rules(format!("keywords: {e}")))?;
        let version = compiled
            .sets
            .iter()
            .map(|s| {
                let used = compiled.rules.iter().filter(|r| r.set() == s.index).count();
                format!(
                    "{} ({used} of {} rules)",
                    s.name,
                    used + s.skipped
                )
            })
            .collect::<Vec<_>>()
            .join(" + ");
        let home = home
            .map(|h| h.trim_end_matches('/'))
            .filter(|h| h.len() > 1)
            .map(str::to_string);
        Ok(Redactor {
            rules: compiled.rules,
            global: compiled.global,
            kinds,
            rank,
            prefilter,
            owners,
            always,
            assign,
            version,
            home,
        })
    }

    /// deck's rules and the user's home folder, compiled once.
    pub fn stock() -> Result<&'static Redactor, RedactError> {
        static STOCK_REDACTOR: OnceLock<Result<Redactor, RedactError>> = OnceLock::new();
        STOCK_REDACTOR
            .get_or_init(|| {
                let home = etcetera::home_dir().ok();
                Redactor::new(STOCK, home.as_deref().and_then(std::path::Path::to_str))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The rules, in file order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The rule sets and how many of their rules are used
    /// (`gitleaks v8.30.1 (217 of 222 rules) + deck 2 (…)`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// `text` with every secret replaced, counted in `tally`; borrowed when
    /// nothing was.
    pub fn redact<'a>(&self, text: &'a str, tally: &mut Tally) -> Result<Cow<'a, str>, RedactError> {
        if text.len() > MAX_SCAN {
            return Err(RedactError::TooLong(text.len()));
        }
        let mut found = Vec::new();
        self.find(text, &mut found);
        decode::joined(self, text, &mut found);
        decode::base64(self, text, &mut found);
        let out = self.replace(text, found, tally);
        Ok(self.home(out, tally))
    }

    /// `value`, a JSON string under `key` in which [`Redactor::redact`]
    /// found nothing, replaced whole when the key names a secret and the
    /// value looks like one (`{"password": "…"}`, an environment's
    /// `{"OPENAI_API_KEY": "…"}`); `None`: it stays.
    pub fn redact_keyed(&self, key: &str, value: &str, tally: &mut Tally) -> Option<String> {
        if value.len() > 4096 {
            return None;
        }
        let kind = self.assign.judge(key, value, true, Form::Keyed, None)?;
        tally.add(kind, 1);
        Some(mark(kind))
    }

    /// The secrets the rules and the assignments find in `text`, not
    /// replaced (what the joined lines and decoded blobs are scanned with).
    fn find(&self, text: &str, found: &mut Vec<Found>) {
        let mut wake = [0u64; MAX_RULES / 64];
        let mut assign = false;
        let mut any = false;
        for m in self.prefilter.find_overlapping_iter(text) {
            any = true;
            for o in self.owners.get(m.pattern().as_usize()).into_iter().flatten() {
                match *o {
                    Owner::Rule(i) => wake[i / 64] |= 1 << (i % 64),
                    Owner::Assignments => assign = true,
                }
            }
        }
        for &i in &self.always {
            wake[i / 64] |= 1 << (i % 64);
            any = true;
        }
        if !any {
            return;
        }
        let mut spans = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            if wake[i / 64] & (1 << (i % 64)) == 0 {
                continue;
            }
            spans.clear();
            rule.find(text, &self.global, &mut spans);
            let kind = self.rank[i];
            found.extend(spans.iter().map(|&(start, end)| Found {
                start,
                end,
                kind,
                piece: false,
            }));
        }
        if assign {
            let mut got = Vec::new();
            self.assign.find(text, &mut got);
            for (start, end, kind) in got {
                if let Some(kind) = self.kinds.iter().position(|k| k == kind) {
                    found.push(Found {
                        start,
                        end,
                        kind,
                        piece: false,
                    });
                }
            }
        }
    }

    /// The stretches found counted in `tally` as [`Redactor::replace`]
    /// counts them, nothing built.
    fn count(&self, mut found: Vec<Found>, tally: &mut Tally) {
        for (run, counted) in runs(&mut found) {
            if counted {
                tally.add(self.kinds.get(run.kind).map_or("secret", String::as_str), 1);
            }
        }
    }

    /// `text` with the stretches found replaced, each run of overlapping
    /// ones once, by the preferred kind among them.
    fn replace<'a>(&self, text: &'a str, mut found: Vec<Found>, tally: &mut Tally) -> Cow<'a, str> {
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (run, counted) in runs(&mut found) {
            // Never cut a character (ranges come from matches, but be sure).
            let (Some(before), Some(_)) = (text.get(last..run.start), text.get(run.start..run.end))
            else {
                continue;
            };
            out.push_str(before);
            let kind = self.kinds.get(run.kind).map_or("secret", String::as_str);
            out.push_str(&mark(kind));
            if counted {
                tally.add(kind, 1);
            }
            last = run.end;
        }
        out.push_str(&text[last..]);
        Cow::Owned(out)
    }

    /// The home folder replaced by `~` in `text`.
    fn home<'a>(&self, text: Cow<'a, str>, tally: &mut Tally) -> Cow<'a, str> {
        match &self.home {
            Some(home) if text.contains(home.as_str()) => match replace_home(&text, home) {
                (n, Some(r)) => {
                    tally.add(HOME_KIND, n);
                    Cow::Owned(r)
                }
                _ => text,
            },
            _ => text,
        }
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
                    head = mark(PRIVATE_KEY);
                    rest = &text[end..];
                    carry.in_key = false;
                }
                None => {
                    tally.add(PRIVATE_KEY, 1);
                    return Ok(Cow::Owned(mark(PRIVATE_KEY)));
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

    /// Secrets cut over a run of strings that are lines of one text (a
    /// read card's lines, a search's matching lines): the lines joined are
    /// scanned for what crosses their ends, and each line's part of it is
    /// replaced in place (each string otherwise as it is: redact it alone
    /// too). Whether any changed.
    pub fn redact_across(&self, lines: &mut [&mut String], tally: &mut Tally) -> Result<bool, RedactError> {
        if lines.len() < 2 {
            return Ok(false);
        }
        let mut joined = String::new();
        let mut starts = Vec::with_capacity(lines.len());
        for l in lines.iter() {
            starts.push(joined.len());
            joined.push_str(l);
            joined.push('\n');
            if joined.len() > MAX_SCAN {
                return Err(RedactError::TooLong(joined.len()));
            }
        }
        let mut found = Vec::new();
        decode::joined(self, &joined, &mut found);
        if found.is_empty() {
            return Ok(false);
        }
        let mut per: Vec<Vec<Found>> = vec![Vec::new(); lines.len()];
        for f in found {
            let i = starts.partition_point(|&s| s <= f.start).saturating_sub(1);
            let base = starts[i];
            per[i].push(Found {
                start: f.start - base,
                end: f.end - base,
                ..f
            });
        }
        let mut changed = false;
        for (line, found) in lines.iter_mut().zip(per) {
            if found.is_empty() {
                continue;
            }
            if let Cow::Owned(new) = self.replace(line, found, tally) {
                **line = new;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// The kinds the rules would still replace in `text` (an export's
    /// last check of what it wrote); empty when none.
    pub fn leaks(&self, text: &str) -> Result<Tally, RedactError> {
        let mut tally = Tally::default();
        if text.len() > MAX_SCAN {
            return Err(RedactError::TooLong(text.len()));
        }
        let mut found = Vec::new();
        self.find(text, &mut found);
        decode::joined(self, text, &mut found);
        decode::base64(self, text, &mut found);
        self.count(found, &mut tally);
        Ok(tally)
    }

    /// The kinds found in `joined` (two rows of output put together) by
    /// stretches that cross byte `junction`: a secret a wrap cut in two.
    /// With `token`, only a token cut in two (a stretch of token
    /// characters on both sides: what may be cut wherever rows end).
    pub fn leaks_across(&self, joined: &str, junction: usize, token: bool) -> Result<Tally, RedactError> {
        if joined.len() > MAX_SCAN {
            return Err(RedactError::TooLong(joined.len()));
        }
        let mut found = Vec::new();
        self.find(joined, &mut found);
        found.retain(|f| {
            f.start < junction
                && f.end > junction
                && (!token
                    || joined
                        .get(f.start..f.end)
                        .is_some_and(|t| t.trim_end_matches('=').bytes().all(decode::token_char)))
        });
        let mut tally = Tally::default();
        self.count(found, &mut tally);
        Ok(tally)
    }
}

/// `‹redacted:KIND›`.
fn mark(kind: &str) -> String {
    format!("‹redacted:{kind}›")
}

/// A character of a path name (what may not touch the home folder's ends).
fn path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// `home` replaced by `~` where it stands as a whole path, at the start of
/// one: not inside a longer name (`/home/al` in `/home/alice`), not after
/// `/` or `:` (`mysql://root:pw@host` with home `/root` is no path), a
/// trailing `.` allowed when a sentence ends there.
/// The stretches found, sorted, as runs of overlapping ones: each run's
/// span, the preferred (lowest) kind among them, and whether any of them
/// counts (is not a piece of a secret counted elsewhere).
fn runs(found: &mut [Found]) -> impl Iterator<Item = (Found, bool)> + '_ {
    found.sort_by_key(|f| (f.start, f.kind));
    let mut i = 0;
    std::iter::from_fn(move || {
        let mut run = *found.get(i)?;
        let mut counted = !run.piece;
        i += 1;
        while i < found.len() && found[i].start < run.end {
            run.end = run.end.max(found[i].end);
            run.kind = run.kind.min(found[i].kind);
            counted |= !found[i].piece;
            i += 1;
        }
        Some((run, counted))
    })
}

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
        let whole_before = before.is_none_or(|c| !path_char(c) && !matches!(c, '/' | ':' | '@'));
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
