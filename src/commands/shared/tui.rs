//! What the interactive commands share: the config file and the
//! command-line options applied to a new app, and a session file opened as
//! it is read (`deck view`, `deck replay`).

use crate::app::App;
use crate::app::backdrop::Colours;
use crate::app::file_sessions::FileMode;
use crate::cards::Density;
use crate::cli::TuiArgs;
use crate::settings::config::{self, Config};

/// `--density`, else the config file's, else the default.
fn density(arg: Option<Density>, cfg: &Config) -> Density {
    arg.or(cfg.density).unwrap_or_default()
}

/// The themes `--theme` and the config file ask for, and the one to start
/// with. `auto` asks the terminal for its background (OSC 11): call this
/// before the app's input thread reads the terminal, or that thread takes
/// the answer and the query waits for a key (a blank screen until then).
pub(crate) fn themes(tui: &TuiArgs, cfg: &Config) -> anyhow::Result<Themes> {
    Ok(config::resolve_themes(tui.theme.as_deref(), cfg)?)
}

/// The themes and the index of the one to start with.
pub(crate) type Themes = (Vec<crate::theme::Theme>, usize);

/// Apply the config file, the command-line options and the `themes` to a
/// new app, and what the terminal shows of colours (a notice on the status
/// bar and in the log when the theme's background is not painted).
pub(crate) fn base_app(
    app: &mut App,
    (themes, idx): Themes,
    tui: &TuiArgs,
    cfg: &Config,
) -> anyhow::Result<()> {
    app.set_themes(themes, idx);
    app.set_density(density(tui.density, cfg));
    let colours = Colours::from_env();
    if let Some(note) = app.set_colours(colours) {
        tracing::info!(
            theme = %app.theme().name,
            no_color = colours.no_color,
            truecolor = colours.truecolor,
            "{note}"
        );
        let note = match app.message() {
            Some(m) => format!("{m} · {note}"),
            None => note,
        };
        app.say(&note);
    }
    Ok(())
}

/// The file name, for the status bar.
pub fn label(path: &str) -> String {
    if path == "-" {
        return "stdin".into();
    }
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// `deck view` / `deck replay` of the file at `path`: opened as it is read
/// (its first cards at once, the rest behind them:
/// `app::run::open_streamed`), shown as `mode` says (made from the config
/// file, with a note for the status line), the config file and the options
/// applied.
pub(crate) fn open_read(
    name: &str,
    path: &str,
    session: Option<&str>,
    tui: TuiArgs,
    mode: impl FnOnce(&Config) -> anyhow::Result<(FileMode, Option<String>)>,
) -> anyhow::Result<()> {
    crate::app::run::ensure_terminal()?;
    tracing::info!(mode = name, path, session, "opening");
    let cfg = config::load()?;
    let themes = themes(&tui, &cfg)?;
    let (mode, note) = mode(&cfg)?;
    let (path, session) = (path.to_string(), session.map(str::to_string));
    let (feed, rx) = std::sync::mpsc::sync_channel(crate::source::live::CHANNEL_BATCHES);
    crate::app::run::run_loading(
        label(&path),
        move |progress| {
            let started = std::time::Instant::now();
            let mut app = crate::app::run::open_streamed(
                label(&path),
                &path,
                session.as_deref(),
                mode,
                progress,
                feed,
            )?;
            tracing::debug!(
                cards = app.transcript().cards().len(),
                loading = app.is_loading(),
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "opened"
            );
            if let Some(note) = note {
                app.say(&note);
            }
            base_app(&mut app, themes, &tui, &cfg)?;
            Ok(app)
        },
        Some(crate::app::run::Feed::Msgs(rx)),
        None,
    )
}
