//! deck's log: `tracing` events appended to `$XDG_STATE_HOME/deck/deck.log`
//! when `DECK_LOG` asks for them, and nothing at all otherwise (no file, no
//! subscriber: the macros cost a branch). This module owns reading
//! `DECK_LOG` and setting the one subscriber, once, from `main`; the events
//! themselves are written where things happen.
//!
//! It must never write to the terminal, which the TUI draws on: the only
//! exceptions are lines on stderr, before any TUI starts, when the log was
//! asked for and cannot be opened (then deck runs without it), and when it
//! or its folder was readable by other users and was closed up.
//!
//! The log is private (0600, its folders 0700: `crate::private`), and it
//! holds no search query unless asked for by [`QUERIES`], its own target
//! (`DECK_LOG=info,deck::queries=debug`): no level and no other directive
//! turns it on, and the command line is logged with a search's words left
//! out.

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::sync::Mutex;

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;

/// The variable that turns the log on.
pub const ENV: &str = "DECK_LOG";
/// The log's file name, in deck's state folder.
pub const FILE_NAME: &str = "deck.log";
/// The target of events that hold what the user searched for; off unless a
/// directive names it.
pub const QUERIES: &str = "deck::queries";

/// Which events `DECK_LOG` asks for; `None`: the log is off.
///
/// Off: unset, empty, `0`, `off`, `false`, `no`. `1`, `on`, `true`, `yes`
/// mean `info`. Otherwise a level (`error`, `warn`, `info`, `debug`,
/// `trace`) or a comma-separated list of levels and `TARGET=LEVEL`
/// directives (`info,deck::clients::dsh=trace`); a bare word that is not a
/// level is refused, so a misspelt level does not silently log nothing.
/// [`QUERIES`] is off unless a directive names it.
pub fn filter(value: &str) -> Result<Option<Targets>, String> {
    let v = value.trim();
    let is = |words: &[&str]| words.iter().any(|w| v.eq_ignore_ascii_case(w));
    if is(&["", "0", "off", "false", "no"]) {
        return Ok(None);
    }
    if is(&["1", "on", "true", "yes"]) {
        return Ok(Some(
            Targets::new()
                .with_default(LevelFilter::INFO)
                .with_target(QUERIES, LevelFilter::OFF),
        ));
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
    let targets = v.parse::<Targets>().map_err(|e| e.to_string())?;
    let named = v
        .split(',')
        .filter_map(|p| p.split_once('='))
        .any(|(t, _)| t.trim() == QUERIES);
    Ok(Some(if named {
        targets
    } else {
        targets.with_target(QUERIES, LevelFilter::OFF)
    }))
}

/// The command line as the log says it: a search's words (what follows
/// `search`, but options) left out, unless [`QUERIES`] is on.
fn args_logged(args: Vec<String>) -> Vec<String> {
    if tracing::enabled!(target: QUERIES, tracing::Level::ERROR) {
        return args;
    }
    let Some(at) = args
        .iter()
        .position(|a| a == "sessions")
        .and_then(|s| args.iter().skip(s).position(|a| a == "search").map(|i| s + i))
    else {
        return args;
    };
    let mut value_of_option = false;
    args.into_iter()
        .enumerate()
        .map(|(i, a)| {
            let keep = i <= at || a.starts_with('-') || value_of_option;
            value_of_option = a == "--limit";
            if keep { a } else { "…".to_string() }
        })
        .collect()
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
    let mut notes = Vec::new();
    let opened = path
        .parent()
        .map_or(Ok(None), crate::private::dir)
        .and_then(|note| {
            notes.extend(note);
            crate::private::keep(OpenOptions::new().create(true).append(true), &path)
        });
    let file = match opened {
        Ok((f, note)) => {
            notes.extend(note);
            crate::private::say_all(&notes);
            f
        }
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
    let args = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        args = ?args_logged(args),
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
        let t = filter("warn,deck::clients::dsh=trace").unwrap().unwrap();
        assert_eq!(t.default_level(), Some(LevelFilter::WARN));
        assert!(t.would_enable("deck::clients::dsh::client", &tracing::Level::TRACE));
        assert!(!t.would_enable("deck::source::load", &tracing::Level::INFO));
        assert!(t.would_enable("deck::source::load", &tracing::Level::WARN));
        // Without a default, only the named targets log.
        let t = filter("deck=debug").unwrap().unwrap();
        assert!(t.would_enable("deck::app", &tracing::Level::DEBUG));
        assert!(!t.would_enable("hyper", &tracing::Level::ERROR));
    }

    #[test]
    fn queries_are_off_unless_their_target_is_named() {
        let on = |v: &str| {
            filter(v)
                .unwrap()
                .unwrap()
                .would_enable(QUERIES, &tracing::Level::ERROR)
        };
        for v in ["1", "trace", "deck=trace", "trace,deck::library=trace", "deck::queries"] {
            if v == "deck::queries" {
                // A bare target is a level's misspelling: refused.
                assert!(filter(v).is_err());
                continue;
            }
            assert!(!on(v), "{v}");
        }
        assert!(on("info,deck::queries=debug"));
        assert!(on("deck::queries=trace"));
        assert!(!on("info,deck::queries=off"));
    }

    #[test]
    fn a_search_s_words_are_left_out_of_the_command_line() {
        let args = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            args_logged(args("sessions --json search secret words --limit 5 --agent codex")),
            args("sessions --json search … … --limit 5 --agent …")
        );
        assert_eq!(args_logged(args("view search.jsonl")), args("view search.jsonl"));
        assert_eq!(args_logged(args("render search")), args("render search"));
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
