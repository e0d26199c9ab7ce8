//! What a live source knows about the sessions it sees, for a session
//! picker: [`SessionSummary`] rows kept up to date by [`SessionBook`] from a
//! `session.list` answer, host frames (`host/session-added`, `-removed`,
//! `-status`) and mux frames (titles, seqs). Pure: no I/O.

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

/// The sessions seen so far.
#[derive(Debug, Clone, Default)]
pub struct SessionBook {
    list: Vec<SessionSummary>,
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
        for old in self.list.drain(..) {
            if !list.iter().any(|s| s.id == old.id) {
                list.push(old);
            }
        }
        self.list = list;
    }

    fn entry(&mut self, id: &str) -> (&mut SessionSummary, bool) {
        match self.list.iter().position(|s| s.id == id) {
            Some(i) => (&mut self.list[i], false),
            None => {
                self.list.push(SessionSummary {
                    id: id.to_string(),
                    ..Default::default()
                });
                let last = self.list.len() - 1;
                (&mut self.list[last], true)
            }
        }
    }

    /// Note a session by id; true when it is new.
    pub fn touch(&mut self, id: &str) -> bool {
        self.entry(id).1
    }

    /// A `host/*` frame (payload). True when the list changed in a way a
    /// picker shows (added, removed, running, title).
    pub fn on_host_frame(&mut self, payload: &Value) -> bool {
        let kind = payload.get("type").and_then(Value::as_str).unwrap_or("");
        let Some(id) = payload.get("sessionId").and_then(Value::as_str) else {
            return false;
        };
        match kind {
            "host/session-added" => {
                let (s, new) = self.entry(id);
                if let Some(cwd) = payload.get("cwd").and_then(Value::as_str) {
                    s.cwd = Some(cwd.to_string());
                }
                new
            }
            "host/session-removed" => {
                let before = self.list.len();
                self.list.retain(|s| s.id != id);
                before != self.list.len()
            }
            "host/session-status" => {
                let running = payload
                    .get("running")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                let (s, new) = self.entry(id);
                let changed = new || s.running != running;
                s.running = running;
                changed
            }
            _ => false,
        }
    }

    /// A session frame other than an event (titles, subscriptions).
    pub fn on_frame(&mut self, id: &str, kind: &str, payload: &Value) -> bool {
        let (s, new) = self.entry(id);
        match kind {
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
        }
    }

    /// An event of a session. True only when the session is new (activity
    /// times change too often to report each one).
    pub fn on_event(&mut self, id: &str, seq: u64, time: i64) -> bool {
        let (s, new) = self.entry(id);
        s.last_seq = Some(s.last_seq.map_or(seq, |l| l.max(seq)));
        if time > 0 {
            s.updated_at = Some(s.updated_at.map_or(time, |t| t.max(time)));
        }
        new
    }

    /// Newest activity first; running sessions before idle ones.
    pub fn list(&self) -> Vec<SessionSummary> {
        let mut v = self.list.clone();
        v.sort_by(|a, b| {
            b.running
                .cmp(&a.running)
                .then(b.updated_at.cmp(&a.updated_at))
        });
        v
    }

    /// The session to show when none was named: the first of [`Self::list`].
    pub fn latest(&self) -> Option<String> {
        self.list().into_iter().next().map(|s| s.id)
    }

    pub fn contains(&self, id: &str) -> bool {
        self.list.iter().any(|s| s.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        );
        assert_eq!(b.latest().as_deref(), Some("a"));
        assert!(
            !b.on_host_frame(&json!({"type":"host/session-status","sessionId":"a","running":true}))
        );
        assert!(b.on_host_frame(&json!({"type":"host/session-added","sessionId":"c","cwd":"/x"})));
        assert!(b.on_frame(
            "c",
            "session/projection",
            &json!({"key":"title","value":"New"})
        ));
        assert!(!b.on_event("c", 4, 99));
        assert!(b.on_host_frame(&json!({"type":"host/session-removed","sessionId":"b"})));
        assert!(!b.contains("b"));
        assert_eq!(b.list().len(), 2);
    }
}
