//! `deck schema [--card TAG]`: the JSON Schema of the views deck draws
//! (`wire::view::schema`), pretty-printed.

use super::shared::output::write_stdout;

/// Run `deck schema`.
pub fn run(card: Option<&str>) -> anyhow::Result<()> {
    // clap admits only the six tags.
    let Some(schema) = crate::wire::view::schema::schema(card) else {
        anyhow::bail!("no card {:?}", card.unwrap_or_default());
    };
    let mut text = serde_json::to_string_pretty(&schema)?;
    text.push('\n');
    write_stdout(text.as_bytes())
}
