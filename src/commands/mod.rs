//! One file (or folder) per subcommand, and `shared/`, what several of
//! them share. `run` dispatches the parsed command line; each command
//! loads its input through `source`, folds it with `session`, and draws it
//! with the same renderers (`headless` for files, `app` for the terminal).
//! Only this folder (and `main.rs`) writes to stdout.

use std::process::ExitCode;

use crate::cli::{Cli, Command};

mod acp;
pub mod bench;
mod card;
mod connect;
mod demo;
pub mod export;
mod follow;
mod inspect;
mod lint;
mod listen;
mod record;
mod render;
pub mod replay;
mod schema;
mod sessions;
pub mod shared;
mod view;

/// What every run starts with: the log (when `DECK_LOG` asks for it) and
/// the panic hook that says a panic like any message of deck's.
pub fn init() {
    crate::settings::logging::init();
    std::panic::set_hook(Box::new(crate::app::terminal::say_panic));
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let Some(command) = cli.command else {
        demo::run(Default::default(), Default::default())?;
        return Ok(ExitCode::SUCCESS);
    };
    match command {
        Command::Demo { tui, player } => demo::run(tui, player)?,
        Command::Replay {
            path,
            session,
            tui,
            player,
        } => replay::run(&path, session.as_deref(), tui, player)?,
        Command::View { path, session, tui } => view::run(&path, session.as_deref(), tui)?,
        Command::Listen {
            endpoint,
            session,
            tui,
        } => listen::run(&endpoint, session, tui)?,
        Command::Follow {
            path,
            latest,
            session,
            tui,
        } => follow::run(follow::target(path, latest)?, session, tui)?,
        Command::Connect {
            url,
            session,
            latest,
            new,
            cwd,
            preset,
            tui,
        } => {
            let open = connect::Open {
                session,
                latest,
                new,
                cwd,
                preset,
            };
            connect::run(&url, open, tui)?
        }
        Command::Acp(args) => return acp::run(args),
        Command::Record {
            source,
            output,
            session,
            duration,
        } => record::run(&source, output, session, duration)?,
        Command::Render(args) => render::run(args)?,
        Command::Sessions(args) => return sessions::run(args),
        Command::Schema { card } => schema::run(card.as_deref())?,
        Command::Lint(args) => return lint::run(args),
        Command::Card(args) => card::run(args)?,
        Command::Bench { what } => bench::run(what)?,
        Command::Export(args) => export::run(args)?,
        Command::Inspect {
            path,
            session,
            diagnostics,
            sessions,
            turns,
        } => {
            let list = match (diagnostics, sessions, turns) {
                (true, _, _) => inspect::List::Diagnostics,
                (_, true, _) => inspect::List::Sessions,
                (_, _, true) => inspect::List::Turns,
                _ => inspect::List::Calls,
            };
            inspect::run(&path, session.as_deref(), list)?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// An error and its causes on one line, each cause said once (an I/O error
/// that a message already quotes is not repeated), sanitized: paths and ids
/// in it come from the command line and from files.
pub fn error_message(e: &anyhow::Error) -> String {
    let mut msg = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !msg.contains(&c) {
            msg.push_str(": ");
            msg.push_str(&c);
        }
    }
    crate::text::sanitize::message(&msg)
}
