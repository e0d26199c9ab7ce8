//! deck's log: `tracing` events appended to `$XDG_STATE_HOME/deck/deck.log`
//! when `DECK_LOG` asks for them, and nothing at all otherwise (no file, no
//! subscriber: the macros cost a branch). This module owns reading
//! `DECK_LOG` and setting the one subscriber, once, from `main`; the events
//! themselves are written where things happen.
//!
//! It must never write to the terminal, which the TUI draws on: the only
//! exception is one line on stderr, before any TUI starts, when the log was
//! asked for and cannot be opened (then deck runs without it).

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::sync::Mutex;

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;

/// The variable that turns the log on.
pub const ENV: &str = "DECK_LOG";
/// The log's file name, in deck's state folder.
pub const FILE_NAME: &str = "deck.log";

/// Which events `DECK_LOG` asks for; `None`: the log is off.
///
/// Off: unset, empty, `0`, `off`, `false`, `no`. `1`, `on`, `true`, `yes`
/// mean `info`. Otherwise a level (`error`, `warn`, `info`, `debug`,
/// `trace`) or a comma-separated list of levels and `TARGET=LEVEL`
/// directives (`info,deck::source::host=trace`); a bare word that is not a
/// level is refused, so a misspelt level does not silently log nothing.
pub fn filter(value: &str) -> Result<Option<Targets>, String> {
    let v = value.trim();
    let is = |words: &[&str]| words.iter().any(|w| v.eq_ignore_ascii_case(w));
    if is(&["", "0", "off", "false", "no"]) {
        return Ok(None);
    }
    if is(&["1", "on", "true", "yes"]) {
        return Ok(Some(Targets::new().with_default(LevelFilter::INFO)));
    }
    const LEVELS: [&str; 6] = ["error", "warn", "info", "debug", "trace", "off"];
    for part in v.split(',').map(str::trim) {
        let ok = match part.split_once('=') {
            Some((target, level)) => {
                !target.is_empty() && LEVELS.iter().any(|l| level.eq_ignore_ascii_case(l))
            }
            None => LEVELS.iter().any(|l| part.eq_ignore_ascii_case(l)),
        };
        if !ok {
            return Err(format!(
                "{part:?} is not a level (error, warn, info, debug, trace) or TARGET=LEVEL"
            ));
        }
    }
    v.parse::<Targets>().map(Some).map_err(|e| e.to_string())
}

/// Where the log goes: `$XDG_STATE_HOME/deck/deck.log`.
pub fn path() -> Option<PathBuf> {
    super::dirs::state().map(|d| d.join(FILE_NAME))
}

/// Start logging if `DECK_LOG` asks for it: open the log for appending and
/// set the global subscriber. Returns the log's path, `None` when logging
/// is off. Call once, first thing in `main`.
pub fn init() -> Option<PathBuf> {
    let value = std::env::var_os(ENV)?;
    let asked = value
        .to_str()
        .map_or_else(|| Err("not UTF-8".to_string()), filter);
    let filter = match asked {
        Ok(Some(f)) => f,
        Ok(None) => return None,
        Err(reason) => {
            say(&format!("{ENV}: {reason}; the log is off"));
            return None;
        }
    };
    let Some(path) = path() else {
        say(&format!(
            "{ENV} is set but there is no home folder for the log; the log is off"
        ));
        return None;
    };
    let opened = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| OpenOptions::new().create(true).append(true).open(&path));
    let file = match opened {
        Ok(f) => f,
        Err(e) => {
            say(&format!(
                "cannot open the log {}: {e}; the log is off",
                path.display()
            ));
            return None;
        }
    };
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(Mutex::new(file))
        .with_ansi(false)
        .with_thread_names(true)
        // A failed write is not reported on stderr: the TUI owns it.
        .log_internal_errors(false);
    let subscriber = tracing_subscriber::registry().with(layer).with(filter);
    // Already set (a second call): the first one logs.
    tracing::subscriber::set_global_default(subscriber).ok()?;
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        args = ?std::env::args_os().skip(1).collect::<Vec<_>>(),
        "deck started"
    );
    Some(path)
}

/// One line on stderr, before any TUI starts.
fn say(line: &str) {
    eprintln!("deck: {}", crate::text::sanitize::message(line));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(value: &str) -> Option<LevelFilter> {
        filter(value)
            .unwrap_or_else(|e| panic!("{value:?}: {e}"))
            .map(|t| t.default_level().unwrap_or(LevelFilter::OFF))
    }

    #[test]
    fn off_words_turn_the_log_off() {
        for v in ["", "  ", "0", "off", "OFF", "false", "no"] {
            assert!(filter(v).unwrap().is_none(), "{v:?}");
        }
    }

    #[test]
    fn on_words_mean_info() {
        for v in ["1", "on", "true", "Yes", " 1 "] {
            assert_eq!(level(v), Some(LevelFilter::INFO), "{v:?}");
        }
    }

    #[test]
    fn levels_in_any_case() {
        assert_eq!(level("error"), Some(LevelFilter::ERROR));
        assert_eq!(level("warn"), Some(LevelFilter::WARN));
        assert_eq!(level("info"), Some(LevelFilter::INFO));
        assert_eq!(level("DEBUG"), Some(LevelFilter::DEBUG));
        assert_eq!(level("trace"), Some(LevelFilter::TRACE));
    }

    #[test]
    fn directives_set_levels_per_target() {
        let t = filter("warn,deck::source::host=trace").unwrap().unwrap();
        assert_eq!(t.default_level(), Some(LevelFilter::WARN));
        assert!(t.would_enable("deck::source::host::client", &tracing::Level::TRACE));
        assert!(!t.would_enable("deck::source::load", &tracing::Level::INFO));
        assert!(t.would_enable("deck::source::load", &tracing::Level::WARN));
        // Without a default, only the named targets log.
        let t = filter("deck=debug").unwrap().unwrap();
        assert!(t.would_enable("deck::app", &tracing::Level::DEBUG));
        assert!(!t.would_enable("hyper", &tracing::Level::ERROR));
    }

    #[test]
    fn misspelt_levels_and_bad_directives_are_refused() {
        for v in [
            "debg",
            "2",
            "verbose",
            "deck=",
            "=debug",
            "deck=loud",
            "info,,x",
        ] {
            let e = filter(v).expect_err(v);
            assert!(e.contains("not a level"), "{v:?}: {e}");
        }
    }
}
