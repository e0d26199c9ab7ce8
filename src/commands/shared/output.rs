//! Writing what a command outputs, to stdout or a file: a closed pipe
//! (`deck render … | head`) is not an error.

use std::io::Write;

/// Write to stdout; a closed pipe (`deck render … | head`) is not an error.
pub(in crate::commands) fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}

/// Flush a buffered writer of stdout or a file; a closed pipe is not an error.
pub(in crate::commands) fn finish(written: std::io::Result<()>) -> std::io::Result<()> {
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}
