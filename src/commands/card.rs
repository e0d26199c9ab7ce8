//! `deck card VIEW`: one view drawn as deck draws it — the card of a
//! finished call, by the same fold and renderers as `deck render`
//! (`testing::render_view`'s machinery) — for a tool author's quick look
//! and their snapshot tests. Deterministic: 80 columns, the dark theme and
//! full density unless told, and no config file read.

use std::io::Read;

use anyhow::Context;

use super::shared::output::write_stdout;
use crate::cli::CardArgs;
use crate::headless::Format;
use crate::settings::config;

/// Run `deck card`.
pub fn run(args: CardArgs) -> anyhow::Result<()> {
    let text = read_view(&args.path)?;
    let view: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not a JSON view", args.path))?;
    let theme = config::resolve_theme(
        Some(args.theme.as_deref().unwrap_or("dark")),
        &config::Config::default(),
    )?;
    let card = crate::testing::render_view_in(view, args.width, &theme, args.density)?;
    // The card says it too (its first line); stderr says it to a script,
    // as `deck lint` does.
    for f in crate::lint::lint_view(&text) {
        if f.severity == crate::lint::Severity::Error {
            eprintln!(
                "{}",
                crate::text::sanitize::message(&format!(
                    "deck: {}: falls back to the generic card: {}",
                    args.path, f.message
                ))
            );
        }
    }
    let out = match args.format {
        Format::Text => &card.text,
        Format::Ansi => &card.ansi,
        Format::Styled => &card.styled,
    };
    write_stdout(out.as_bytes())
}

/// The text of `path` (`-`: stdin).
fn read_view(path: &str) -> anyhow::Result<String> {
    let mut text = String::new();
    if path == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read stdin")?;
    } else {
        text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    }
    Ok(text)
}
