//! `deck acp`'s client: spawns an agent that speaks the Agent Client
//! Protocol (JSON-RPC 2.0, one JSON message a line on its stdio), opens a
//! session (`initialize` with the capabilities deck serves, `session/new`),
//! sends prompts one at a time, cancels, answers permission requests, and
//! serves the agent's file and terminal requests (`serve.rs`, `files.rs`,
//! `terminals.rs`). Every message both ways goes through one [`Trace`]:
//! recorded, and read by the ACP reader into the records shown; so does
//! what deck saw of each terminal it ran (a `seen` line).
//!
//! The agent runs in a process group of its own, registered with the
//! session's [`Procs`], and the session's end stops the group (whatever
//! the agent started: a wrapper's child, the CLI an adapter runs) when the
//! agent does not end on its own once its input is closed; so does the
//! agent's exit (a child of its holding its output open would keep deck
//! waiting for the end of it). [`Procs::stop_all`] is the caller's last
//! word: it stops whatever is left, however the session ended.
//!
//! Failures the user can act on are [`AcpError`]s: the agent cannot be
//! started, exits, is not speaking ACP, or answers with another protocol
//! version.

mod files;
mod lines;
mod procs;
mod protocol;
mod serve;
mod terminals;
mod trace;

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin};
use tokio::sync::mpsc;

pub use procs::Procs;
pub use trace::{Sink, Trace};
use trace::Dir;

/// The protocol version deck speaks.
pub const PROTOCOL_VERSION: u64 = 1;

/// How long a turn cancelled because the user left may take to end.
pub const QUIT_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// What to run, and where.
#[derive(Debug, Clone)]
pub struct Options {
    pub program: String,
    pub args: Vec<String>,
    /// The session's working directory (canonical).
    pub cwd: PathBuf,
    /// Where the processes deck starts are kept, to be stopped.
    pub procs: Arc<Procs>,
}

/// How permission requests are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// By the user (a [`Control::Permission`]).
    Ask,
    /// Allow once, without asking.
    Allow,
    /// Reject once, without asking.
    Reject,
}

/// What the user asks of the session.
#[derive(Debug, Clone, PartialEq)]
pub enum Control {
    /// `session/prompt` (held while a turn runs).
    Prompt(String),
    /// `session/cancel` of the running turn.
    Cancel,
    /// Answer the permission request whose JSON-RPC id, written as JSON
    /// (`7`, `"7"`), is `id`: the option whose `optionId` is `option` (one
    /// the agent offered), or `None`: cancelled (it offered none to choose).
    Permission { id: String, option: Option<String> },
}

/// What is done later, off the session's loop, and handed back to it.
#[derive(Debug)]
pub(crate) enum Later {
    /// The answer `msg` to the agent's request `id` (a terminal's exit).
    Answer { id: Value, msg: Value },
    /// What deck saw of a terminal that ended, for the recording.
    Seen(Value),
}

/// Why a session could not go on.
#[derive(Debug, thiserror::Error)]
pub enum AcpError {
    #[error("cannot start the agent `{program}`: {source}")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the agent exited before {during}{status}{stderr}")]
    Exited {
        during: String,
        status: String,
        stderr: String,
    },
    #[error("the agent does not speak ACP: {0}")]
    NotAcp(String),
    #[error("the agent answered {method} with an error: {message}")]
    Refused { method: String, message: String },
    #[error("the agent speaks ACP protocol version {0}; deck speaks version {PROTOCOL_VERSION}")]
    Version(String),
    #[error("cannot write the recording: {0}")]
    Record(#[source] std::io::Error),
    #[error("cannot write to the agent: {0}")]
    Write(#[source] std::io::Error),
    #[error("cannot open the session directory {path}: {source}")]
    Cwd {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// What the session ended with.
#[derive(Debug, Default)]
pub struct Ended {
    /// `stopReason` of every prompt, in order.
    pub stops: Vec<String>,
    /// What deck refused the agent, and other notices, in order.
    pub notices: Vec<String>,
    /// The records read from the trace (a [`Sink::Keep`] trace's).
    pub records: Vec<crate::wire::Record>,
}

/// A running agent.
pub struct Client {
    opts: Options,
    child: Child,
    group: Option<i32>,
    stdin: ChildStdin,
    /// The agent's output lines, read by a task (closed: its output ended;
    /// an error: it was unreadable).
    lines: mpsc::Receiver<Result<String, String>>,
    stderr: std::sync::Arc<std::sync::Mutex<terminals::Output>>,
    pub(crate) trace: Trace,
    /// The session's directory: the files served are beneath it.
    root: Arc<files::Root>,
    next_id: u64,
    session: String,
    policy: Policy,
    terminals: terminals::Terminals,
    /// What is done later (a terminal's exit), handed back to the loop.
    later_tx: mpsc::Sender<Later>,
    later_rx: mpsc::Receiver<Later>,
    /// The id of the `session/prompt` in flight.
    prompt: Option<u64>,
    held: VecDeque<String>,
    /// Permission requests waiting for the user: (JSON-RPC id, options),
    /// by the id written as JSON (7 and "7" are two).
    asked: HashMap<String, (Value, Value)>,
    /// The agent's requests not answered yet, by the id written as JSON:
    /// another request with one of these ids is refused.
    pending: HashSet<String>,
    /// `session/cancel` was sent for the running turn.
    cancelling: bool,
    /// The agent's process ended.
    agent_gone: bool,
    /// The agent's output ended.
    eof: bool,
    ended: Ended,
}

/// What the loop waits for.
enum Event {
    /// A line of the agent's (`None`: its output ended).
    Line(Option<Result<String, String>>),
    /// Something done later, handed back.
    Later(Later),
    Ctl(Option<Control>),
    /// The user left, and the turn did not end in time.
    GiveUp,
    /// The agent's process ended (its output may still be open).
    AgentGone,
}

impl Client {
    /// Start the agent.
    pub fn spawn(opts: Options, trace: Trace, policy: Policy) -> Result<Client, AcpError> {
        let root = files::Root::open(&opts.cwd).map_err(|source| AcpError::Cwd {
            path: opts.cwd.display().to_string(),
            source,
        })?;
        let mut child = tokio::process::Command::new(&opts.program)
            .args(&opts.args)
            .current_dir(&opts.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| AcpError::Spawn {
                program: opts.program.clone(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(AcpError::NotAcp("no stdio".into()));
        };
        // The agent's stderr is its own log: the last of it is kept for the
        // error that says it exited.
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(terminals::Output::with_limit(2048)));
        if let Some(e) = child.stderr.take() {
            terminals::gather(e, stderr.clone());
        }
        let (later_tx, later_rx) = mpsc::channel(64);
        let group = child.id().and_then(|p| i32::try_from(p).ok());
        if let Some(g) = group {
            opts.procs.started(g);
        }
        let terminals = terminals::Terminals::new(later_tx.clone(), opts.procs.clone());
        Ok(Client {
            opts,
            child,
            group,
            stdin,
            lines: lines::read_lines(stdout),
            stderr,
            trace,
            root: Arc::new(root),
            next_id: 0,
            session: String::new(),
            policy,
            terminals,
            later_tx,
            later_rx,
            prompt: None,
            held: VecDeque::new(),
            asked: HashMap::new(),
            pending: HashSet::new(),
            cancelling: false,
            agent_gone: false,
            eof: false,
            ended: Ended::default(),
        })
    }

    /// `initialize` and `session/new`; the session's id.
    pub async fn open(&mut self) -> Result<String, AcpError> {
        let answer = self.call("initialize", protocol::initialize()).await?;
        match protocol::answered_version(&answer) {
            Some(PROTOCOL_VERSION) => {}
            Some(v) => return Err(AcpError::Version(v.to_string())),
            None => match answer.get("protocolVersion") {
                Some(v) => return Err(AcpError::Version(v.to_string())),
                None => return Err(AcpError::NotAcp("its initialize answer has no protocolVersion".into())),
            },
        }
        let answer = self.call("session/new", protocol::new_session(&self.opts.cwd)).await?;
        let Some(id) = protocol::answered_session(&answer) else {
            return Err(AcpError::NotAcp("its session/new answer has no sessionId".into()));
        };
        self.session = id;
        Ok(self.session.clone())
    }

    /// Run the session until `ctl` closes and no turn runs (a turn still
    /// running then is cancelled, and waited for [`QUIT_WAIT`] at most);
    /// with `script`, its prompts in order, then the end.
    pub async fn run(
        mut self,
        mut ctl: mpsc::Receiver<Control>,
        script: Vec<String>,
    ) -> Result<Ended, AcpError> {
        let scripted = !script.is_empty();
        self.held.extend(script);
        let mut quit = false;
        let mut quit_by = tokio::time::Instant::now();
        loop {
            if self.prompt.is_none() {
                if let Some(text) = self.held.pop_front() {
                    self.start_prompt(&text).await?;
                } else if quit || scripted {
                    break;
                }
            }
            let ev = tokio::select! {
                l = self.lines.recv() => Event::Line(l),
                Some(v) = self.later_rx.recv() => Event::Later(v),
                _ = self.child.wait(), if !self.agent_gone => Event::AgentGone,
                c = ctl.recv(), if !quit => Event::Ctl(c),
                _ = tokio::time::sleep_until(quit_by), if quit => Event::GiveUp,
            };
            match ev {
                Event::GiveUp => break,
                Event::AgentGone => self.agent_gone(),
                Event::Line(l) => match self.incoming(l).await? {
                    Some(v) => self.handle(v).await?,
                    None if self.eof => return Err(self.exited("the session ended").await),
                    None => {}
                },
                Event::Later(l) => self.later(l).await?,
                Event::Ctl(c) => match c {
                    Some(Control::Prompt(text)) => {
                        if self.prompt.is_some() {
                            self.notice("a turn is running: the prompt is sent when it ends").await;
                        }
                        self.held.push_back(text);
                    }
                    Some(Control::Cancel) => self.cancel().await?,
                    Some(Control::Permission { id, option }) => self.answer_permission(&id, option).await?,
                    None => {
                        quit = true;
                        quit_by = tokio::time::Instant::now() + QUIT_WAIT;
                        self.held.clear();
                        if self.prompt.is_some() {
                            self.cancel().await?;
                        }
                    }
                },
            }
        }
        Ok(self.close().await)
    }

    /// The agent ended: what it left in its group goes too, so that its
    /// output closes (a child holding it would keep the session waiting)
    /// once the lines it wrote are read.
    fn agent_gone(&mut self) {
        self.agent_gone = true;
        if let Some(g) = self.group {
            procs::signal_group(g, libc::SIGKILL);
        }
    }

    /// The agent's process group, for [`stop_group`] when the session
    /// could not be closed.
    pub fn group(&self) -> Option<i32> {
        self.group
    }

    /// Something done later: an answer sent, what deck saw recorded.
    async fn later(&mut self, l: Later) -> Result<(), AcpError> {
        match l {
            Later::Answer { id, msg } => {
                self.pending.remove(&serve::id_key(&id));
                self.send(msg).await
            }
            Later::Seen(v) => self.trace.seen(&v).await.map_err(AcpError::Record),
        }
    }

    /// The terminals killed, and what deck saw of them recorded (waited
    /// for `within` at most; answers due to the agent are dropped).
    async fn kill_terminals(&mut self, within: std::time::Duration) {
        self.terminals.kill_all();
        let until = tokio::time::Instant::now() + within;
        for w in self.terminals.take_watchers() {
            let mut w = std::pin::pin!(w);
            loop {
                tokio::select! {
                    _ = &mut w => break,
                    Some(l) = self.later_rx.recv() => self.record_seen(l).await,
                    _ = tokio::time::sleep_until(until) => break,
                }
            }
        }
        while let Ok(l) = self.later_rx.try_recv() {
            self.record_seen(l).await;
        }
    }

    async fn record_seen(&mut self, l: Later) {
        if let Later::Seen(v) = l {
            let _ = self.trace.seen(&v).await;
        }
    }

    /// The end: terminals killed, the agent's input closed; an agent (or
    /// anything it started) still running after a moment is stopped.
    async fn close(mut self) -> Ended {
        use std::time::Duration;
        self.kill_terminals(Duration::from_secs(1)).await;
        let _ = self.stdin.shutdown().await;
        let mut done = tokio::time::timeout(Duration::from_millis(500), self.child.wait())
            .await
            .is_ok();
        if let Some(g) = self.group {
            procs::signal_group(g, libc::SIGTERM);
            if !done {
                done = tokio::time::timeout(Duration::from_millis(1000), self.child.wait())
                    .await
                    .is_ok();
            }
            procs::signal_group(g, libc::SIGKILL);
        }
        if !done {
            let _ = self.child.start_kill();
            let _ = self.child.wait().await;
        }
        self.ended.records = self.trace.finish().await;
        self.ended
    }

    async fn start_prompt(&mut self, text: &str) -> Result<(), AcpError> {
        let id = self.next();
        self.prompt = Some(id);
        self.cancelling = false;
        let params = protocol::prompt(&self.session, text);
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "session/prompt", "params": params}))
            .await
    }

    async fn cancel(&mut self) -> Result<(), AcpError> {
        if self.prompt.is_none() {
            return Ok(());
        }
        let params = protocol::cancel(&self.session);
        self.send(json!({"jsonrpc": "2.0", "method": "session/cancel", "params": params}))
            .await?;
        // The protocol: a client that cancels answers every permission
        // request still waiting (and those to come in the turn) `cancelled`.
        self.cancelling = true;
        self.cancel_permissions().await
    }

    fn next(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// A request of deck's, answered (the agent's requests meanwhile served).
    async fn call(&mut self, method: &str, params: Value) -> Result<Value, AcpError> {
        let id = self.next();
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        loop {
            let ev = tokio::select! {
                l = self.lines.recv() => Event::Line(l),
                Some(v) = self.later_rx.recv() => Event::Later(v),
                _ = self.child.wait(), if !self.agent_gone => Event::AgentGone,
            };
            match ev {
                Event::Line(l) => match self.incoming(l).await? {
                    Some(v) if is_answer(&v, id) => {
                        if let Some(e) = v.get("error") {
                            let message = e.get("message").and_then(Value::as_str).unwrap_or("?");
                            return Err(AcpError::Refused { method: method.into(), message: message.into() });
                        }
                        return Ok(v.get("result").cloned().unwrap_or(Value::Null));
                    }
                    Some(v) => self.handle(v).await?,
                    None if self.eof => return Err(self.exited(&format!("it answered {method}")).await),
                    None => {}
                },
                Event::Later(l) => self.later(l).await?,
                Event::AgentGone => self.agent_gone(),
                Event::Ctl(_) | Event::GiveUp => {}
            }
        }
    }

    /// A line of the agent's as a message (traced); `None` for a blank
    /// line, or the end of its output (`self.eof`). A line that is not
    /// JSON-RPC is traced and said, and before the session is open ends it.
    async fn incoming(&mut self, line: Option<Result<String, String>>) -> Result<Option<Value>, AcpError> {
        let line = match line {
            Some(Ok(l)) => l,
            None => {
                self.eof = true;
                return Ok(None);
            }
            Some(Err(e)) => {
                // Not UTF-8, or the pipe broke.
                let raw = format!("(unreadable output: {e})");
                self.trace.raw(Dir::FromAgent, &raw).await.map_err(AcpError::Record)?;
                return Err(AcpError::NotAcp(raw));
            }
        };
        if line.trim().is_empty() {
            return Ok(None);
        }
        let v: Option<Value> = serde_json::from_str(&line).ok();
        match v {
            Some(v) if v.get("jsonrpc").and_then(Value::as_str) == Some("2.0") => {
                self.trace.message(Dir::FromAgent, &v).await.map_err(AcpError::Record)?;
                Ok(Some(v))
            }
            _ => {
                self.trace.raw(Dir::FromAgent, &line).await.map_err(AcpError::Record)?;
                let shown: String = line.chars().take(80).collect();
                if self.session.is_empty() {
                    return Err(AcpError::NotAcp(format!("it wrote `{shown}`")));
                }
                self.notice(&format!("the agent wrote a line that is not JSON-RPC: {shown}"))
                    .await;
                Ok(None)
            }
        }
    }

    /// Send one message through the trace.
    async fn send(&mut self, msg: Value) -> Result<(), AcpError> {
        self.trace.message(Dir::ToAgent, &msg).await.map_err(AcpError::Record)?;
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(b'\n');
        self.stdin.write_all(&bytes).await.map_err(AcpError::Write)?;
        self.stdin.flush().await.map_err(AcpError::Write)
    }

    /// Say something to the user: in the view when live, and in the end's list.
    async fn notice(&mut self, text: &str) {
        tracing::info!(notice = text, "acp");
        if let Some(tx) = self.trace.live() {
            let _ = tx.diagnostic(format!("deck acp: {text}")).await;
        }
        self.ended.notices.push(text.to_string());
    }

    /// The error for an agent whose output ended.
    async fn exited(&mut self, during: &str) -> AcpError {
        let status = match tokio::time::timeout(std::time::Duration::from_secs(2), self.child.wait()).await {
            Ok(Ok(s)) => format!(" ({s})"),
            _ => String::new(),
        };
        let tail = self.stderr.lock().map(|mut k| k.text().0).unwrap_or_default();
        let last: Vec<&str> = tail.lines().filter(|l| !l.trim().is_empty()).collect();
        let stderr = match last.len() {
            0 => String::new(),
            n => format!("; its last words: {}", last[n.saturating_sub(3)..].join(" / ")),
        };
        self.kill_terminals(std::time::Duration::from_millis(500)).await;
        let _ = self.trace.finish().await;
        AcpError::Exited {
            during: during.to_string(),
            status,
            stderr,
        }
    }
}

/// Stop the agent's process group at once (its session could not be
/// closed in time).
pub fn stop_group(group: i32) {
    procs::signal_group(group, libc::SIGKILL);
}

/// Whether `v` answers the request `id` of deck's.
fn is_answer(v: &Value, id: u64) -> bool {
    v.get("method").is_none() && v.get("id").and_then(Value::as_u64) == Some(id)
}
