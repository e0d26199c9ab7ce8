//! What a live source knows about the sessions it sees, for a session
//! picker: [`SessionSummary`] rows kept up to date by [`SessionBook`] from a
//! `session.list` answer, host frames (`host/session-added`, `-removed`,
//! `-status`) and mux frames (titles, seqs). Pure: no I/O.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// One session as a picker shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SessionSummary {
    pub id: String,
    pub title: Option<String>,
    pub cwd: Option<String>,
    pub running: bool,
    /// Epoch ms of the last activity (`updatedAt`, or the newest event seen).
    pub updated_at: Option<i64>,
    /// Highest event seq known.
    pub last_seq: Option<u64>,
}

impl SessionSummary {
    /// One item of `session.list`'s `items`.
    pub fn from_list_item(v: &Value) -> Option<SessionSummary> {
        let id = v.get("sessionId")?.as_str()?.to_string();
        let values = v.get("projections").and_then(|p| p.get("values"));
        Some(SessionSummary {
            id,
            title: values
                .and_then(|p| p.get("title"))
                .and_then(Value::as_str)
                .map(str::to_string),
            cwd: v.get("cwd").and_then(Value::as_str).map(str::to_string),
            running: v.get("running").and_then(Value::as_bool).unwrap_or(false),
            updated_at: v.get("updatedAt").and_then(Value::as_i64),
            last_seq: v
                .get("projections")
                .and_then(|p| p.get("asOfSeq"))
                .and_then(Value::as_u64),
        })
    }
}

/// A change to the sessions a source knows, sent to the UI as it happens
/// (one session at a time: a list of N sessions is never re-sent per change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionChange {
    /// A session is new or changed: this is its row now.
    Upsert(SessionSummary),
    /// A session went away.
    Gone(String),
}

/// The sessions seen so far, indexed by id: a change costs O(1) however
/// many sessions there are.
#[derive(Debug, Clone, Default)]
pub struct SessionBook {
    list: Vec<SessionSummary>,
    index: HashMap<String, usize>,
}

impl SessionBook {
    pub fn new() -> SessionBook {
        SessionBook::default()
    }

    /// Replace everything with a `session.list` value (`{items: […]}`).
    pub fn set_list(&mut self, value: &Value) {
        let items = value
            .get("items")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let mut list: Vec<SessionSummary> = items
            .iter()
            .filter_map(SessionSummary::from_list_item)
            .collect();
        // Keep what frames told us about sessions the list does not have yet.
        let listed: HashSet<&str> = list.iter().map(|s| s.id.as_str()).collect();
        let kept: Vec<SessionSummary> = self
            .list
            .drain(..)
            .filter(|old| !listed.contains(old.id.as_str()))
            .collect();
        list.extend(kept);
        self.replace(list);
    }

    /// Replace everything with these rows (a full list from a source).
    pub fn replace(&mut self, list: Vec<SessionSummary>) {
        self.list.clear();
        self.index.clear();
        for s in list {
            self.apply(SessionChange::Upsert(s));
        }
    }

    /// Apply a change a source reported.
    pub fn apply(&mut self, change: SessionChange) {
        match change {
            SessionChange::Upsert(s) => match self.index.get(&s.id) {
                Some(&i) => self.list[i] = s,
                None => {
                    self.index.insert(s.id.clone(), self.list.len());
                    self.list.push(s);
                }
            },
            SessionChange::Gone(id) => {
                self.remove(&id);
            }
        }
    }

    fn remove(&mut self, id: &str) -> bool {
        let Some(i) = self.index.remove(id) else {
            return false;
        };
        self.list.swap_remove(i);
        if let Some(moved) = self.list.get(i) {
            self.index.insert(moved.id.clone(), i);
        }
        true
    }

    fn entry(&mut self, id: &str) -> (&mut SessionSummary, bool) {
        let (i, new) = match self.index.get(id) {
            Some(&i) => (i, false),
            None => {
                self.index.insert(id.to_string(), self.list.len());
                self.list.push(SessionSummary {
                    id: id.to_string(),
                    ..Default::default()
                });
                (self.list.len() - 1, true)
            }
        };
        (&mut self.list[i], new)
    }

    /// The change to report for session `id` when `changed`.
    fn upsert(&self, id: &str, changed: bool) -> Option<SessionChange> {
        changed
            .then(|| self.get(id).cloned().map(SessionChange::Upsert))
            .flatten()
    }

    /// One session's row.
    pub fn get(&self, id: &str) -> Option<&SessionSummary> {
        self.index.get(id).map(|&i| &self.list[i])
    }

    /// Every session, in the order they were first seen (until a removal
    /// moves the last one into the gap).
    pub fn rows(&self) -> &[SessionSummary] {
        &self.list
    }

    /// Number of sessions.
    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Note a session by id: its row when it is new.
    pub fn touch(&mut self, id: &str) -> Option<SessionChange> {
        let new = self.entry(id).1;
        self.upsert(id, new)
    }

    /// A `host/*` frame (payload). The change when the list changed in a way
    /// a picker shows (added, removed, running, title).
    pub fn on_host_frame(&mut self, payload: &Value) -> Option<SessionChange> {
        let kind = payload.get("type").and_then(Value::as_str).unwrap_or("");
        let id = payload.get("sessionId").and_then(Value::as_str)?;
        match kind {
            "host/session-added" => {
                let (s, new) = self.entry(id);
                if let Some(cwd) = payload.get("cwd").and_then(Value::as_str) {
                    s.cwd = Some(cwd.to_string());
                }
                self.upsert(id, new)
            }
            "host/session-removed" => self.remove(id).then(|| SessionChange::Gone(id.to_string())),
            "host/session-status" => {
                let running = payload
                    .get("running")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                let (s, new) = self.entry(id);
                let changed = new || s.running != running;
                s.running = running;
                self.upsert(id, changed)
            }
            _ => None,
        }
    }

    /// A session frame other than an event (titles, subscriptions).
    pub fn on_frame(&mut self, id: &str, kind: &str, payload: &Value) -> Option<SessionChange> {
        let (s, new) = self.entry(id);
        let changed = match kind {
            "session/projection" if payload.get("key").and_then(Value::as_str) == Some("title") => {
                let title = payload
                    .get("value")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                let changed = s.title != title;
                s.title = title;
                new || changed
            }
            "session/subscribed" => {
                if let Some(last) = payload.get("lastSeq").and_then(Value::as_u64) {
                    s.last_seq = Some(s.last_seq.map_or(last, |l| l.max(last)));
                }
                new
            }
            _ => new,
        };
        self.upsert(id, changed)
    }

    /// An event of a session. A change only when the session is new
    /// (activity times change too often to report each one).
    pub fn on_event(&mut self, id: &str, seq: u64, time: i64) -> Option<SessionChange> {
        let (s, new) = self.entry(id);
        s.last_seq = Some(s.last_seq.map_or(seq, |l| l.max(seq)));
        if time > 0 {
            s.updated_at = Some(s.updated_at.map_or(time, |t| t.max(time)));
        }
        self.upsert(id, new)
    }

    /// Newest activity first; running sessions before idle ones.
    pub fn list(&self) -> Vec<SessionSummary> {
        let mut v = self.list.clone();
        v.sort_by(order);
        v
    }

    /// The session to show when none was named: the first of [`Self::list`].
    pub fn latest(&self) -> Option<String> {
        self.list
            .iter()
            .min_by(|a, b| order(a, b))
            .map(|s| s.id.clone())
    }

    pub fn contains(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }
}

/// [`SessionBook::list`]'s order: running first, then newest activity.
fn order(a: &SessionSummary, b: &SessionSummary) -> std::cmp::Ordering {
    b.running
        .cmp(&a.running)
        .then(b.updated_at.cmp(&a.updated_at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn many_sessions_cost_one_change_each() {
        // 100k sessions: each is one O(1) change, and only new ones report.
        let mut b = SessionBook::new();
        let mut changes = 0;
        for i in 0..100_000 {
            let id = format!("s{i}");
            changes += usize::from(b.touch(&id).is_some());
            changes += usize::from(b.on_event(&id, 1, i).is_some());
        }
        assert_eq!((b.len(), changes), (100_000, 100_000));
        assert_eq!(b.latest().as_deref(), Some("s99999"));
        let mut mirror = SessionBook::new();
        mirror.apply(SessionChange::Upsert(b.get("s7").unwrap().clone()));
        mirror.apply(SessionChange::Gone("s7".into()));
        assert!(mirror.is_empty());
    }

    #[test]
    fn list_items_and_frames_update_the_book() {
        let mut b = SessionBook::new();
        b.set_list(&json!({"items":[
            {"sessionId":"a","updatedAt":10,"running":false,"cwd":"/w","projections":{"asOfSeq":358,"values":{"title":"Tour"}}},
            {"sessionId":"b","updatedAt":20,"running":false}
        ]}));
        let l = b.list();
        assert_eq!(l[0].id, "b");
        assert_eq!(
            (l[1].title.as_deref(), l[1].cwd.as_deref(), l[1].last_seq),
            (Some("Tour"), Some("/w"), Some(358))
        );
        assert!(
            b.on_host_frame(&json!({"type":"host/session-status","sessionId":"a","running":true}))
                .is_some()
        );
        assert_eq!(b.latest().as_deref(), Some("a"));
        assert!(
            b.on_host_frame(&json!({"type":"host/session-status","sessionId":"a","running":true}))
                .is_none()
        );
        assert!(matches!(
            b.on_host_frame(&json!({"type":"host/session-added","sessionId":"c","cwd":"/x"})),
            Some(SessionChange::Upsert(s)) if s.cwd.as_deref() == Some("/x")
        ));
        assert!(matches!(
            b.on_frame("c", "session/projection", &json!({"key":"title","value":"New"})),
            Some(SessionChange::Upsert(s)) if s.title.as_deref() == Some("New")
        ));
        assert!(b.on_event("c", 4, 99).is_none());
        assert_eq!(
            b.on_host_frame(&json!({"type":"host/session-removed","sessionId":"b"})),
            Some(SessionChange::Gone("b".into()))
        );
        assert!(!b.contains("b"));
        assert_eq!(b.list().len(), 2);
        // The index follows a removal that moved a row.
        assert_eq!(b.get("c").map(|s| s.id.as_str()), Some("c"));
        assert_eq!(b.get("a").map(|s| s.id.as_str()), Some("a"));
    }
}
