//! Subagents' logs nested under the calls that started them.
//!
//! Claude Code writes each subagent's log to
//! `<session folder>/subagents/agent-<agentId>.jsonl` (its lines carry the
//! parent's `sessionId`, `isSidechain` and the `agentId`). What ties a log to
//! its call:
//!
//! 1. `agent-<agentId>.meta.json` beside it: `toolUseId` is the call's id
//!    (with `agentType`, `description`, foreground or background);
//! 2. else the call's result: its `toolUseResult.agentId` (a finished
//!    subagent's report, or `async_launched` for one in the background)
//!    names the log.
//!
//! Each log is read by the same loader into records, which go into the
//! parent's records as [`Record::Nested`] under the call, placed by time
//! (never before the call): a replay shows the subagent working while its
//! call runs, a background one after its call returned. A subagent that
//! started one of its own nests the same way under its call; the same
//! subagent's lines logged inline too are left for its log. A log that
//! cannot be read, that no call of the session started, or that a result
//! names and the folder does not hold, is a diagnostic of the session; the
//! rest is read as if it were not there.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::side_files::Folder;
use crate::agents::ReadLog;
use crate::wire::{Diagnostic, EventKind, Origin, Record};

/// One subagent's log.
struct Sub {
    file: PathBuf,
    agent_id: String,
    /// The call that started it, when known.
    call: Option<String>,
    /// Why its log could not be read, when it could not.
    problem: Option<String>,
    /// Why its meta file could not be read, when it could not.
    meta_problem: Option<String>,
    records: Vec<Record>,
    /// Whose call started it.
    owner: Option<Owner>,
    nested: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Main,
    Sub(usize),
}

/// Nest the subagents in `folder/subagents/` under their calls in
/// `records` (the records of the log `log`; a subagent's own log nests
/// the subagents it started), each log read by `read` (the loader's).
pub(super) fn nest(
    log: &Path,
    folder: &Path,
    results: &Folder,
    records: &mut Vec<Record>,
    read: &ReadLog<'_>,
) {
    let dir = folder.join("subagents");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| agent_id(p).is_some() && !same_file(p, log))
        .collect();
    files.sort();
    let mut subs: Vec<Sub> = files.into_iter().map(|f| read_sub(f, results, read)).collect();
    // The agents the results name; a named agent without a log is said
    // at its call (the folder holds the others: this one is missing).
    let mut by_agent = agents(records);
    for s in &subs {
        by_agent.extend(agents(&s.records));
    }
    let mut missing: Vec<(&String, &String)> = by_agent
        .iter()
        .filter(|(a, _)| !subs.iter().any(|s| s.agent_id == **a) && !same_log(log, a))
        .collect();
    missing.sort();
    let missing: Vec<Sub> = missing
        .into_iter()
        .map(|(agent, call)| Sub {
            file: dir.join(format!("agent-{agent}.jsonl")),
            agent_id: agent.clone(),
            call: Some(call.clone()),
            problem: Some("its log is not in the session's folder".into()),
            meta_problem: None,
            records: Vec::new(),
            owner: None,
            nested: false,
        })
        .collect();
    subs.extend(missing);
    if subs.is_empty() {
        return;
    }
    // Whose call started each.
    let main_calls = calls(records);
    let sub_calls: Vec<HashMap<String, usize>> = subs.iter().map(|s| calls(&s.records)).collect();
    for (i, s) in subs.iter_mut().enumerate() {
        if s.call.is_none() {
            s.call = by_agent.get(&s.agent_id).cloned();
        }
        let Some(call) = &s.call else {
            continue;
        };
        s.owner = if main_calls.contains_key(call) {
            Some(Owner::Main)
        } else {
            (0..sub_calls.len())
                .find(|&j| j != i && sub_calls[j].contains_key(call))
                .map(Owner::Sub)
        };
    }
    let main = std::mem::take(records);
    *records = build(main, Owner::Main, &mut subs);
    // What is beside a session and not in it: said, when this is the
    // session's own log (a subagent's log opened alone leaves its siblings
    // to the session).
    if !in_subagents(log) {
        for s in subs.iter().filter(|s| !s.nested) {
            records.push(Record::Diagnostic(not_nested(s)));
        }
    }
}

/// The records of `records` with the subagents `owner` started nested in.
/// A subagent whose lines `records` also holds inline (`agent_progress`,
/// which 2.1.39 wrote beside its own log) is read from its log only: the
/// log is whole.
fn build(mut records: Vec<Record>, owner: Owner, subs: &mut [Sub]) -> Vec<Record> {
    let mut calls = calls(&records);
    let logged: HashSet<&str> = subs
        .iter()
        .filter(|s| s.owner == Some(owner) && !s.nested && s.problem.is_none())
        .filter_map(|s| s.call.as_deref())
        .filter(|c| calls.contains_key(*c))
        .collect();
    let inline = |r: &Record| matches!(r, Record::Nested { parent_call, .. } if logged.contains(parent_call.as_str()));
    if records.iter().any(inline) {
        records.retain(|r| !inline(r));
        calls = self::calls(&records);
    }
    let mut children = Vec::new();
    for i in 0..subs.len() {
        if subs[i].owner != Some(owner) || subs[i].nested {
            continue;
        }
        let Some(&at) = subs[i].call.as_ref().and_then(|c| calls.get(c)) else {
            continue;
        };
        subs[i].nested = true;
        let call = subs[i].call.clone().unwrap_or_default();
        let child = match subs[i].problem.take() {
            // The log could not be read: the session says so at the call.
            Some(why) => Child::Said(problem(&subs[i], &why)),
            None => {
                let own = std::mem::take(&mut subs[i].records);
                Child::Log(build(own, Owner::Sub(i), subs))
            }
        };
        children.push((at, call, child));
    }
    merge(records, children)
}

enum Child {
    Log(Vec<Record>),
    Said(Diagnostic),
}

/// `parent` with each child's records nested under its call (at index
/// `at`), placed by time: after the call, and after every record of the
/// parent not later than them. A child that could not be read is a
/// diagnostic right after its call.
fn merge(parent: Vec<Record>, children: Vec<(usize, String, Child)>) -> Vec<Record> {
    if children.is_empty() {
        return parent;
    }
    // The latest time up to each record of the parent.
    let mut times = Vec::with_capacity(parent.len());
    let mut t = i64::MIN;
    for r in &parent {
        t = t.max(time(r).unwrap_or(i64::MIN));
        times.push(t);
    }
    // (insert before, time, child, order, record)
    let mut inserts: Vec<(usize, i64, usize, usize, Record)> = Vec::new();
    for (k, (at, call, child)) in children.into_iter().enumerate() {
        let records = match child {
            Child::Said(d) => {
                inserts.push((at + 1, times[at], k, 0, Record::Diagnostic(d)));
                continue;
            }
            Child::Log(records) => records,
        };
        let mut j = at + 1;
        let mut c = times[at];
        for (n, r) in records.into_iter().enumerate() {
            c = c.max(time(&r).unwrap_or(i64::MIN));
            while j < parent.len() && times[j] <= c {
                j += 1;
            }
            let nested = Record::Nested {
                parent_call: call.clone(),
                record: Box::new(r),
            };
            inserts.push((j, c, k, n, nested));
        }
    }
    inserts.sort_by_key(|(j, c, k, n, _)| (*j, *c, *k, *n));
    let mut out = Vec::with_capacity(parent.len() + inserts.len());
    let mut inserts = inserts.into_iter().peekable();
    for (i, r) in parent.into_iter().enumerate() {
        while let Some((_, _, _, _, ins)) = inserts.next_if(|x| x.0 <= i) {
            out.push(ins);
        }
        out.push(r);
    }
    out.extend(inserts.map(|x| x.4));
    out
}

/// Epoch ms of a record, when it has one.
fn time(r: &Record) -> Option<i64> {
    match r {
        Record::Event { event, .. } if event.time > 0 => Some(event.time),
        Record::Nested { record, .. } => time(record),
        _ => None,
    }
}

/// The calls made in `records`: call id → index of its `tool/call`.
pub(super) fn calls(records: &[Record]) -> HashMap<String, usize> {
    #[derive(serde::Deserialize)]
    struct Call {
        #[serde(rename = "callId")]
        call_id: Option<String>,
    }
    let mut out = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        if let Record::Event { event, .. } = r
            && event.kind == EventKind::ToolCall
            && let Ok(Call { call_id: Some(id) }) = serde_json::from_str(event.data.as_str())
        {
            out.entry(id).or_insert(i);
        }
    }
    out
}

/// The agents the results of `records` name (`toolUseResult.agentId`):
/// agent id → the call whose result it is.
pub(super) fn agents(records: &[Record]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for r in records {
        let Record::Event { event, .. } = r else {
            continue;
        };
        if event.kind != EventKind::ToolResult || !event.data.as_str().contains("\"agentId\"") {
            continue;
        }
        let data = event.data.parse();
        let agent = data
            .get("meta")
            .and_then(|m| m.get("agentId"))
            .and_then(Value::as_str);
        if let (Some(a), Some(c)) = (agent, result_call(&data)) {
            out.insert(a.to_string(), c.to_string());
        }
    }
    out
}

/// The call a `tool/result`'s data answers (its `tool-result` part's
/// `toolCallId`).
fn result_call(data: &Value) -> Option<&str> {
    data.get("message")?
        .get("content")?
        .as_array()?
        .iter()
        .find(|p| p.get("type").and_then(Value::as_str) == Some("tool-result"))?
        .get("toolCallId")?
        .as_str()
}

/// The agent id of a subagent's log file name (`agent-<id>.jsonl`).
pub(super) fn agent_id(path: &Path) -> Option<&str> {
    let name = path.file_name()?.to_str()?;
    name.strip_prefix("agent-")?
        .strip_suffix(".jsonl")
        .filter(|id| !id.is_empty())
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Whether `log` is the log of agent `agent` (opened alone).
fn same_log(log: &Path, agent: &str) -> bool {
    agent_id(log) == Some(agent)
}

/// Whether `log` is itself a subagent's log (in a `subagents/` folder).
fn in_subagents(log: &Path) -> bool {
    log.parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == "subagents")
}

/// Read one subagent's log and its meta file.
fn read_sub(file: PathBuf, results: &Folder, read: &ReadLog<'_>) -> Sub {
    let agent = agent_id(&file).unwrap_or_default().to_string();
    let mut sub = Sub {
        agent_id: agent.clone(),
        call: None,
        problem: None,
        meta_problem: None,
        records: Vec::new(),
        owner: None,
        nested: false,
        file,
    };
    let meta = sub.file.with_file_name(format!("agent-{agent}.meta.json"));
    match std::fs::read(&meta) {
        Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(v) => {
                sub.call = v.get("toolUseId").and_then(Value::as_str).map(str::to_string);
            }
            Err(e) => sub.meta_problem = Some(format!("{} is not JSON ({e})", name(&meta))),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => sub.meta_problem = Some(format!("{}: {e}", name(&meta))),
    }
    // Messages name the file once (the diagnostic does), not its path.
    let short = |e: String| e.strip_prefix("log: ").map(str::to_string).unwrap_or(e);
    match read("log", &sub.file) {
        Ok(records) => {
            sub.records = records;
            results.fill(&mut sub.records);
        }
        Err(e) => sub.problem = Some(short(e)),
    }
    sub
}

fn name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn problem(sub: &Sub, why: &str) -> Diagnostic {
    Diagnostic::new(
        Origin::default(),
        format!(
            "subagent log subagents/{} of call {}: {why}",
            name(&sub.file),
            sub.call.as_deref().unwrap_or("?")
        ),
        String::new(),
    )
}

fn not_nested(sub: &Sub) -> Diagnostic {
    let why = match (&sub.call, &sub.problem, &sub.meta_problem) {
        (_, Some(p), _) => p.clone(),
        (Some(c), None, _) => format!("it names call {c}, which is not in this session"),
        (None, None, Some(m)) => format!("{m}, and no result names agent {}", sub.agent_id),
        (None, None, None) => format!(
            "no agent-{}.meta.json and no result naming agent {} ties it to a call",
            sub.agent_id, sub.agent_id
        ),
    };
    Diagnostic::new(
        Origin::default(),
        format!("subagent log subagents/{} not shown: {why}", name(&sub.file)),
        String::new(),
    )
}

#[cfg(test)]
mod tests;
