//! What the host client does with what arrives: frames of the session
//! WebSocket (`events.mux`: each followed session's live frames, stitched
//! with its history), of the host WebSocket (`events.host`: sessions new,
//! changed or gone), and its own history fetches as they finish.

use serde_json::{Value, json};

use super::client::{Client, Internal};
use super::history;
use super::options::{HostError, SessionChoice};
use super::rpc::RpcError;
use super::stitch::{Fetch, Out};
use crate::source::live::LiveEvent;
use crate::wire::{Frame, Origin, Record};

impl Client {
    pub(super) async fn on_mux(&mut self, text: &str) -> Result<(), HostError> {
        self.messages += 1;
        self.recording.message(text.as_bytes())?;
        let origin = Origin {
            line: self.messages,
            offset: 0,
        };
        let frame = match Frame::from_text(text) {
            Ok(f) => f,
            Err(reason) => {
                return self
                    .diagnostic(format!("mux message: {reason}"), text)
                    .await;
            }
        };
        let Some(sid) = frame.session_id().map(str::to_string) else {
            if self.shown.is_some() {
                let r = Record::from_frame(frame, origin);
                self.tx.records(vec![r]).await?;
            }
            return Ok(());
        };
        let (change, last_seq) = match &frame {
            Frame::Event { event, .. } => (self.book.on_event(&sid, event.seq, event.time), None),
            Frame::Other { kind, payload, .. } => (
                self.book.on_frame(&sid, kind, payload),
                (kind == "session/subscribed")
                    .then(|| payload.get("lastSeq").and_then(Value::as_u64))
                    .flatten(),
            ),
        };
        if let Some(change) = change {
            self.tx.send(LiveEvent::Session(change)).await?;
        }
        if let Some(last) = last_seq {
            self.recording.subscribed(&sid, last);
        }
        if let Frame::Event { event, .. } = &frame {
            self.recording.live_event(&sid, event.seq);
        }
        let new = !self.stitches.contains_key(&sid);
        if self.shown.is_none() && self.opts.session == SessionChoice::Latest {
            self.choose(sid.clone()).await?;
        }
        if !self.follows(&sid) {
            return Ok(());
        }
        let stitch = self.stitches.entry(sid.clone()).or_default();
        let mut out = stitch.on_live(Record::from_frame(frame, origin));
        if let Some(last) = last_seq {
            let more = stitch.on_last_seq(last);
            out.records.extend(more.records);
            out.fetch = out.fetch.or(more.fetch);
        }
        if new && out.fetch.is_none() {
            // A session first seen mid-way: its beginning is in history.
            out.fetch = stitch.catch_up().fetch;
        }
        self.handle(&sid, out).await
    }

    pub(super) async fn on_host(&mut self, text: &str) -> Result<(), HostError> {
        self.recording.message(text.as_bytes())?;
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            return self.diagnostic("host message: not JSON".into(), text).await;
        };
        let payload = v.get("payload").unwrap_or(&v);
        if let Some(change) = self.book.on_host_frame(payload) {
            self.tx.send(LiveEvent::Session(change)).await?;
        }
        let kind = payload.get("type").and_then(Value::as_str).unwrap_or("");
        let sid = payload.get("sessionId").and_then(Value::as_str);
        match (kind, sid) {
            ("host/session-added", Some(id))
                if self.shown.is_none() && self.opts.session == SessionChoice::Latest =>
            {
                self.choose(id.to_string()).await?;
            }
            ("host/session-removed", Some(id)) if self.shown.as_deref() == Some(id) => {
                self.ended = true;
            }
            _ => {}
        }
        Ok(())
    }

    pub(super) async fn on_internal(&mut self, i: Internal) -> Result<(), HostError> {
        match i {
            Internal::Created(id) => {
                // The new session may not be in the book yet; it follows.
                self.choose(id.clone()).await?;
                // Said after the reset, which clears what was said before it.
                self.tx
                    .send(LiveEvent::Said(format!("created {id}")))
                    .await?;
                let out = self.stitches.entry(id.clone()).or_default().catch_up();
                self.handle(&id, out).await?;
            }
            Internal::Retry { session } => {
                if let Some(s) = self.stitches.get_mut(&session) {
                    let out = s.plan_now();
                    self.handle(&session, out).await?;
                }
            }
            Internal::Fetched {
                session,
                result,
                not_found,
            } => {
                self.fetches.remove(&session);
                let Some(stitch) = self.stitches.get_mut(&session) else {
                    return Ok(());
                };
                match result {
                    Ok(page) => {
                        let mut records = Vec::with_capacity(page.entries.len());
                        for (record, raw) in page.entries {
                            if let Some(seq) = record.seq()
                                && stitch.wants(seq)
                            {
                                self.recording.history_event(&session, seq, raw)?;
                            }
                            records.push(record);
                        }
                        let out = stitch.on_page(records, page.has_more);
                        self.handle(&session, out).await?;
                    }
                    Err(reason) => {
                        tracing::warn!(session, %reason, not_found, "history page failed");
                        stitch.fetch_failed();
                        if not_found {
                            self.stitches.remove(&session);
                            if self.shown.as_deref() == Some(&session) {
                                self.ended = true;
                            }
                        } else {
                            let tx = self.internal_tx.clone();
                            let wait = self.opts.backoff.cap;
                            tokio::spawn(async move {
                                tokio::time::sleep(wait).await;
                                let _ = tx.send(Internal::Retry { session });
                            });
                        }
                        self.diagnostic(reason, "").await?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Deliver a stitcher's output and start the fetch it asks for.
    pub(super) async fn handle(&mut self, session: &str, out: Out) -> Result<(), HostError> {
        if self.shown.as_deref() == Some(session) && self.opts.session != SessionChoice::All {
            self.tx.records(out.records).await?;
        }
        if let Some(f) = out.fetch {
            self.fetch(session.to_string(), f);
        }
        Ok(())
    }

    pub(super) fn fetch(&mut self, session: String, f: Fetch) {
        let rpc = self.rpc.clone();
        let done = self.internal_tx.clone();
        let mut payload = json!({"sessionId": session});
        if let Some(b) = f.before_seq {
            payload["beforeSeq"] = json!(b);
        }
        if let Some(m) = self.opts.max_messages {
            payload["maxMessages"] = json!(m);
        }
        let sid = session.clone();
        let h = tokio::spawn(async move {
            let r = rpc.call("session.history", payload).await;
            let not_found = r
                .as_ref()
                .err()
                .and_then(RpcError::code)
                .is_some_and(|c| c == "session-not-found");
            let result = r
                .map_err(|e| e.to_string())
                .and_then(|v| history::parse_page(&v));
            let _ = done.send(Internal::Fetched {
                session: sid,
                result,
                not_found,
            });
        });
        if let Some(old) = self.fetches.insert(session, h) {
            old.abort();
        }
    }
}
