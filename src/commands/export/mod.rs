//! `deck export PATH --format cast|html -o OUT`: turn a session into
//! something others can play or read — an asciicast of its replay
//! ([`cast`]) or one HTML page ([`html`]) — written as it is made, to a file
//! or stdout.

use std::io::Write;

use crate::cli::{ExportArgs, ExportFormat};
use crate::session::Transcript;
use crate::source;
use crate::theme::Theme;

pub mod cast;
pub mod html;

/// Run `deck export`.
pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    let theme = Theme::resolve(args.theme.as_deref())?;
    if args.format == ExportFormat::Cast && !(args.speed.is_finite() && args.speed > 0.0) {
        anyhow::bail!("--speed must be a positive number");
    }
    let mut loaded = source::load_path(&args.path)?;
    let at = loaded.session(args.session.as_deref())?.id.clone();
    // The session's records are taken, not copied: the export holds them
    // once.
    let s = loaded
        .sessions
        .iter()
        .position(|x| x.id == at)
        .map(|i| loaded.sessions.swap_remove(i))
        .unwrap_or_default();
    let title = s.id.clone().unwrap_or_else(|| args.path.clone());
    let output = &args.output;
    let mut out: Box<dyn Write> = if output == "-" {
        Box::new(std::io::BufWriter::with_capacity(
            1 << 16,
            std::io::stdout().lock(),
        ))
    } else {
        let f = std::fs::File::create(output)
            .map_err(|e| anyhow::anyhow!("cannot write {output}: {e}"))?;
        Box::new(std::io::BufWriter::with_capacity(1 << 16, f))
    };
    let written = match args.format {
        ExportFormat::Cast => {
            let opts = cast::CastOptions {
                width: args.width.max(20),
                height: args.height.max(5),
                speed: args.speed,
                idle_limit_ms: (args.idle_limit > 0.0).then_some((args.idle_limit * 1000.0) as u64),
                theme,
                title,
            };
            let stats = cast::write_cast(
                std::sync::Arc::new(s.records),
                s.id.clone(),
                &opts,
                &mut out,
            )?;
            eprintln!(
                "deck: {} frames, {} turn markers, {:.1} s",
                stats.frames, stats.markers, stats.duration
            );
            Ok(())
        }
        ExportFormat::Html => {
            let t = Transcript::from_records(s.id.clone(), &s.records, crate::present::stock());
            drop(s);
            html::page_to(&mut out, &t, &theme, args.width as usize, &title)
        }
    };
    super::finish(written.and_then(|_| out.flush()))
        .map_err(|e| anyhow::anyhow!("cannot write {output}: {e}"))
}
