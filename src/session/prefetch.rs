//! Presenter views of a loaded log's calls and results, drawn ahead of the
//! fold on all cores.
//!
//! Presenters are pure functions of (tool, arguments, result), so the view
//! the fold would draw for a result can be drawn earlier, for a window of
//! records at a time, in parallel. The fold takes a prefetched view only
//! when what it would pass the presenters is what the prefetch passed (the
//! same agent's presenters, tool and arguments); otherwise it draws the
//! view itself. Live sources fold without prefetching: the result is the
//! same, only slower for a whole file.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Deserialize;
use serde_json::Value;

use super::presenter::{Call, arguments_text, follow_header, settled};
use super::{Again, AttachedView, SharedPresenters};
use crate::wire::payload::{self, read};
use crate::wire::{EventKind, RawJson, Record, ViewFor};

/// Records folded per window: bounds the views held ahead of the fold.
pub(super) const WINDOW: usize = 4096;

/// Calls remembered for their results at most, and their arguments' bytes:
/// a result that comes later than that after its call (or whose call was
/// forgotten) is drawn by the fold, the same view, only not ahead.
const CALLS_KEPT: usize = 16_384;
const CALL_BYTES_KEPT: usize = 16 << 20;

/// A view drawn ahead, and what it was drawn from.
#[derive(Debug)]
pub(super) struct Drawn {
    /// The result event's data (the same text the fold gets).
    pub data: RawJson,
    /// It read as the fold reads it.
    pub payload: payload::ToolResult<'static>,
    pub agent: Option<String>,
    pub tool: String,
    pub arguments: Arc<str>,
    pub view: Option<AttachedView>,
}

/// A call read ahead: its data read as the fold reads it, and its view
/// when the host sent none.
#[derive(Debug)]
pub(super) struct DrawnCall {
    /// The call event's data (the same text the fold gets).
    pub data: RawJson,
    pub payload: payload::ToolCall,
    pub agent: Option<String>,
    /// Drawn by the presenters (`None` too when the host sent a view).
    pub view: Option<AttachedView>,
}

/// What was drawn ahead for a window, by the seq of each event.
#[derive(Debug, Default)]
pub(super) struct Ahead {
    pub results: HashMap<u64, Drawn>,
    pub calls: HashMap<u64, DrawnCall>,
}

/// Follows the calls of a log across windows, and draws each window's
/// calls and results.
pub(super) struct Prefetch {
    presenters: SharedPresenters,
    agent: Option<String>,
    /// The newest calls whose result was not drawn yet: tool and
    /// arguments, by call id (a result told twice is drawn by the fold);
    /// at most [`CALLS_KEPT`], of [`CALL_BYTES_KEPT`] arguments.
    calls: HashMap<String, (String, Arc<str>)>,
    /// Their ids, oldest first (some drawn since), and their bytes.
    order: std::collections::VecDeque<String>,
    bytes: usize,
}

struct Job {
    seq: u64,
    data: RawJson,
    presenters: SharedPresenters,
    agent: Option<String>,
}

struct CallJob {
    seq: u64,
    data: RawJson,
    /// Its view is the host's: none to draw.
    sent: bool,
    presenters: SharedPresenters,
    agent: Option<String>,
}

impl Prefetch {
    pub fn new(presenters: SharedPresenters) -> Prefetch {
        Prefetch {
            presenters,
            agent: None,
            calls: HashMap::new(),
            order: std::collections::VecDeque::new(),
            bytes: 0,
        }
    }

    /// What to draw for a window: its calls and results, each with the
    /// presenters of the agent whose session it is there (the headers are
    /// followed here, in order). Nothing is read yet: [`Prefetch::draw`]
    /// does that on the pool.
    pub fn plan(&mut self, records: &[&Record]) -> Plan {
        let mut jobs = Vec::new();
        let mut calls = Vec::new();
        for r in records {
            match r {
                Record::Frame { kind, payload, .. } if kind == "session" => {
                    follow_header(payload, &mut self.agent, &mut self.presenters);
                }
                Record::Event { event, view, .. } => match event.kind {
                    EventKind::ToolCall => {
                        calls.push(CallJob {
                            seq: event.seq,
                            data: event.data.clone(),
                            sent: view.as_ref().is_some_and(|v| v.for_ == ViewFor::Call),
                            presenters: self.presenters.clone(),
                            agent: self.agent.clone(),
                        });
                    }
                    EventKind::ToolResult
                        if !view.as_ref().is_some_and(|v| v.for_ == ViewFor::Result) =>
                    {
                        jobs.push(Job {
                            seq: event.seq,
                            data: event.data.clone(),
                            presenters: self.presenters.clone(),
                            agent: self.agent.clone(),
                        });
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        Plan { jobs, calls }
    }

    /// The views of a planned window's results, by the seq of their event,
    /// drawn on the pool. The calls known are those of the windows planned
    /// so far (a result's call later in its own window counts).
    ///
    /// The calls are read first, on the pool; then, in order, the calls the
    /// window adds are noted (the fold keeps a call's first `tool/call`);
    /// then the views are drawn, on the pool.
    pub fn draw(&mut self, plan: Plan) -> Ahead {
        // (Mapped to options, not filtered: an indexed collect is one
        // allocation of the exact size, where a filtered one grows.)
        let read_calls: Vec<(CallJob, payload::ToolCall)> = plan
            .calls
            .into_par_iter()
            .map(|job| {
                let p = read::<payload::ToolCall>(&job.data).ok()?;
                Some((job, p))
            })
            .collect::<Vec<_>>()
            .into_iter()
            .flatten()
            .collect();
        for (_, p) in &read_calls {
            if let Some(id) = &p.call_id
                && !self.calls.contains_key(id)
            {
                let arguments = arguments_text(p.arguments.clone());
                self.bytes += arguments.len();
                let call = (p.name.clone().unwrap_or_default(), Arc::from(arguments));
                self.calls.insert(id.clone(), call);
                self.order.push_back(id.clone());
            }
        }
        self.forget_old_calls();
        let drawn_calls = read_calls
            .into_par_iter()
            .map(|(job, payload)| {
                let view = (!job.sent && payload.call_id.is_some())
                    .then(|| {
                        let tool = payload.name.as_deref().unwrap_or_default();
                        let arguments = arguments_text(payload.arguments.clone());
                        job.presenters.call_view(Call {
                            tool,
                            arguments: &arguments,
                        })
                    })
                    .flatten()
                    .map(|v| AttachedView::presented(&v));
                if let Some(v) = &view {
                    v.warm();
                }
                let drawn = DrawnCall {
                    data: job.data,
                    payload,
                    agent: job.agent,
                    view,
                };
                (job.seq, drawn)
            })
            .collect::<Vec<_>>();
        let calls = &self.calls;
        let results = plan
            .jobs
            .into_par_iter()
            .map(|job| {
                // The data read once, as a tree: the payload from the tree
                // (as the fold reads it from the text: the last of a key
                // twice wins either way), the view from its parts. Data no
                // tree can hold is left to the fold, which reports it.
                let mut data = job.data.try_parse().ok()?;
                let p = payload::ToolResult::deserialize(&data).ok()?;
                let (tool, arguments) = calls.get(p.call_id()?)?;
                let is_error = p.part().and_then(|part| part.is_error).unwrap_or(false);
                let view = draw(&job, tool, arguments, is_error, &mut data);
                // The looks the fold takes at the view, taken here.
                if let Some(v) = &view {
                    v.warm();
                }
                let drawn = Drawn {
                    data: job.data,
                    payload: p,
                    agent: job.agent,
                    tool: tool.clone(),
                    arguments: arguments.clone(),
                    view,
                };
                Some((job.seq, drawn))
            })
            .collect::<Vec<_>>();
        // A call is drawn for once: what a session holds here is its calls
        // still running, not all of them.
        for (_, d) in results.iter().flatten() {
            if let Some((_, arguments)) = d.payload.call_id().and_then(|id| self.calls.remove(id)) {
                self.bytes -= arguments.len();
            }
        }
        let (n, m) = (results.len(), drawn_calls.len());
        Ahead {
            results: by_seq(results.into_iter().flatten(), n),
            calls: by_seq(drawn_calls.into_iter(), m),
        }
    }
}

impl Prefetch {
    /// The oldest calls forgotten while more are kept than allowed.
    fn forget_old_calls(&mut self) {
        while self.order.len() > CALLS_KEPT || self.bytes > CALL_BYTES_KEPT {
            let Some(id) = self.order.pop_front() else {
                break;
            };
            if let Some((_, arguments)) = self.calls.remove(&id) {
                self.bytes -= arguments.len();
            }
        }
        // The queue holds drawn calls too: it is cut back to what is kept.
        if self.order.len() > 2 * self.calls.len() + WINDOW {
            let calls = &self.calls;
            self.order.retain(|id| calls.contains_key(id));
        }
    }
}

/// A map of what was drawn, by seq, made at its size at once.
fn by_seq<T>(drawn: impl Iterator<Item = (u64, T)>, most: usize) -> HashMap<u64, T> {
    let mut map = HashMap::with_capacity(most);
    map.extend(drawn);
    map
}

/// A window's calls and results to draw ([`Prefetch::plan`]).
pub(super) struct Plan {
    jobs: Vec<Job>,
    calls: Vec<CallJob>,
}

fn draw(
    job: &Job,
    tool: &str,
    arguments: &Arc<str>,
    is_error: bool,
    data: &mut Value,
) -> Option<AttachedView> {
    let view = settled(tool, arguments, is_error, data, |s| {
        job.presenters.result_view(s)
    })?;
    let again = || {
        Again::new(
            job.presenters.clone(),
            tool,
            arguments.clone(),
            job.data.clone(),
            is_error,
        )
    };
    Some(AttachedView::presented_again(view, arguments.len(), again))
}

#[cfg(test)]
mod tests {
    use crate::session::Transcript;
    use crate::source::load::load_path;
    use crate::wire::View;

    /// Folding a whole log with views drawn ahead gives the cards that
    /// folding it record by record gives (the live way), for the stock
    /// presenters and each agent's.
    #[test]
    fn drawn_ahead_or_in_the_fold_the_same_cards() {
        let root = env!("CARGO_MANIFEST_DIR");
        for file in [
            "tests/fixtures/agents/claude-code/tour/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl",
            "tests/fixtures/agents/codex/tour.rollout.jsonl",
            "demo-sessions/tour.session.jsonl.zstd",
        ] {
            let loaded = load_path(&format!("{root}/{file}")).expect(file);
            let records = &loaded.sessions[0].records;
            let ahead = Transcript::from_records(None, records, crate::agents::stock());
            let mut live = Transcript::new(None, crate::agents::stock());
            for r in records {
                live.apply(r);
            }
            assert!(ahead.cards().len() > 3, "{file}");
            let views = |t: &Transcript| -> Vec<String> {
                t.cards()
                    .iter()
                    .map(|c| {
                        let v = c.result_view.as_ref().map(|v| v.raw().as_str().to_string());
                        let call = c.call_view.as_ref().map(|v| v.raw().as_str().to_string());
                        format!("{:?} {:?} {call:?} {v:?}", c.status, c.tool)
                    })
                    .collect()
            };
            assert_eq!(views(&ahead), views(&live), "{file}");
            assert!(
                ahead.cards().iter().any(|c| c.result_view.is_some()),
                "{file}"
            );
            assert!(
                ahead.cards().iter().any(|c| c.call_view.is_some()),
                "{file}"
            );
        }
    }

    /// What a presenter notes of the views it draws (their tag, a terminal
    /// command's failure) is what their text says: the same as a view read
    /// from the text alone finds, for every view of every agent's fixture.
    #[test]
    fn presented_views_know_what_their_text_says() {
        use crate::session::{AttachedView, ViewSource};
        let root = env!("CARGO_MANIFEST_DIR");
        let mut terminals = [0usize; 2];
        for file in [
            "tests/fixtures/agents/claude-code/tour/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl",
            "tests/fixtures/agents/claude-code/shapes.jsonl",
            "tests/fixtures/agents/codex/tour.rollout.jsonl",
            "tests/fixtures/agents/codex/gen1.rollout.jsonl",
            "tests/fixtures/agents/codex/gen2.rollout.jsonl",
            "tests/fixtures/agents/acp/tour/acp-trace.jsonl",
            "demo-sessions/tour.session.jsonl.zstd",
        ] {
            let loaded = load_path(&format!("{root}/{file}")).expect(file);
            for session in &loaded.sessions {
                let t = Transcript::from_records(None, &session.records, crate::agents::stock());
                for card in t.cards() {
                    for v in [&card.call_view, &card.result_view].into_iter().flatten() {
                        let fresh = AttachedView::from_text(ViewSource::Presenter, v.raw());
                        assert_eq!(v.tag(), fresh.tag(), "{file} {}", card.call_id);
                        assert!(
                            v.typed().is_ok(),
                            "{file} {}: {}",
                            card.call_id,
                            v.raw().as_str()
                        );
                        assert_eq!(v.failed(), fresh.failed(), "{file} {}", card.call_id);
                        // Typed by the kind noted when it was made, as by its text's tags.
                        assert_eq!(
                            v.typed().ok(),
                            fresh.typed().ok(),
                            "{file} {}",
                            card.call_id
                        );
                        // Its typed form writes what reads back the same.
                        let typed = v.typed().ok();
                        let again = typed.as_ref().map(|t| View::from_json(&t.to_json()).ok());
                        assert_eq!(again, Some(typed), "{file} {}", card.call_id);
                        if v.tag().as_deref() == Some("terminal") {
                            terminals[usize::from(v.failed())] += 1;
                        }
                    }
                }
            }
        }
        // Both outcomes met.
        assert!(terminals[0] > 0 && terminals[1] > 0, "{terminals:?}");
    }

    /// A view drawn ahead is taken only for the very event it was drawn
    /// from: a second result under the same seq (the fold skips it) does
    /// not lend the first its view or its payload.
    #[test]
    fn only_the_event_drawn_ahead_takes_its_view() {
        use crate::wire::{Frame, Origin, Record};
        use serde_json::json;
        let record = |v: serde_json::Value| {
            Record::from_frame(Frame::from_owned(v).expect("frame"), Origin::default())
        };
        let result = |text: &str| {
            record(json!({"type": "tool/result", "seq": 2, "time": 0, "data": {
                "message": {"role": "tool", "content": [{"type": "tool-result",
                    "toolCallId": "c1", "content": [{"type": "text", "text": text}]}]}}}))
        };
        let records = [
            Record::Frame {
                kind: "session".into(),
                rpc_id: None,
                payload: json!({"agent": "claude-code"}),
                origin: Origin::default(),
            },
            record(json!({"type": "tool/call", "seq": 1, "time": 0, "data": {
                "callId": "c1", "name": "Bash", "arguments": "{\"command\":\"ls\"}"}})),
            result("first"),
            result("second"),
        ];
        let t = Transcript::from_records(None, &records, crate::agents::stock());
        let card = &t.cards()[0];
        let view = card.result_view.as_ref().expect("a view");
        assert!(view.raw().as_str().contains("first"), "{:?}", view.raw());
        assert!(!view.raw().as_str().contains("second"));
        assert_eq!(card.result.as_ref().map(|r| r.text()), Some("first".into()));
    }
}
