//! What is beside a Claude Code session, read while the session is being
//! written (`deck follow`): the log's records get the output saved to
//! `tool-results/` as they go out, and each subagent's log that appears in
//! `subagents/` is followed too, its records nested under the call that
//! started it ([`Record::Nested`]) as its lines are written.
//!
//! A subagent's log is read once it is tied to its call (its `.meta.json`,
//! else a result naming its agent; looked for again at each poll); its
//! records then go out from its first line. A subagent started by a
//! subagent nests under that one's call. Reading is by polls, a bounded
//! amount per log each time, so a long log never holds the others up.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::side_files::Folder;
use super::subagents::{agent_id, agents, calls};
use crate::source::feed::{Lines, MakeLines, Output};
use crate::source::follow::Aside;
use crate::source::live::READ_CHUNK;
use crate::wire::Record;

/// Bytes read from one subagent's log per poll, at most.
const PER_POLL: usize = 16 * READ_CHUNK;

/// What is beside the session a followed log is of.
pub struct Following {
    folder: Option<PathBuf>,
    /// The followed log itself (a subagent's log followed alone is not
    /// followed twice).
    log: PathBuf,
    /// Agent id → the call whose result named it.
    agents: HashMap<String, String>,
    /// Calls of the followed log.
    calls: HashSet<String>,
    /// Whether the followed log is a Claude Code session's.
    claude: bool,
    subs: Vec<LiveSub>,
    /// Makes the line pipeline of a subagent's log (the loader's).
    lines: MakeLines,
    /// Calls whose subagent's lines the followed log holds inline
    /// (`agent_progress`): their subagents' logs are not followed too.
    inline: HashSet<String>,
}

struct LiveSub {
    path: PathBuf,
    agent_id: String,
    /// The call that started it, once known.
    call: Option<String>,
    pos: u64,
    stream: Box<dyn Lines>,
    /// Calls made in it (a subagent's subagent nests under one).
    calls: HashSet<String>,
}

impl Following {
    /// For the log `log` (a session `<id>.jsonl`, or a subagent's log);
    /// `lines` makes the pipeline a subagent's log is read through.
    pub fn new(log: &Path, lines: MakeLines) -> Following {
        let id = log
            .file_name()
            .and_then(|n| n.to_str())
            .map(|n| n.trim_end_matches(".jsonl"))
            .unwrap_or_default();
        Following {
            folder: super::side_files::session_folder(log, id),
            log: log.to_path_buf(),
            agents: HashMap::new(),
            calls: HashSet::new(),
            claude: false,
            subs: Vec::new(),
            lines,
            inline: HashSet::new(),
        }
    }

    /// Records of the followed log as they go out: saved output read back,
    /// calls and agents noted. A subagent whose lines come both inline and
    /// in its own log (2.1.39 wrote both) is read from whichever came
    /// first: its inline lines are dropped once its log is followed.
    fn log_records(&mut self, records: &mut Vec<Record>) {
        // Only a Claude Code session has these (its header says).
        self.claude |= records.iter().any(|r| {
            matches!(r, Record::Frame { kind, payload, .. } if kind == "session"
                && payload.get("agent").and_then(Value::as_str) == Some(crate::agents::claude_code::NAME))
        });
        if !self.claude {
            return;
        }
        let followed = |call: &str| {
            self.subs
                .iter()
                .any(|s| s.pos > 0 && s.call.as_deref() == Some(call))
        };
        let twice = |r: &Record| matches!(r, Record::Nested { parent_call, .. } if followed(parent_call));
        if records.iter().any(twice) {
            records.retain(|r| !twice(r));
        }
        for r in records.iter() {
            if let Record::Nested { parent_call, .. } = r {
                self.inline.insert(parent_call.clone());
            }
        }
        // Calls are noted before their subagents' logs appear.
        self.calls.extend(calls(records).into_keys());
        self.agents.extend(agents(records));
        if let Some(folder) = self.folder.as_ref().filter(|f| f.is_dir()) {
            Folder::new(folder).fill(records);
        }
    }

    /// What the subagents' logs hold that was not read yet, nested.
    fn read_subagents(&mut self) -> Vec<Record> {
        let Some(folder) = self.folder.clone().filter(|_| self.claude) else {
            return Vec::new();
        };
        self.discover(&folder.join("subagents"));
        let results = Folder::new(&folder);
        let mut out = Vec::new();
        for i in 0..self.subs.len() {
            if self.subs[i].call.is_none() {
                let s = &self.subs[i];
                let call = meta_call(&s.path, &s.agent_id).or_else(|| self.agents.get(&s.agent_id).cloned());
                self.subs[i].call = call;
            }
            let Some(chain) = self.chain(i) else {
                continue;
            };
            let s = &self.subs[i];
            if s.pos == 0 && s.call.as_ref().is_some_and(|c| self.inline.contains(c)) {
                continue;
            }
            let mut records = self.subs[i].read();
            results.fill(&mut records);
            self.subs[i].calls.extend(calls(&records).into_keys());
            self.agents.extend(agents(&records));
            out.extend(records.into_iter().map(|r| nest(&chain, r)));
        }
        out
    }

    /// New logs in `dir`.
    fn discover(&mut self, dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| agent_id(p).is_some() && *p != self.log)
            .filter(|p| !self.subs.iter().any(|s| s.path == *p))
            .collect();
        found.sort();
        for path in found {
            let agent_id = agent_id(&path).unwrap_or_default().to_string();
            let label = format!("subagents/agent-{agent_id}.jsonl");
            self.subs.push(LiveSub {
                stream: (self.lines)(Some(label)),
                path,
                agent_id,
                call: None,
                pos: 0,
                calls: HashSet::new(),
            });
        }
    }

    /// The calls subagent `i` is nested under, outermost first: `None`
    /// until its call is known to the followed log or to a subagent that
    /// is (a cycle is never followed).
    fn chain(&self, i: usize) -> Option<Vec<String>> {
        let mut chain = Vec::new();
        let mut at = i;
        loop {
            let call = self.subs[at].call.clone()?;
            let owner_known = self.calls.contains(&call);
            chain.push(call.clone());
            if owner_known {
                chain.reverse();
                return Some(chain);
            }
            at = (0..self.subs.len()).find(|&j| j != at && self.subs[j].calls.contains(&call))?;
            if chain.len() > self.subs.len() {
                return None;
            }
        }
    }
}

impl Aside for Following {
    fn records(&mut self, records: &mut Vec<Record>) {
        self.log_records(records);
    }

    fn poll(&mut self) -> Vec<Record> {
        self.read_subagents()
    }
}

impl LiveSub {
    /// Records of the lines written since the last read.
    fn read(&mut self) -> Vec<Record> {
        let mut out = Output::default();
        let Ok(mut file) = std::fs::File::open(&self.path) else {
            return Vec::new();
        };
        if file.seek(SeekFrom::Start(self.pos)).is_err() {
            return Vec::new();
        }
        let mut buf = Vec::new();
        if let Ok(n) = file.take(PER_POLL as u64).read_to_end(&mut buf) {
            self.pos += n as u64;
            // Session lists and notices are the followed log's to give.
            let _ = self.stream.feed(&buf, &mut out);
        }
        out.records
    }
}

/// The call a subagent's `.meta.json` names.
fn meta_call(log: &Path, agent: &str) -> Option<String> {
    let meta = log.with_file_name(format!("agent-{agent}.meta.json"));
    let v: Value = serde_json::from_slice(&std::fs::read(meta).ok()?).ok()?;
    v.get("toolUseId").and_then(Value::as_str).map(str::to_string)
}

/// `record` nested under each call of `chain`, the last innermost.
fn nest(chain: &[String], record: Record) -> Record {
    chain.iter().rev().fold(record, |r, call| Record::Nested {
        parent_call: call.clone(),
        record: Box::new(r),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::read::{Out, Translate, event_json, header};
    use crate::source::feed::StreamError;
    use crate::source::lines::LineSplitter;
    use crate::wire::Origin;

    /// A session `s1` whose Task call `toolu_1` started agent `a1`, with
    /// the agent's own log beside it.
    fn session(dir: &Path) -> PathBuf {
        let subs = dir.join("s1/subagents");
        std::fs::create_dir_all(&subs).expect("mkdir");
        let line = r#"{"type":"user","sessionId":"s1","isSidechain":true,"agentId":"a1","uuid":"u1","timestamp":"2026-02-12T16:00:41.100Z","message":{"role":"user","content":"Count the steps"}}"#;
        std::fs::write(subs.join("agent-a1.jsonl"), format!("{line}\n")).expect("log");
        std::fs::write(subs.join("agent-a1.meta.json"), r#"{"toolUseId":"toolu_1"}"#).expect("meta");
        dir.join("s1.jsonl")
    }

    /// A subagent's log read by the Claude Code reader alone (`deck
    /// follow` gives the loader's pipeline, which hands it the same lines).
    struct Read(LineSplitter, super::super::Reader);

    impl Lines for Read {
        fn feed(&mut self, bytes: &[u8], out: &mut Output) -> Result<(), StreamError> {
            let (reader, mut made) = (&mut self.1, Out::new());
            self.0.feed(bytes, |p| {
                if let Ok(v) = serde_json::from_slice(p.raw) {
                    reader.line(&v, p.origin, &mut made);
                }
            });
            out.records.extend(made.into_iter().map(|(_, r)| r));
            Ok(())
        }

        fn finish(&mut self, _: &mut Output) -> Result<(), StreamError> {
            Ok(())
        }

        fn reset(&mut self) {}
    }

    fn lines() -> MakeLines {
        std::sync::Arc::new(|_| Box::new(Read(LineSplitter::new(), Default::default())))
    }

    fn head() -> Vec<Record> {
        let call = r#"{"turn":1,"step":1,"callId":"toolu_1","name":"Task","arguments":"{}"}"#;
        vec![
            header(crate::agents::claude_code::NAME, serde_json::Map::new(), Origin::default()),
            event_json(crate::wire::EventKind::ToolCall, 1, 0, call.into(), Origin::default()),
        ]
    }

    fn inline() -> Record {
        let start = event_json(crate::wire::EventKind::TurnStart, 1, 0, r#"{"turn":1}"#.into(), Origin::default());
        Record::Nested {
            parent_call: "toolu_1".into(),
            record: Box::new(start),
        }
    }

    #[test]
    fn a_subagent_logged_inline_and_beside_is_followed_once() {
        let dir = tempfile::tempdir().expect("dir");
        let log = session(dir.path());
        // Its inline lines came first: its log is not followed too.
        let mut b = Following::new(&log, lines());
        let mut records = head();
        records.push(inline());
        b.log_records(&mut records);
        assert_eq!(records.len(), 3);
        assert!(b.read_subagents().is_empty());
        // Its log came first: its inline lines are dropped.
        let mut b = Following::new(&log, lines());
        let mut records = head();
        b.log_records(&mut records);
        let followed = b.read_subagents();
        assert!(!followed.is_empty());
        assert!(followed.iter().all(|r| matches!(r, Record::Nested { parent_call, .. } if parent_call == "toolu_1")));
        let mut later = vec![inline()];
        b.log_records(&mut later);
        assert!(later.is_empty());
    }
}
