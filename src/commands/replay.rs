//! `deck replay PATH`: play a saved session with its original timing, from
//! its first records read (the rest read behind them; started further in
//! with `--at`: behind a loading screen); the player starts where `--at`
//! says, at `--speed` (a file of several sessions: the session picker
//! first).

use super::shared::tui::open_read;
use crate::app::App;
use crate::app::file_sessions::{FileMode, ReplayOpts};
use crate::app::player::snapped_speed;
use crate::cli::{PlayerArgs, TuiArgs};
use crate::settings::config::Config;
use crate::source::Loaded;

/// Default cap on idle gaps in replays, seconds.
pub const DEFAULT_IDLE_LIMIT: f64 = 3.0;

pub use crate::app::player::StartAt;

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

/// Build a replay app (also used by tests and the demo): `session`, or
/// the file's only one, in the player; a file of several without
/// `session` opens the session picker first.
pub fn replay_app(
    label: String,
    loaded: &Loaded,
    session: Option<&str>,
    player: &PlayerArgs,
    cfg: &Config,
) -> anyhow::Result<App> {
    replay_loaded(label, loaded.clone(), session, player, cfg)
}

/// [`replay_app`], taking the loaded file (its records are not copied).
fn replay_loaded(
    label: String,
    loaded: Loaded,
    session: Option<&str>,
    player: &PlayerArgs,
    cfg: &Config,
) -> anyhow::Result<App> {
    let (opts, note) = replay_opts(player, cfg)?;
    let mut app = App::from_file(label, loaded, session, FileMode::Replay(opts))?;
    if let Some(note) = note {
        app.say(&note);
    }
    Ok(app)
}

/// The player's options from the flags and the config file, and what to
/// say of them (a speed that is not one of the player's).
fn replay_opts(player: &PlayerArgs, cfg: &Config) -> anyhow::Result<(ReplayOpts, Option<String>)> {
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
    if !(speed.is_finite() && speed > 0.0) {
        anyhow::bail!("--speed {speed}: must be a positive number (0.25 … 64)");
    }
    let at = player
        .at
        .as_deref()
        .map(parse_at)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let opts = ReplayOpts {
        idle_ms,
        speed,
        at,
        paused: player.paused,
    };
    // The player plays at fixed speeds; say when the one asked for is not one.
    let snapped = snapped_speed(speed);
    let note = (snapped != speed)
        .then(|| format!("--speed {speed}: playing at {snapped}× (speeds go 0.25× … 64×)"));
    Ok((opts, note))
}

/// `deck replay PATH`: played from its start as soon as its first records
/// are read, the rest read behind them (started further in with `--at`:
/// loaded first, behind a loading screen).
pub fn run(
    path: &str,
    session: Option<&str>,
    tui: TuiArgs,
    player: PlayerArgs,
) -> anyhow::Result<()> {
    open_read("replay", path, session, tui, move |cfg| {
        replay_opts(&player, cfg).map(|(opts, note)| (FileMode::Replay(opts), note))
    })
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
