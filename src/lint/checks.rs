//! The warnings of `deck lint`: views deck reads whole but that will look
//! poor — a read card it cannot colour, a terminal result that does not say
//! how the command ended, a diff that changes nothing, a capped search that
//! does not say how much was capped, a web source without a title, a
//! generic kind the protocol does not name.

use crate::text::highlight::{find_syntax, lang_for_path};
use crate::wire::View;
use crate::wire::view::{GENERIC_KINDS, SearchBody, WebBody};

/// A typed view's warnings, each a field (as the fallback card names
/// fields) and what is wrong; `result`: the view of a call's result (a
/// call view has no outcome to tell).
pub(super) fn warnings(view: &View, result: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut warn = |field: String, why: String| out.push((field, why));
    match view {
        View::Generic(g) => {
            if let Some(kind) = g.kind.as_deref()
                && !GENERIC_KINDS.contains(&kind)
            {
                warn(
                    "kind".into(),
                    format!(
                        "{kind:?} is not a kind the protocol names ({}): drawn as other",
                        GENERIC_KINDS.join(", ")
                    ),
                );
            }
        }
        View::Terminal(t) => {
            if result && t.exit_code.is_none() && t.signal.is_none() {
                warn(
                    "exitCode".into(),
                    "absent (and no signal): the card cannot say whether the command succeeded"
                        .into(),
                );
            }
        }
        View::Diff(d) => {
            for (i, diff) in d.diffs.iter().enumerate() {
                if diff.old_text.as_deref() == Some(diff.new_text.as_str()) {
                    warn(
                        format!("diffs[{i}]"),
                        "oldText and newText are the same: the card shows no change".into(),
                    );
                }
            }
        }
        View::Read(r) => match r.lang.as_deref() {
            Some(lang) if find_syntax(lang).is_none() => warn(
                "lang".into(),
                format!("{lang:?} is no language deck knows: the lines are drawn without colours"),
            ),
            Some(_) => {}
            None => {
                if lang_for_path(&r.path).and_then(|l| find_syntax(&l)).is_none() {
                    warn(
                        "lang".into(),
                        format!(
                            "absent, and deck knows no language for the path {:?}: the lines are drawn without colours",
                            r.path
                        ),
                    );
                }
            }
        },
        View::Search(s) => {
            if s.truncated && s.total == 0 {
                let what = match s.body {
                    SearchBody::Matches(_) => "matches",
                    SearchBody::Paths(_) => "paths",
                };
                warn(
                    "total".into(),
                    format!("absent while truncated is true: the card cannot say how many {what} there were"),
                );
            }
        }
        View::Web(w) => {
            if let WebBody::Search { sources, .. } = &w.body {
                for (i, s) in sources.iter().enumerate() {
                    if s.title.as_deref().is_none_or(|t| t.trim().is_empty()) {
                        warn(
                            format!("sources[{i}].title"),
                            "absent: the source is drawn as its URL alone".into(),
                        );
                    }
                }
            }
        }
    }
    out
}
