//! `deck render PATH`: lay a session out without a terminal UI and write it
//! as text, ANSI or styled text, item by item as it is laid out. Theme and
//! density come from the flags, else the config file. With `--redact`, the
//! session's secrets are replaced first and the text is checked before it
//! is written (see `commands::shared::redact`).

use std::io::Write;

use super::shared::output::finish;
use super::shared::redact;
use super::shared::report::report_diagnostics;
use crate::cli::RenderArgs;
use crate::headless;
use crate::settings::config;
use crate::view::transcript::LayoutOptions;

/// Run `deck render`.
pub fn run(args: RenderArgs) -> anyhow::Result<()> {
    let cfg = config::load()?;
    let theme = config::resolve_theme(args.theme.as_deref(), &cfg)?;
    let density = args.density.or(cfg.density).unwrap_or_default();
    let redactor = if args.redact {
        Some(redact::redactor()?)
    } else {
        None
    };
    let (s, hits) = redact::take_session(&args.path, args.session.as_deref(), redactor)?;
    let t = headless::fold(s.id.clone(), &s.records, args.at);
    drop(s);
    let mut opts = LayoutOptions::new(args.width, density);
    opts.show_reasoning = !args.no_reasoning;
    match redactor {
        // Redacted: staged, checked, then written whole.
        Some(r) => {
            let mut staged = redact::Staged::new("-")?;
            headless::render_to(staged.writer(), &t, &theme, &opts, args.height, args.format)?;
            staged.finish(Some((r, redact::Shape::Text)))?;
            redact::report(r, &hits, args.redact_report);
        }
        None => {
            let stdout = std::io::stdout().lock();
            let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout);
            finish(
                headless::render_to(&mut out, &t, &theme, &opts, args.height, args.format)
                    .and_then(|_| out.flush()),
            )?;
        }
    }
    report_diagnostics(&t);
    if t.items().is_empty() {
        // A valid file with nothing to draw (a host's `session/subscribed`
        // and no event): say so rather than print nothing.
        eprintln!(
            "deck: no events in {}{}",
            crate::text::sanitize::inline(&args.path),
            args.at
                .map_or(String::new(), |at| format!(" up to event {at}"))
        );
    }
    Ok(())
}
