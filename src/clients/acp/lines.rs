//! The agent's output as lines, read by a task of its own into a channel:
//! a line is never held past deck's line limit (`DECK_MAX_LINE`), and one
//! that is longer, or not UTF-8, ends the reading (the agent is not
//! speaking ACP).

use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::ChildStdout;
use tokio::sync::mpsc;

/// A task reading the agent's output lines into a channel. A line is
/// never held past deck's line limit (`DECK_MAX_LINE`): an agent that
/// writes more without a newline is not speaking ACP, and the link stops.
pub(super) fn read_lines(out: ChildStdout) -> mpsc::Receiver<Result<String, String>> {
    bounded_lines(out, crate::source::limits::max_line())
}

fn bounded_lines(
    out: impl tokio::io::AsyncRead + Unpin + Send + 'static,
    limit: usize,
) -> mpsc::Receiver<Result<String, String>> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(async move {
        let mut reader = BufReader::new(out);
        loop {
            let mut buf = Vec::new();
            let read = (&mut reader)
                .take(limit as u64 + 1)
                .read_until(b'\n', &mut buf)
                .await;
            let l = match read {
                Ok(0) => break,
                Ok(_) if buf.last() != Some(&b'\n') && buf.len() > limit => Err(format!(
                    "the agent wrote a line longer than deck's line limit ({} bytes; DECK_MAX_LINE)",
                    limit
                )),
                Ok(_) => {
                    if buf.last() == Some(&b'\n') {
                        buf.pop();
                    }
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                    String::from_utf8(buf).map_err(|_| "the agent wrote a line that is not UTF-8".to_string())
                }
                Err(e) => Err(e.to_string()),
            };
            let stop = l.is_err();
            if tx.send(l).await.is_err() || stop {
                break;
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines come whole, a last one without its newline too; a line past
    /// the limit is an error, and reading stops there (never held whole).
    #[tokio::test]
    async fn agent_lines_are_bounded() {
        let text = "{\"a\":1}\r\nlast".to_string();
        let mut rx = bounded_lines(std::io::Cursor::new(text.into_bytes()), 1024);
        assert_eq!(rx.recv().await, Some(Ok("{\"a\":1}".to_string())));
        assert_eq!(rx.recv().await, Some(Ok("last".to_string())));
        assert_eq!(rx.recv().await, None);
        let long = format!("ok\n{}\nafter\n", "x".repeat(5000));
        let mut rx = bounded_lines(std::io::Cursor::new(long.into_bytes()), 1024);
        assert_eq!(rx.recv().await, Some(Ok("ok".to_string())));
        let err = rx.recv().await.unwrap().unwrap_err();
        assert!(err.contains("longer than deck's line limit (1024 bytes"), "{err}");
        assert_eq!(rx.recv().await, None);
        let mut rx = bounded_lines(std::io::Cursor::new(vec![0xff, b'\n']), 1024);
        assert!(rx.recv().await.unwrap().unwrap_err().contains("not UTF-8"));
    }
}
