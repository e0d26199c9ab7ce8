//! `deck record URL|SOURCE -o FILE`: run a host or live source headless
//! and write everything it sends to a file, one message per line.

use std::path::PathBuf;
use std::time::Duration;

use super::shared::live::runtime;
use crate::source::host;
use crate::source::live::Endpoint;
use crate::source::record::{self, Recording};

/// `deck record URL|SOURCE -o FILE`.
pub fn run(
    source: &str,
    output: PathBuf,
    session: Option<String>,
    duration: Option<f64>,
) -> anyhow::Result<()> {
    let ep = Endpoint::parse(source);
    if let Endpoint::Host(url) = &ep {
        host::HostUrl::parse(url)?;
    }
    let duration = match duration {
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => anyhow::bail!("--duration {s}: expected a positive number of seconds"),
        None => None,
    };
    let shown = output.display().to_string();
    tracing::info!(mode = "record", source, output = shown, session, "opening");
    let opts = Recording {
        source: ep,
        output,
        session,
        duration,
    };
    let rt = runtime()?;
    fn say(line: &str) {
        eprintln!("deck record: {}", crate::text::sanitize::message(line));
    }
    let done = rt.block_on(record::record(opts, |line| say(&line.to_string())))?;
    say(&format!(
        "{} messages written to {shown} (stopped: {})",
        done.messages, done.stopped_by
    ));
    rt.shutdown_background();
    Ok(())
}
