//! A local fake DSH host for tests (tokio, 127.0.0.1, port 0 unless given). It serves
//! `host.describe`, `session.list` and `session.history` from the tour
//! capture, and plays `frames.jsonl` on `/api/events.mux` and
//! `host-frames.jsonl` on `/api/events.host`.
//!
//! Script: the first mux connection starts at message `start_at` (what came
//! before is history only, announced by `session/subscribed`) and pauses
//! before message `pause_at`; [`Cmd::Drop`] then closes the socket and
//! skips `skip` messages (they happen while the client is away: history has
//! them, the socket never sends them). Every later connection gets
//! `session/subscribed {lastSeq}` and the rest without pausing.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Mutex, mpsc};
use tokio_tungstenite::tungstenite::Message;

use crate::common;

pub enum Cmd {
    /// Drop the mux connection now (no close handshake) and skip this many
    /// messages.
    Drop { skip: usize },
    /// Close the mux socket with a close frame and skip this many messages.
    Close { skip: usize },
    /// Send the next message cut in half (its events are lost from the
    /// socket; history has them), then go on.
    Garble,
    /// Stop answering (no messages, no pongs) with the connection left
    /// open, as a hung host does; later connections work.
    Hang,
}

struct Script {
    cursor: usize,
    pause_at: Option<usize>,
    /// Highest event seq the host has made (history serves up to it).
    published: Option<u64>,
    connections: usize,
    /// History knows this many mux messages beyond what the socket sent
    /// (events the host made whose live copies are still on their way).
    ahead: usize,
}

pub struct State {
    pub session_id: String,
    pub mux: Vec<String>,
    host: Vec<String>,
    /// `{event, view?}` entries, by seq.
    history: Vec<Value>,
    list_item: Value,
    /// A finished session served from history only: (list item, entries).
    other: std::sync::Mutex<Option<(Value, Vec<Value>)>>,
    describe: Value,
    script: Mutex<Script>,
    cmds: Mutex<mpsc::UnboundedReceiver<Cmd>>,
    /// Unary requests served: (method, payload).
    pub requests: std::sync::Mutex<Vec<(String, Value)>>,
    pub mux_connections: AtomicUsize,
}

pub struct FakeHost {
    pub url: String,
    pub state: Arc<State>,
    pub cmd: mpsc::UnboundedSender<Cmd>,
}

fn seq_of(line: &str) -> Option<u64> {
    let v: Value = serde_json::from_str(line).ok()?;
    let p = &v["payload"];
    (p["type"] == "session/event")
        .then(|| p["event"]["seq"].as_u64())
        .flatten()
}

/// Highest event seq among mux messages `0..n`.
pub fn last_seq_before(mux: &[String], n: usize) -> Option<u64> {
    mux[..n.min(mux.len())]
        .iter()
        .filter_map(|l| seq_of(l))
        .max()
}

impl FakeHost {
    pub async fn start(start_at: usize, pause_at: Option<usize>) -> FakeHost {
        FakeHost::start_ahead(start_at, pause_at, 0).await
    }

    /// [`FakeHost::start`] with history `ahead` messages ahead of the socket.
    pub async fn start_ahead(start_at: usize, pause_at: Option<usize>, ahead: usize) -> FakeHost {
        FakeHost::start_with(start_at, pause_at, ahead, 0).await
    }

    /// [`FakeHost::start`] on a given port of 127.0.0.1 (a host that comes
    /// up where a client already waits for one).
    pub async fn start_on(port: u16) -> FakeHost {
        FakeHost::start_with(0, None, 0, port).await
    }

    async fn start_with(
        start_at: usize,
        pause_at: Option<usize>,
        ahead: usize,
        port: u16,
    ) -> FakeHost {
        let read = |f: &str| common::capture_text("tour", f);
        let mux: Vec<String> = read("frames.jsonl").lines().map(str::to_string).collect();
        let host: Vec<String> = read("host-frames.jsonl")
            .lines()
            .map(str::to_string)
            .collect();
        let page: Value = serde_json::from_str(&read("history-default-page.json")).unwrap();
        let history = page["result"]["value"]["events"]
            .as_array()
            .unwrap()
            .clone();
        let mut list_item = Value::Null;
        let mut describe = Value::Null;
        for line in read("rpc-log.jsonl").lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            match v["method"].as_str() {
                Some("session.list") => {
                    if let Some(item) = v["response"]["result"]["value"]["items"].get(0) {
                        list_item = item.clone();
                    }
                }
                Some("host.describe") => describe = v["response"]["result"]["value"].clone(),
                _ => {}
            }
        }
        let session_id = list_item["sessionId"].as_str().unwrap().to_string();
        let (cmd, cmds) = mpsc::unbounded_channel();
        let published = last_seq_before(&mux, start_at);
        let state = Arc::new(State {
            session_id,
            mux,
            host,
            history,
            list_item,
            other: std::sync::Mutex::new(None),
            describe,
            script: Mutex::new(Script {
                cursor: start_at,
                pause_at,
                published,
                connections: 0,
                ahead,
            }),
            cmds: Mutex::new(cmds),
            requests: std::sync::Mutex::new(Vec::new()),
            mux_connections: AtomicUsize::new(0),
        });
        let listener = TcpListener::bind(("127.0.0.1", port)).await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let st = state.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let st = st.clone();
                tokio::spawn(async move {
                    let _ = serve(stream, st).await;
                });
            }
        });
        FakeHost { url, state, cmd }
    }

    /// Also list the approvals capture's session (finished: history only,
    /// nothing on the socket). Returns its id.
    pub fn add_finished_session(&self) -> String {
        let read = |f: &str| common::capture_text("approvals", f);
        let page: Value = serde_json::from_str(&read("history-default-page.json")).unwrap();
        let entries = page["result"]["value"]["events"]
            .as_array()
            .unwrap()
            .clone();
        let mut item = Value::Null;
        for line in read("rpc-log.jsonl").lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            if v["method"] == "session.list"
                && let Some(i) = v["response"]["result"]["value"]["items"].get(0)
            {
                item = i.clone();
            }
        }
        // Older than the tour's session, so the tour stays first.
        let tour = self.state.list_item["updatedAt"].as_i64().unwrap_or(0);
        item["updatedAt"] = json!(tour - 90_000);
        item["running"] = json!(false);
        item["projections"]["values"]["title"] = json!("Capture run: approvals");
        let id = item["sessionId"].as_str().unwrap().to_string();
        *self.state.other.lock().unwrap() = Some((item, entries));
        id
    }

    /// Unary methods served so far.
    pub fn methods(&self) -> Vec<String> {
        self.state
            .requests
            .lock()
            .unwrap()
            .iter()
            .map(|(m, _)| m.clone())
            .collect()
    }

    /// The parameters of every `method` request served so far, in order.
    pub fn requests(&self, method: &str) -> Vec<Value> {
        self.state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|(m, _)| m == method)
            .map(|(_, p)| p.clone())
            .collect()
    }
}

async fn serve(stream: TcpStream, st: Arc<State>) -> std::io::Result<()> {
    // Peek at the request head to tell WebSocket upgrades from unary calls.
    let mut buf = vec![0u8; 8192];
    let head = loop {
        let n = stream.peek(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        if let Some(end) = buf[..n].windows(4).position(|w| w == b"\r\n\r\n") {
            break String::from_utf8_lossy(&buf[..end]).into_owned();
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    };
    let path = head.split_whitespace().nth(1).unwrap_or("").to_string();
    if head.to_ascii_lowercase().contains("upgrade: websocket") {
        let ws = tokio_tungstenite::accept_async(stream)
            .await
            .map_err(std::io::Error::other)?;
        match path.as_str() {
            "/api/events.mux" => mux(ws, st).await,
            "/api/events.host" => host(ws, st).await,
            _ => {}
        }
        return Ok(());
    }
    unary(stream, &path, st).await
}

async fn unary(mut stream: TcpStream, path: &str, st: Arc<State>) -> std::io::Result<()> {
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    let (head_len, body_len) = loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        data.extend_from_slice(&buf[..n]);
        if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&data[..end]).to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            break (end + 4, len);
        }
    };
    while data.len() < head_len + body_len {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let req: Value = serde_json::from_slice(&data[head_len..]).unwrap_or(Value::Null);
    let method = path.strip_prefix("/api/").unwrap_or("").to_string();
    if method == "respond" {
        // Answers to approvals and questions: kept whole; accepted when
        // they answer a request this host made (any rpc id but "unknown").
        let accepted = req["type"] == "client-response" && req["rpcId"] != "unknown";
        st.requests.lock().unwrap().push((method, req.clone()));
        let body = json!({"accepted": accepted}).to_string();
        let resp = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(resp.as_bytes()).await?;
        return stream.shutdown().await;
    }
    let payload = req["payload"].clone();
    st.requests
        .lock()
        .unwrap()
        .push((method.clone(), payload.clone()));
    let result = match method.as_str() {
        "host.describe" => json!({"ok": true, "value": st.describe}),
        "session.list" => {
            let mut items = vec![st.list_item.clone()];
            items.extend(st.other.lock().unwrap().as_ref().map(|(i, _)| i.clone()));
            json!({"ok": true, "value": {"items": items}})
        }
        "session.history" if payload["sessionId"] == st.session_id.as_str() => {
            let published = {
                let s = st.script.lock().await;
                let known = last_seq_before(&st.mux, s.cursor + s.ahead);
                s.published.max(known)
            };
            json!({"ok": true, "value": history_page(&st.history, published, &payload)})
        }
        "session.history"
            if st
                .other
                .lock()
                .unwrap()
                .as_ref()
                .is_some_and(|(i, _)| i["sessionId"] == payload["sessionId"]) =>
        {
            let entries = st.other.lock().unwrap().as_ref().unwrap().1.clone();
            let last = entries
                .iter()
                .filter_map(|e| e["event"]["seq"].as_u64())
                .max();
            json!({"ok": true, "value": history_page(&entries, last, &payload)})
        }
        "session.history" => {
            json!({"ok": false, "error": {"code": "session-not-found", "message": "no such session"}})
        }
        "session.prompt" if payload["mode"] == "queue" || payload["mode"] == "steer" => {
            json!({"ok": true, "value": {"accepted": true}})
        }
        "session.prompt" => {
            json!({"ok": false, "error": {"code": "INVALID_PAYLOAD", "message": "mode must be queue or steer"}})
        }
        "session.cancel" => json!({"ok": true, "value": {"accepted": true}}),
        "session.create" => {
            // Listed from now on (an empty session), unless the slot is taken.
            let mut other = st.other.lock().unwrap();
            if other.is_none() {
                let updated = st.list_item["updatedAt"].as_i64().unwrap_or(0) + 1;
                let item = json!({"sessionId": "session-created-by-deck", "cwd": payload["cwd"],
                    "updatedAt": updated, "running": false});
                *other = Some((item, Vec::new()));
            }
            json!({"ok": true, "value": {"sessionId": "session-created-by-deck"}})
        }
        _ => {
            let resp =
                "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found";
            return stream.write_all(resp.as_bytes()).await;
        }
    };
    let body =
        json!({"type": "server-response", "rpcId": req["rpcId"], "result": result}).to_string();
    let resp = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(resp.as_bytes()).await?;
    stream.shutdown().await
}

/// Events with seq <= published and < beforeSeq, the newest `maxMessages × 20`.
fn history_page(all: &[Value], published: Option<u64>, payload: &Value) -> Value {
    let Some(published) = published else {
        return json!({"events": [], "hasMore": false});
    };
    let before = payload["beforeSeq"].as_u64().unwrap_or(u64::MAX);
    let size = payload["maxMessages"].as_u64().map_or(1000, |m| m * 20) as usize;
    let fit: Vec<&Value> = all
        .iter()
        .filter(|e| {
            let s = e["event"]["seq"].as_u64().unwrap_or(0);
            s <= published && s < before
        })
        .collect();
    let start = fit.len().saturating_sub(size);
    let page: Vec<Value> = fit[start..].iter().map(|v| (*v).clone()).collect();
    let has_more = page
        .first()
        .and_then(|e| e["event"]["seq"].as_u64())
        .is_some_and(|s| s > 0);
    json!({"events": page, "hasMore": has_more})
}

type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

async fn mux(ws: Ws, st: Arc<State>) {
    st.mux_connections.fetch_add(1, Ordering::SeqCst);
    let (mut tx, mut rx) = ws.split();
    let mut cmds = st.cmds.lock().await;
    let (subscribed, mut paused) = {
        let mut s = st.script.lock().await;
        s.connections += 1;
        let announce = s.connections > 1 || s.cursor > 0;
        let sub = s.published.filter(|_| announce).map(|last| {
            json!({"type":"server-request","rpcId":"fake","method":"session/subscribed",
                "payload":{"type":"session/subscribed","sessionId": st.session_id,"lastSeq": last}})
            .to_string()
        });
        let paused = if s.connections == 1 { s.pause_at } else { None };
        (sub, paused)
    };
    if let Some(m) = subscribed
        && tx.send(Message::text(m)).await.is_err()
    {
        return;
    }
    loop {
        let next = {
            let mut s = st.script.lock().await;
            let at_pause = paused.is_some_and(|p| s.cursor >= p);
            if s.cursor < st.mux.len() && !at_pause {
                let line = st.mux[s.cursor].clone();
                s.cursor += 1;
                if let Some(seq) = seq_of(&line) {
                    s.published = Some(s.published.map_or(seq, |p| p.max(seq)));
                }
                Some(line)
            } else {
                None
            }
        };
        if let Some(line) = next {
            if tx.send(Message::text(line)).await.is_err() {
                return;
            }
            continue;
        }
        // Paused or at the end: wait for a command or the client leaving.
        tokio::select! {
            c = cmds.recv() => match c {
                Some(Cmd::Drop { skip }) => {
                    skip_ahead(&st, skip).await;
                    // Drop the TCP connection without a close handshake.
                    return;
                }
                Some(Cmd::Close { skip }) => {
                    skip_ahead(&st, skip).await;
                    let _ = tx.send(Message::Close(None)).await;
                    return;
                }
                Some(Cmd::Garble) => {
                    let mut s = st.script.lock().await;
                    let Some(line) = st.mux.get(s.cursor).cloned() else { continue };
                    s.cursor += 1;
                    if let Some(seq) = seq_of(&line) {
                        s.published = Some(s.published.map_or(seq, |p| p.max(seq)));
                    }
                    s.pause_at = None;
                    drop(s);
                    let mut half = line.len() / 2;
                    while !line.is_char_boundary(half) {
                        half -= 1;
                    }
                    if tx.send(Message::text(line[..half].to_string())).await.is_err() {
                        return;
                    }
                    paused = None;
                    continue;
                }
                Some(Cmd::Hang) => {
                    // Later connections take the commands; this one says nothing more.
                    drop(cmds);
                    let _keep = (tx, rx);
                    std::future::pending::<()>().await;
                    return;
                }
                None => return,
            },
            m = rx.next() => if matches!(m, None | Some(Err(_)) | Some(Ok(Message::Close(_)))) {
                return;
            },
        }
    }
}

/// Skip `skip` messages: the host makes them while the client is away.
async fn skip_ahead(st: &State, skip: usize) {
    let mut s = st.script.lock().await;
    let end = (s.cursor + skip).min(st.mux.len());
    if let Some(seq) = last_seq_before(&st.mux, end) {
        s.published = Some(s.published.map_or(seq, |p| p.max(seq)));
    }
    s.cursor = end;
}

async fn host(ws: Ws, st: Arc<State>) {
    let (mut tx, mut rx) = ws.split();
    for line in &st.host {
        if tx.send(Message::text(line.clone())).await.is_err() {
            return;
        }
    }
    while let Some(Ok(m)) = rx.next().await {
        if matches!(m, Message::Close(_)) {
            return;
        }
    }
}
