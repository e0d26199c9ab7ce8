//! Sharing without secrets, for the commands that write a session out
//! (`deck export`, on by default; `deck render --redact`): the chosen
//! session's records redacted before the fold (`session::redact`), the
//! `--redact-report`, the last check of what was written, and writing a
//! file whole or not at all.
//!
//! Fails closed: a rule that does not compile, a string that cannot be
//! scanned, or anything in the finished output that a rule still matches
//! stops the command with a message saying why, and the output is not
//! written. Output is staged in a temporary file (next to the
//! destination, or in the temp folder for stdout) and renamed or copied
//! only once it passed.

use crate::session::redact::{self, Hit};
use crate::source::LoadedSession;
use crate::text::redact::{Redactor, Tally};
use crate::text::sanitize;

mod check;
mod staged;

pub use check::{Checker, Shape, leaks};
pub use staged::Staged;

/// The redactor, or why there is none (which stops the command).
pub fn redactor() -> anyhow::Result<&'static Redactor> {
    Redactor::stock().map_err(|e| anyhow::anyhow!("{e}: nothing written"))
}

/// Replace `s`'s records by their redacted copies; what was replaced.
pub fn session(r: &Redactor, s: &mut LoadedSession) -> anyhow::Result<Vec<Hit>> {
    let done = redact::records(r, s.id.as_deref(), &s.records)
        .map_err(|e| anyhow::anyhow!("{e}: nothing written"))?;
    s.records = done.records;
    // The header is not drawn, but nothing unredacted is kept.
    s.header = None;
    Ok(done.hits)
}

/// Session `id` (default: the first) of the input at `path`, taken out of
/// what was loaded (held once), redacted when `redactor` is given — the
/// messages of a load that fails too — and what was replaced. The other
/// sessions of the input are said on stderr (`deck export`, `deck render`).
pub fn take_session(
    path: &str,
    id: Option<&str>,
    redactor: Option<&Redactor>,
) -> anyhow::Result<(LoadedSession, Vec<Hit>)> {
    let scrub = |e: anyhow::Error| match redactor {
        Some(r) => error(r, crate::commands::error_message(&e)),
        None => e,
    };
    let mut loaded = crate::source::load_path(path).map_err(|e| scrub(e.into()))?;
    let at = loaded.session(id).map_err(|e| scrub(e.into()))?.id.clone();
    super::report::report_other_sessions(&loaded, id);
    let mut s = loaded
        .sessions
        .iter()
        .position(|x| x.id == at)
        .map(|i| loaded.sessions.swap_remove(i))
        .unwrap_or_default();
    drop(loaded);
    let hits = match redactor {
        Some(r) => session(r, &mut s)?,
        None => Vec::new(),
    };
    Ok((s, hits))
}

/// One string redacted (a title, a label), or why it cannot be.
pub fn text(r: &Redactor, s: &str) -> anyhow::Result<String> {
    r.redact(s, &mut Tally::default())
        .map(std::borrow::Cow::into_owned)
        .map_err(|e| anyhow::anyhow!("{e}: nothing written"))
}

/// An error whose message may quote the input (a damaged line's
/// snippet), redacted; one that cannot be is replaced by a plain one.
pub fn error(r: &Redactor, e: impl std::fmt::Display) -> anyhow::Error {
    let msg = e.to_string();
    match r.redact(&msg, &mut Tally::default()) {
        Ok(m) => anyhow::anyhow!("{m}"),
        Err(_) => anyhow::anyhow!("the input cannot be read (its message is too long to redact)"),
    }
}

/// Say on stderr what was redacted: with `list`, the rule sets used
/// (`redaction rules: gitleaks v8.30.1 (217 of 222 rules) + deck (…)`) and
/// a line per kind and card (`redacted kind=K session=S card=C count=N`,
/// never a value), then a total.
pub fn report(r: &Redactor, hits: &[Hit], list: bool) {
    if list {
        eprintln!("redaction rules: {}", r.version());
        for h in hits {
            eprintln!(
                "{}",
                sanitize::inline(&format!(
                    "redacted kind={} session={} card={} count={}",
                    h.kind,
                    h.session.as_deref().unwrap_or("-"),
                    h.card,
                    h.count
                ))
            );
        }
    }
    let n: usize = hits.iter().map(|h| h.count).sum();
    if n > 0 {
        let mut kinds: Vec<&str> = hits.iter().map(|h| h.kind.as_str()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        eprintln!(
            "deck: redacted {n} secret{} ({}){}",
            if n == 1 { "" } else { "s" },
            kinds.join(", "),
            if list {
                ""
            } else {
                "; --redact-report lists them"
            }
        );
    }
}
