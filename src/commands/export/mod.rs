//! `deck export PATH --format cast|html -o OUT`: turn a session into
//! something others can play or read — an asciicast of its replay
//! ([`cast`]) or one HTML page ([`html`]) — to a file or stdout, its
//! secrets redacted unless `--no-redact` (see `commands::shared::redact`: a file is
//! staged and moved into place only when whole and checked).

use std::io::Write;

use super::shared::redact;
use crate::cli::{ExportArgs, ExportFormat};
use crate::session::Transcript;
use crate::settings::config;

pub mod cast;
pub mod html;

/// Run `deck export`.
pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    let format = match args.format {
        Some(f) => f,
        None => format_of(&args.output)?,
    };
    let cfg = config::load()?;
    let theme = config::resolve_theme(args.theme.as_deref(), &cfg)?;
    if format == ExportFormat::Cast && !(args.speed.is_finite() && args.speed > 0.0) {
        anyhow::bail!("--speed must be a positive number");
    }
    // On unless --no-redact: the rules are compiled before anything is read.
    let redactor = if args.no_redact {
        None
    } else {
        Some(redact::redactor()?)
    };
    let (s, hits) = redact::take_session(&args.path, args.session.as_deref(), redactor)?;
    let mut title = crate::session::Outline::of(&s.records)
        .title
        .map(|t| crate::text::sanitize::inline(&t))
        .or_else(|| s.id.clone())
        .unwrap_or_else(|| args.path.clone());
    if let Some(r) = redactor {
        title = redact::text(r, &title)?;
    }
    let output = &args.output;
    // Unredacted to stdout: streamed as it is made. Anything else is
    // staged and moved into place whole (after the last check, redacted).
    let mut staged = match (output.as_str(), redactor) {
        ("-", None) => None,
        _ => Some(redact::Staged::new(output)?),
    };
    let mut stdout;
    let out: &mut dyn Write = match staged.as_mut() {
        Some(st) => st.writer(),
        None => {
            stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            &mut stdout
        }
    };
    let (written, shape) = match format {
        ExportFormat::Cast => {
            let opts = cast::CastOptions {
                width: args.width,
                height: args.height,
                speed: args.speed,
                idle_limit_ms: (args.idle_limit > 0.0).then_some((args.idle_limit * 1000.0) as u64),
                theme,
                title,
            };
            let stats = cast::write_cast(std::sync::Arc::new(s.records), s.id.clone(), &opts, out)?;
            eprintln!(
                "deck: {} frames, {} turn markers, {:.1} s",
                stats.frames, stats.markers, stats.duration
            );
            (Ok(()), redact::Shape::Cast)
        }
        ExportFormat::Html => {
            let t = Transcript::from_records(s.id.clone(), &s.records, crate::agents::stock());
            drop(s);
            (html::page_to(out, &t, &theme, &title), redact::Shape::Html)
        }
    };
    let written = written.and_then(|_| out.flush());
    match staged {
        Some(st) => {
            written.map_err(|e| anyhow::anyhow!("cannot write {output}: {e}"))?;
            st.finish(redactor.map(|r| (r, shape)))?;
        }
        None => super::shared::output::finish(written)
            .map_err(|e| anyhow::anyhow!("cannot write {output}: {e}"))?,
    }
    if let Some(r) = redactor {
        redact::report(r, &hits, args.redact_report);
    }
    Ok(())
}

/// The format an output's name asks for: `.cast`, `.html` (or `.htm`).
fn format_of(output: &str) -> anyhow::Result<ExportFormat> {
    let ext = std::path::Path::new(output)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("cast") => Ok(ExportFormat::Cast),
        Some("html" | "htm") => Ok(ExportFormat::Html),
        _ => anyhow::bail!(
            "which format? {output:?} ends in neither .cast nor .html: add --format cast or --format html"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_follows_the_output_name() {
        assert_eq!(format_of("out.cast").unwrap(), ExportFormat::Cast);
        assert_eq!(format_of("a/b.HTML").unwrap(), ExportFormat::Html);
        assert_eq!(format_of("page.htm").unwrap(), ExportFormat::Html);
        let err = format_of("-").unwrap_err().to_string();
        assert!(err.contains("--format cast or --format html"), "{err}");
        assert!(format_of("out.txt").is_err());
    }
}
