//! What a command says on stderr about its input: the lines skipped or
//! repaired (a subagent's too), and the sessions a file holds besides the
//! one taken.

use crate::session::Transcript;
use crate::wire::Diagnostic;

/// Say on stderr how many lines were skipped or repaired.
pub(in crate::commands) fn report_diagnostics(t: &Transcript) {
    let n = t.diagnostics().len() + nested_diagnostics(t).len();
    if n > 0 {
        eprintln!(
            "deck: {n} diagnostic{} (lines skipped or repaired); list them with `deck inspect --diagnostics`",
            if n == 1 { "" } else { "s" }
        );
    }
}

/// Say on stderr that `loaded` holds sessions besides the one a command
/// without `--session` took (the first), and how to get at them: nothing
/// is left out silently.
pub(in crate::commands) fn report_other_sessions(
    loaded: &crate::source::Loaded,
    session: Option<&str>,
) {
    let n = loaded.sessions.len();
    if session.is_some() || n < 2 {
        return;
    }
    let first = loaded
        .sessions
        .first()
        .and_then(|s| s.id.as_deref())
        .unwrap_or("(no id)");
    let name = &loaded.name;
    eprintln!(
        "{}",
        crate::text::sanitize::message(&format!(
            "deck: {name} holds {n} sessions; this is the first ({first}), {} left out: --session ID picks another (`deck inspect --sessions {name}` lists them)",
            n - 1
        ))
    );
}

/// The diagnostics of the transcripts nested in `t`'s cards (a subagent's
/// log), each saying whose.
pub(in crate::commands) fn nested_diagnostics(t: &Transcript) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for card in t.cards() {
        let Some(n) = &card.nested else {
            continue;
        };
        let child = n.transcript();
        let whose = |d: &Diagnostic| {
            let reason = format!("subagent of call {}: {}", card.call_id, d.reason);
            Diagnostic::new(d.origin, reason, d.raw.clone())
        };
        out.extend(child.diagnostics().iter().map(whose));
        out.extend(nested_diagnostics(child).iter().map(whose));
    }
    out
}
