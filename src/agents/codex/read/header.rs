//! The session header of a Codex rollout: what its meta line says (id,
//! cwd, CLI version, originator, provider, start, git), the model and cwd
//! of its first turn context, and, for the oldest files whose meta line
//! has no cwd, the cwd of the environment context Codex sent the model.
//! Given once, before the first event; nothing here reads calls.

use serde_json::{Map, Value};

use super::Reader;
use crate::agents::read::{Out, epoch_ms, header};
use crate::wire::Origin;

impl Reader {
    /// The meta line (`session_meta`'s payload, or the oldest files' first
    /// line itself).
    pub(super) fn meta(&mut self, meta: &Map<String, Value>) {
        if self.header_sent || self.session.is_some() {
            return;
        }
        let id = meta.get("id").and_then(Value::as_str).map(str::to_string);
        self.session.clone_from(&id);
        let mut put = |key: &str, value: Option<&Value>| {
            if let Some(v) = value.filter(|v| v.is_string()) {
                self.fields.insert(key.into(), v.clone());
            }
        };
        put("id", meta.get("id"));
        put("cwd", meta.get("cwd"));
        put("version", meta.get("cli_version"));
        put("originator", meta.get("originator"));
        put("modelProvider", meta.get("model_provider"));
        put("started", meta.get("timestamp"));
        put("model", meta.get("model"));
        let git = meta.get("git");
        put("gitBranch", git.and_then(|g| g.get("branch")));
        put("gitCommit", git.and_then(|g| g.get("commit_hash")));
        // The session's start as a time: the only one the oldest files
        // hold (their items have none).
        if let Some(ms) = meta
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(epoch_ms)
            .filter(|t| *t > 0)
        {
            self.fields.insert("startedMs".into(), ms.into());
        }
    }

    pub(super) fn turn_context(&mut self, p: &Value) {
        self.context_seen = true;
        for (from, to) in [("model", "model"), ("cwd", "cwd")] {
            if let Some(v) = p.get(from).filter(|v| v.is_string())
                && !self.header_sent
            {
                self.fields.entry(to).or_insert_with(|| v.clone());
            }
        }
    }

    /// A message of the context Codex sends the model: its
    /// `<environment_context>`'s `<cwd>` is the session's when the header
    /// has none yet.
    pub(super) fn context_message(&mut self, text: &str) {
        if self.header_sent || self.fields.contains_key("cwd") {
            return;
        }
        if let Some(cwd) = environment_cwd(text) {
            self.fields.insert("cwd".into(), cwd.into());
        }
    }

    /// The header, once, before the first event.
    pub(super) fn send_header(&mut self, origin: Origin, out: &mut Out) {
        if self.header_sent {
            return;
        }
        self.header_sent = true;
        let fields = std::mem::take(&mut self.fields);
        out.push((self.session.clone(), header(crate::agents::codex::NAME, fields, origin)));
        out.append(&mut self.early);
    }
}

/// `<environment_context>\n  <cwd>/path</cwd>…`'s path.
fn environment_cwd(text: &str) -> Option<&str> {
    let body = text.trim_start().strip_prefix("<environment_context>")?;
    let (_, rest) = body.split_once("<cwd>")?;
    let (cwd, _) = rest.split_once("</cwd>")?;
    let cwd = cwd.trim();
    (!cwd.is_empty() && !cwd.contains('\n')).then_some(cwd)
}

#[cfg(test)]
mod tests {
    use super::environment_cwd;

    #[test]
    fn the_environment_context_cwd() {
        let t = "<environment_context>\n  <cwd>/home/u/app</cwd>\n  <shell>bash</shell>\n</environment_context>";
        assert_eq!(environment_cwd(t), Some("/home/u/app"));
        for t in ["<cwd>/x</cwd>", "<environment_context><cwd></cwd>", "<environment_context><cwd>/x", ""] {
            assert_eq!(environment_cwd(t), None, "{t}");
        }
    }
}
