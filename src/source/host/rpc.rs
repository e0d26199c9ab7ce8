//! The host's unary calls and WebSocket connects.
//!
//! Unary: `POST <base>/api/<method>` with `{type:"client-request", rpcId,
//! method, payload}`, answered by `{type:"server-response", rpcId,
//! result:{ok:true, value} | {ok:false, error:{code, message}}}` (business
//! errors come with HTTP 200). One HTTP/1.1 connection per call: the host
//! is on loopback, and this keeps no state to go stale across host restarts.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// How long one unary call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum RpcError {
    #[error("not a host URL {0:?} (expected http://HOST:PORT, e.g. http://127.0.0.1:3080)")]
    Url(String),
    #[error("cannot connect to {addr}: {source}")]
    Connect {
        addr: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{method}: {reason}")]
    Http { method: String, reason: String },
    #[error("{method}: HTTP {status}: {body}")]
    Status {
        method: String,
        status: u16,
        body: String,
    },
    #[error("{method}: {code}: {message}")]
    Server {
        method: String,
        code: String,
        message: String,
    },
    #[error("{method}: the answer is not a server-response: {reason}")]
    Protocol { method: String, reason: String },
    #[error("{0}: no answer within {1:?}")]
    Timeout(String, Duration),
    #[error("WebSocket {path}: {reason}")]
    WebSocket { path: String, reason: String },
}

impl RpcError {
    /// The host answered, with a business error (`session-not-found` …).
    pub fn code(&self) -> Option<&str> {
        match self {
            RpcError::Server { code, .. } => Some(code),
            _ => None,
        }
    }
}

/// Where the host is: `http://HOST:PORT[/prefix]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostUrl {
    pub host: String,
    pub port: u16,
    /// Path before `/api`, without a trailing slash (usually empty).
    pub prefix: String,
}

impl HostUrl {
    pub fn parse(s: &str) -> Result<HostUrl, RpcError> {
        let bad = || RpcError::Url(s.to_string());
        let rest = s
            .strip_prefix("http://")
            .or_else(|| s.strip_prefix("ws://"))
            .ok_or_else(bad)?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
            // [v6]:port
            let (h, p) = rest.split_once("]:").ok_or_else(bad)?;
            (h, p)
        } else {
            authority.rsplit_once(':').ok_or_else(bad)?
        };
        let port = port.parse::<u16>().map_err(|_| bad())?;
        if host.is_empty() || (host.contains(':') && !authority.starts_with('[')) {
            return Err(bad());
        }
        Ok(HostUrl {
            host: host.to_string(),
            port,
            prefix: path.trim_end_matches('/').to_string(),
        })
    }

    fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

impl std::fmt::Display for HostUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "http://{}{}", self.authority(), self.prefix)
    }
}

/// A unary client for one host.
#[derive(Debug)]
pub struct Rpc {
    pub url: HostUrl,
    counter: AtomicU64,
}

impl Rpc {
    pub fn new(url: HostUrl) -> Rpc {
        Rpc {
            url,
            counter: AtomicU64::new(0),
        }
    }

    async fn connect(&self) -> Result<TcpStream, RpcError> {
        let addr = self.url.authority();
        TcpStream::connect((self.url.host.as_str(), self.url.port))
            .await
            .map_err(|source| RpcError::Connect { addr, source })
    }

    /// Call `method` and return its `value`.
    pub async fn call(&self, method: &str, payload: Value) -> Result<Value, RpcError> {
        match tokio::time::timeout(CALL_TIMEOUT, self.call_inner(method, payload)).await {
            Ok(r) => r,
            Err(_) => Err(RpcError::Timeout(method.to_string(), CALL_TIMEOUT)),
        }
    }

    async fn call_inner(&self, method: &str, payload: Value) -> Result<Value, RpcError> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let rpc_id = format!("deck-{}-{n}", std::process::id());
        let body = json!({"type": "client-request", "rpcId": rpc_id, "method": method, "payload": payload});
        let bytes = self.post(method, &format!("/api/{method}"), &body).await?;
        let protocol = |reason: String| RpcError::Protocol {
            method: method.to_string(),
            reason,
        };
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| protocol(e.to_string()))?;
        let result = v
            .get("result")
            .ok_or_else(|| protocol("no \"result\"".into()))?;
        match result.get("ok").and_then(Value::as_bool) {
            Some(true) => Ok(result.get("value").cloned().unwrap_or(Value::Null)),
            Some(false) => {
                let err = result.get("error");
                let field = |k: &str| {
                    err.and_then(|e| e.get(k))
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                Err(RpcError::Server {
                    method: method.to_string(),
                    code: field("code"),
                    message: field("message"),
                })
            }
            None => Err(protocol("result without a boolean \"ok\"".into())),
        }
    }

    /// POST `body` to `path`; the response body when the status is 2xx.
    async fn post(&self, method: &str, path: &str, body: &Value) -> Result<Bytes, RpcError> {
        let http = |e: &dyn std::fmt::Display| RpcError::Http {
            method: method.to_string(),
            reason: e.to_string(),
        };
        let stream = self.connect().await?;
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| http(&e))?;
        let driver = tokio::spawn(conn);
        let req = hyper::Request::post(format!("{}{path}", self.url.prefix))
            .header(hyper::header::HOST, self.url.authority())
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body.to_string())))
            .map_err(|e| http(&e))?;
        let resp = sender.send_request(req).await.map_err(|e| http(&e))?;
        let status = resp.status();
        let bytes = resp
            .into_body()
            .collect()
            .await
            .map_err(|e| http(&e))?
            .to_bytes();
        driver.abort();
        if !status.is_success() {
            return Err(RpcError::Status {
                method: method.to_string(),
                status: status.as_u16(),
                body: String::from_utf8_lossy(&bytes).chars().take(200).collect(),
            });
        }
        Ok(bytes)
    }

    /// Answer a request the host sent (an approval or a question, by the
    /// `rpcId` of its frame) through `POST /api/respond`.
    pub async fn respond(&self, rpc_id: &str, value: Value) -> Result<(), RpcError> {
        let body = json!({"type": "client-response", "rpcId": rpc_id, "result": {"ok": true, "value": value}});
        let sent = self.post("respond", "/api/respond", &body);
        let bytes = match tokio::time::timeout(CALL_TIMEOUT, sent).await {
            Ok(r) => r?,
            Err(_) => return Err(RpcError::Timeout("respond".into(), CALL_TIMEOUT)),
        };
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| RpcError::Protocol {
            method: "respond".into(),
            reason: e.to_string(),
        })?;
        match v.get("accepted").and_then(Value::as_bool) {
            Some(true) => Ok(()),
            _ => Err(RpcError::Server {
                method: "respond".into(),
                code: "NOT_ACCEPTED".into(),
                message: v.to_string(),
            }),
        }
    }

    /// Open one of the host's WebSockets (`/api/events.mux`, `/api/events.host`).
    pub async fn websocket(&self, path: &str) -> Result<WebSocketStream<TcpStream>, RpcError> {
        let ws_err = |reason: String| RpcError::WebSocket {
            path: path.to_string(),
            reason,
        };
        let stream = self.connect().await?;
        let _ = stream.set_nodelay(true);
        let url = format!("ws://{}{}{path}", self.url.authority(), self.url.prefix);
        let req = url
            .into_client_request()
            .map_err(|e| ws_err(e.to_string()))?;
        let handshake = tokio_tungstenite::client_async(req, stream);
        match tokio::time::timeout(CALL_TIMEOUT, handshake).await {
            Ok(Ok((ws, _))) => Ok(ws),
            Ok(Err(e)) => Err(ws_err(e.to_string())),
            Err(_) => Err(ws_err("no handshake answer".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_urls_parse() {
        let u = HostUrl::parse("http://127.0.0.1:3080").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.prefix.as_str()),
            ("127.0.0.1", 3080, "")
        );
        let u = HostUrl::parse("http://localhost:9/dsh/").unwrap();
        assert_eq!(u.prefix, "/dsh");
        assert_eq!(u.to_string(), "http://localhost:9/dsh");
        let u = HostUrl::parse("http://[::1]:3080").unwrap();
        assert_eq!((u.host.as_str(), u.port), ("::1", 3080));
        assert_eq!(u.to_string(), "http://[::1]:3080");
        assert!(HostUrl::parse("https://x:1").is_err());
        assert!(HostUrl::parse("http://:1").is_err());
        assert!(HostUrl::parse("http://h:port").is_err());
        assert!(HostUrl::parse("http://h").is_err());
    }
}
