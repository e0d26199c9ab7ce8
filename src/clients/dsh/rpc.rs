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
    #[error(
        "not a host URL {url:?}: {reason} (expected http://HOST:PORT, e.g. http://127.0.0.1:3080)"
    )]
    Url { url: String, reason: String },
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
    /// A name or an address; an IPv6 address without its brackets.
    pub host: String,
    pub port: u16,
    /// Path before `/api`, without a trailing slash (usually empty).
    pub prefix: String,
}

impl HostUrl {
    /// Parse `http://HOST:PORT[/prefix]` (`ws://` too, any case; IPv6 hosts
    /// in brackets) with [`http::Uri`]. The port is required: the host has
    /// no standard one. TLS (`https://`, `wss://`), user info, a query or a
    /// fragment are refused, each with its reason.
    pub fn parse(s: &str) -> Result<HostUrl, RpcError> {
        let bad = |reason: &str| RpcError::Url {
            url: s.to_string(),
            reason: reason.to_string(),
        };
        let uri: http::Uri = s
            .parse()
            .map_err(|e: http::uri::InvalidUri| bad(&format!("{e}")))?;
        match uri.scheme_str() {
            Some(x) if x.eq_ignore_ascii_case("http") || x.eq_ignore_ascii_case("ws") => {}
            Some(x) if x.eq_ignore_ascii_case("https") || x.eq_ignore_ascii_case("wss") => {
                return Err(bad("TLS (https://, wss://) is not supported"));
            }
            Some(_) => return Err(bad("the scheme is not http:// or ws://")),
            None => return Err(bad("no scheme")),
        }
        let authority = uri.authority().ok_or_else(|| bad("no host"))?;
        if authority.as_str().contains('@') {
            return Err(bad("user info is not supported"));
        }
        if uri.query().is_some() || s.contains('#') {
            return Err(bad("a query or fragment is not supported"));
        }
        // `host()` keeps an IPv6 address's brackets; what follows it is
        // `:PORT` or nothing.
        let bracketed = authority.host();
        let after = &authority.as_str()[bracketed.len()..];
        let host = bracketed
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(bracketed);
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let port = match after.strip_prefix(':') {
            None | Some("") => return Err(bad("no port")),
            Some(p) => p
                .parse::<u16>()
                .map_err(|_| bad("the port is not a number from 0 to 65535"))?,
        };
        Ok(HostUrl {
            host: host.to_string(),
            port,
            prefix: uri.path().trim_end_matches('/').to_string(),
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
        let started = std::time::Instant::now();
        let r = match tokio::time::timeout(CALL_TIMEOUT, self.call_inner(method, payload)).await {
            Ok(r) => r,
            Err(_) => Err(RpcError::Timeout(method.to_string(), CALL_TIMEOUT)),
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        match &r {
            Ok(_) => tracing::debug!(method, ms, "rpc"),
            Err(e) => tracing::debug!(method, ms, error = %e, "rpc failed"),
        }
        r
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
        let r = match tokio::time::timeout(CALL_TIMEOUT, handshake).await {
            Ok(Ok((ws, _))) => Ok(ws),
            Ok(Err(e)) => Err(ws_err(e.to_string())),
            Err(_) => Err(ws_err("no handshake answer".into())),
        };
        match &r {
            Ok(_) => tracing::debug!(path, "websocket open"),
            Err(e) => tracing::debug!(path, error = %e, "websocket failed"),
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(s: &str) -> (String, u16, String) {
        let u = HostUrl::parse(s).unwrap();
        (u.host, u.port, u.prefix)
    }

    /// The reason `s` is refused, and that the message says what to give.
    fn refused(s: &str) -> String {
        let e = HostUrl::parse(s).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("not a host URL"), "{msg}");
        assert!(msg.contains("expected http://HOST:PORT"), "{msg}");
        match e {
            RpcError::Url { url, reason } => {
                assert_eq!(url, s);
                reason
            }
            e => panic!("not a URL error: {e}"),
        }
    }

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

    #[test]
    fn schemes_http_and_ws_in_any_case() {
        let want = ("h".to_string(), 1, String::new());
        for s in ["http://h:1", "ws://h:1", "HTTP://h:1", "Ws://h:1/"] {
            assert_eq!(parts(s), want, "{s}");
        }
        // A ws:// URL is the same host, said as http://.
        assert_eq!(
            HostUrl::parse("ws://h:1/p").unwrap().to_string(),
            "http://h:1/p"
        );
    }

    #[test]
    fn tls_and_other_schemes_are_refused_with_their_reason() {
        for s in ["https://x:1", "wss://x:1", "HTTPS://x:1"] {
            assert!(refused(s).contains("TLS"), "{s}");
        }
        assert!(refused("ftp://x:1").contains("not http:// or ws://"));
        assert!(refused("unix://x:1").contains("not http:// or ws://"));
        assert_eq!(refused("127.0.0.1:3080"), "no scheme");
    }

    #[test]
    fn ipv6_hosts_keep_their_address_and_port() {
        assert_eq!(parts("http://[::1]:3080"), ("::1".into(), 3080, "".into()));
        assert_eq!(
            parts("ws://[2001:db8::7]:65535/x/"),
            ("2001:db8::7".into(), 65535, "/x".into())
        );
        assert_eq!(
            HostUrl::parse("http://[2001:db8::7]:80/x")
                .unwrap()
                .to_string(),
            "http://[2001:db8::7]:80/x"
        );
        // Unbracketed, or without a port.
        assert!(HostUrl::parse("http://::1:3080").is_err());
        assert_eq!(refused("http://[::1]"), "no port");
        assert_eq!(refused("http://[::1]:"), "no port");
    }

    #[test]
    fn the_port_is_required_and_in_range() {
        // No default port: the host has no standard one.
        assert_eq!(refused("http://h"), "no port");
        assert_eq!(refused("http://h/dsh"), "no port");
        assert_eq!(refused("http://h:"), "no port");
        assert_eq!(parts("http://h:0").1, 0);
        assert_eq!(parts("http://h:65535").1, 65535);
        assert!(HostUrl::parse("http://h:65536").is_err());
        assert!(HostUrl::parse("http://h:port").is_err());
        assert!(HostUrl::parse("http://h:-1").is_err());
    }

    #[test]
    fn paths_become_the_prefix_without_trailing_slashes() {
        assert_eq!(parts("http://h:1").2, "");
        assert_eq!(parts("http://h:1/").2, "");
        assert_eq!(parts("http://h:1/a/b").2, "/a/b");
        assert_eq!(parts("http://h:1/a/b//").2, "/a/b");
        assert_eq!(
            HostUrl::parse("http://h:1/a/").unwrap().to_string(),
            "http://h:1/a"
        );
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        for s in [
            "",
            "http://",
            "http://:1",
            "http:///x",
            "not a url",
            "http://h :1",
        ] {
            let reason = refused(s);
            assert!(!reason.is_empty(), "{s:?}");
        }
        assert_eq!(refused("http://:1"), "no host");
        assert_eq!(refused("http://u@h:1"), "user info is not supported");
        assert_eq!(refused("http://u:p@h:1"), "user info is not supported");
        assert_eq!(
            refused("http://h:1/?x=1"),
            "a query or fragment is not supported"
        );
        assert_eq!(
            refused("http://h:1/#f"),
            "a query or fragment is not supported"
        );
    }
}
