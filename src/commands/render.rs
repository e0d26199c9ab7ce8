//! `deck render PATH`: lay a session out without a terminal UI and write it
//! as text, ANSI or styled text, item by item as it is laid out. Theme and
//! density come from the flags, else the config file.

use std::io::Write;

use super::{finish, report_diagnostics};
use crate::app::config;
use crate::cli::RenderArgs;
use crate::headless;
use crate::source;
use crate::view::transcript::LayoutOptions;

/// Run `deck render`.
pub fn run(args: RenderArgs) -> anyhow::Result<()> {
    let cfg = config::load()?;
    let theme = config::resolve_theme(args.theme.as_deref(), &cfg)?;
    let density = args.density.or(cfg.density).unwrap_or_default();
    let loaded = source::load_path(&args.path)?;
    let s = loaded.session(args.session.as_deref())?;
    super::report_other_sessions(&loaded, args.session.as_deref());
    let t = headless::fold(s.id.clone(), &s.records, args.at);
    let mut opts = LayoutOptions::new(args.width, density);
    opts.show_reasoning = !args.no_reasoning;
    let stdout = std::io::stdout().lock();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout);
    finish(
        headless::render_to(&mut out, &t, &theme, &opts, args.height, args.format)
            .and_then(|_| out.flush()),
    )?;
    report_diagnostics(&t);
    Ok(())
}
