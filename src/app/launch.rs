//! Starting the interactive commands: load the input, apply the config
//! file and the command-line options, build the app and run the driver.

use std::sync::Arc;

use super::config::{self, Config};
use super::player::Player;
use super::state::App;
use crate::cards::Density;
use crate::cli::{DensityArg, PlayerArgs, TuiArgs};
use crate::session::Transcript;
use crate::source::{self, Loaded};

/// Default cap on idle gaps in replays, seconds.
pub const DEFAULT_IDLE_LIMIT: f64 = 3.0;

/// `--at`: an event seq or a time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StartAt {
    Seq(u64),
    Ms(i64),
}

/// Parse `120` (seq), `1:30`, `0:01:30`, `90s`, `1.5s`.
pub fn parse_at(s: &str) -> Result<StartAt, String> {
    let s = s.trim();
    if let Some(secs) = s.strip_suffix('s') {
        return secs
            .parse::<f64>()
            .map(|x| StartAt::Ms((x * 1000.0) as i64))
            .map_err(|_| format!("--at {s:?}: not a time"));
    }
    if s.contains(':') {
        let mut secs = 0.0;
        for part in s.split(':') {
            let v: f64 = part
                .parse()
                .map_err(|_| format!("--at {s:?}: not a time (use m:ss)"))?;
            secs = secs * 60.0 + v;
        }
        return Ok(StartAt::Ms((secs * 1000.0) as i64));
    }
    s.parse::<u64>()
        .map(StartAt::Seq)
        .map_err(|_| format!("--at {s:?}: expected an event seq or a time like 1:30"))
}

fn density(arg: Option<DensityArg>, cfg: &Config) -> Density {
    match arg {
        Some(DensityArg::Line) => Density::Line,
        Some(DensityArg::Preview) => Density::Preview,
        Some(DensityArg::Full) => Density::Full,
        None => cfg
            .density
            .as_deref()
            .and_then(Density::parse)
            .unwrap_or_default(),
    }
}

pub(crate) fn base_app(app: &mut App, tui: &TuiArgs, cfg: &Config) -> anyhow::Result<()> {
    let (themes, idx) = config::resolve_themes(tui.theme.as_deref(), cfg)?;
    app.themes = themes;
    app.theme_idx = idx;
    app.density = density(tui.density, cfg);
    Ok(())
}

/// Build a replay app (also used by tests and the demo).
pub fn replay_app(
    label: String,
    loaded: &Loaded,
    session: Option<&str>,
    player: &PlayerArgs,
    cfg: &Config,
) -> anyhow::Result<App> {
    let s = loaded.session(session)?;
    let idle = player
        .idle_limit
        .or(cfg.idle_limit)
        .unwrap_or(DEFAULT_IDLE_LIMIT);
    let idle_ms = if idle > 0.0 {
        Some((idle * 1000.0) as u64)
    } else {
        None
    };
    let speed = player.speed.or(cfg.speed).unwrap_or(1.0);
    let mut p = Player::new(Arc::new(s.records.clone()), s.id.clone(), idle_ms, speed);
    if let Some(at) = &player.at {
        match parse_at(at).map_err(anyhow::Error::msg)? {
            StartAt::Seq(seq) => p.seek_seq(seq),
            StartAt::Ms(ms) => p.seek_ms(ms),
        }
    }
    p.playing = !player.paused;
    Ok(App::replayer(label, p, Vec::new()))
}

/// `deck` / `deck demo`.
pub fn demo(tui: TuiArgs, player: PlayerArgs) -> anyhow::Result<()> {
    super::run::ensure_terminal()?;
    tracing::info!(mode = "demo", "opening");
    let cfg = config::load()?;
    let loaded = source::load_bytes("demo", source::demo::SHOWCASE)?;
    let mut app = replay_app("demo".into(), &loaded, None, &player, &cfg)?;
    base_app(&mut app, &tui, &cfg)?;
    super::run::run(app, None)
}

/// `deck replay PATH`: loaded behind a loading screen.
pub fn replay(
    path: &str,
    session: Option<&str>,
    tui: TuiArgs,
    player: PlayerArgs,
) -> anyhow::Result<()> {
    super::run::ensure_terminal()?;
    tracing::info!(mode = "replay", path, session, "opening");
    let cfg = config::load()?;
    let (path, session) = (path.to_string(), session.map(str::to_string));
    super::run::run_loading(
        label(&path),
        move |progress| {
            let loaded = load(&path, progress)?;
            let mut app = replay_app(label(&path), &loaded, session.as_deref(), &player, &cfg)?;
            base_app(&mut app, &tui, &cfg)?;
            Ok(app)
        },
        None,
        None,
    )
}

/// `deck view PATH`: loaded and folded behind a loading screen.
pub fn view(path: &str, session: Option<&str>, tui: TuiArgs) -> anyhow::Result<()> {
    super::run::ensure_terminal()?;
    tracing::info!(mode = "view", path, session, "opening");
    let cfg = config::load()?;
    let (path, session) = (path.to_string(), session.map(str::to_string));
    super::run::run_loading(
        label(&path),
        move |progress| {
            let loaded = load(&path, progress)?;
            let s = loaded.session(session.as_deref())?;
            let started = std::time::Instant::now();
            let t = Transcript::from_records(s.id.clone(), &s.records);
            tracing::debug!(
                cards = t.cards.len(),
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "folded"
            );
            let mut app = App::viewer(label(&path), t, Vec::new());
            base_app(&mut app, &tui, &cfg)?;
            Ok(app)
        },
        None,
        None,
    )
}

/// Load a path, telling `progress` how far it got.
fn load(path: &str, progress: &super::run::Progress) -> anyhow::Result<Loaded> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_parses_seqs_and_times() {
        assert_eq!(parse_at("120"), Ok(StartAt::Seq(120)));
        assert_eq!(parse_at("1:30"), Ok(StartAt::Ms(90_000)));
        assert_eq!(parse_at("1:00:05"), Ok(StartAt::Ms(3_605_000)));
        assert_eq!(parse_at("90s"), Ok(StartAt::Ms(90_000)));
        assert_eq!(parse_at("1.5s"), Ok(StartAt::Ms(1500)));
        assert!(parse_at("soon").is_err());
        assert!(parse_at("1:xx").is_err());
    }
}
