//! What the interactive commands share: the config file and the
//! command-line options applied to a new app, and inputs loaded behind the
//! loading screen.

use crate::app::App;
use crate::app::backdrop::Colours;
use crate::cards::Density;
use crate::cli::TuiArgs;
use crate::settings::config::{self, Config};
use crate::source::{self, Loaded};

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

/// Load a path, telling `progress` how far it got.
pub(crate) fn load(path: &str, progress: &crate::app::loading::Progress) -> anyhow::Result<Loaded> {
    if path != "-"
        && let Ok(m) = std::fs::metadata(path)
    {
        progress
            .total
            .store(m.len(), std::sync::atomic::Ordering::Relaxed);
    }
    let loaded = source::load_path_counted(path, &progress.bytes)?;
    progress
        .folding
        .store(true, std::sync::atomic::Ordering::Relaxed);
    Ok(loaded)
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

/// Open the session file at `path` behind the loading screen: loaded with
/// its progress shown, then `make` builds the app from it, and the config
/// file and the options are applied (`deck view`, `deck replay`).
pub(crate) fn open_file(
    mode: &str,
    path: &str,
    session: Option<&str>,
    tui: TuiArgs,
    make: impl FnOnce(String, Loaded, Option<&str>, &Config) -> anyhow::Result<App> + Send + 'static,
) -> anyhow::Result<()> {
    crate::app::run::ensure_terminal()?;
    tracing::info!(mode, path, session, "opening");
    let cfg = config::load()?;
    let themes = themes(&tui, &cfg)?;
    let (path, session) = (path.to_string(), session.map(str::to_string));
    crate::app::run::run_loading(
        label(&path),
        move |progress| {
            let loaded = load(&path, progress)?;
            let mut app = make(label(&path), loaded, session.as_deref(), &cfg)?;
            base_app(&mut app, themes, &tui, &cfg)?;
            Ok(app)
        },
        None,
        None,
    )
}

/// `deck view PATH`: the session file opened as it is read (its first
/// cards at once, the rest behind them: `app::run::open_streamed`), the
/// config file and the options applied.
pub(crate) fn view_file(path: &str, session: Option<&str>, tui: TuiArgs) -> anyhow::Result<()> {
    crate::app::run::ensure_terminal()?;
    tracing::info!(mode = "view", path, session, "opening");
    let cfg = config::load()?;
    let themes = themes(&tui, &cfg)?;
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
                crate::app::file_sessions::FileMode::View,
                progress,
                feed,
            )?;
            tracing::debug!(
                cards = app.transcript().cards().len(),
                loading = app.is_loading(),
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "opened"
            );
            base_app(&mut app, themes, &tui, &cfg)?;
            Ok(app)
        },
        Some(crate::app::run::Feed::Msgs(rx)),
        None,
    )
}
