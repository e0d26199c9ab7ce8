//! The `deck` binary: parse the command line, pick a mode, run it.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use deck::cards::{self, Density, Resolution};
use deck::cli::{Cli, Command, DensityArg, FormatArg};
use deck::headless::{self, Format};
use deck::session::Transcript;
use deck::source;
use deck::text::sanitize::json_text;
use deck::theme::Theme;
use deck::view::transcript::LayoutOptions;
use serde_json::{Value, json};

fn main() -> ExitCode {
    deck::app::logging::init();
    std::panic::set_hook(Box::new(deck::app::run::say_panic));
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("deck: {}", error_message(&e));
            ExitCode::FAILURE
        }
    }
}

/// An error and its causes on one line, each cause said once (an I/O error
/// that a message already quotes is not repeated), sanitized: paths and ids
/// in it come from the command line and from files.
fn error_message(e: &anyhow::Error) -> String {
    let mut msg = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !msg.contains(&c) {
            msg.push_str(": ");
            msg.push_str(&c);
        }
    }
    deck::text::sanitize::message(&msg)
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let Some(command) = cli.command else {
        deck::app::launch::demo(Default::default(), Default::default())?;
        return Ok(ExitCode::SUCCESS);
    };
    match command {
        Command::Demo { tui, player } => {
            deck::app::launch::demo(tui, player)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay {
            path,
            session,
            tui,
            player,
        } => {
            deck::app::launch::replay(&path, session.as_deref(), tui, player)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::View { path, session, tui } => {
            deck::app::launch::view(&path, session.as_deref(), tui)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Listen {
            endpoint,
            session,
            tui,
        } => {
            deck::app::live::listen(&endpoint, session, tui)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Follow { path, session, tui } => {
            deck::app::live::follow(path, session, tui)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Connect {
            url,
            session,
            latest,
            new,
            cwd,
            preset,
            tui,
        } => {
            let open = deck::app::live::Open {
                session,
                latest,
                new,
                cwd,
                preset,
            };
            deck::app::live::connect(&url, open, tui)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Record {
            source,
            output,
            session,
            duration,
        } => {
            deck::app::live::record(&source, output, session, duration)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Render {
            path,
            width,
            height,
            at,
            format,
            theme,
            density,
            session,
            no_reasoning,
        } => {
            let theme = Theme::resolve(theme.as_deref())?;
            let loaded = source::load_path(&path)?;
            let s = loaded.session(session.as_deref())?;
            let t = headless::fold(s.id.clone(), &s.records, at);
            let density = match density {
                DensityArg::Line => Density::Line,
                DensityArg::Preview => Density::Preview,
                DensityArg::Full => Density::Full,
            };
            let format = match format {
                FormatArg::Text => Format::Text,
                FormatArg::Ansi => Format::Ansi,
                FormatArg::Styled => Format::Styled,
            };
            let mut opts = LayoutOptions::new(width, density);
            opts.show_reasoning = !no_reasoning;
            let stdout = std::io::stdout().lock();
            let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout);
            match headless::render_to(&mut out, &t, &theme, &opts, height, format)
                .and_then(|_| out.flush())
            {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                r => r?,
            }
            report_diagnostics(&t);
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            what:
                deck::cli::BenchCommand::Frames {
                    path,
                    width,
                    height,
                    iterations,
                    session,
                },
        } => {
            let loaded = source::load_path(&path)?;
            let s = loaded.session(session.as_deref())?;
            let t = Transcript::from_records(s.id.clone(), &s.records);
            let times = deck::app::bench::frames(t, width, height, iterations.max(1));
            write_stdout(format!("{times}\n").as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            what:
                deck::cli::BenchCommand::Pager {
                    path,
                    width,
                    height,
                    jumps,
                    wait_ms,
                    session,
                },
        } => {
            let loaded = source::load_path(&path)?;
            let s = loaded.session(session.as_deref())?;
            let t = Transcript::from_records(s.id.clone(), &s.records);
            let times = deck::app::bench::pager(t, width, height, jumps.max(1), wait_ms);
            write_stdout(format!("{times}\n").as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Export {
            path,
            format,
            output,
            width,
            height,
            speed,
            idle_limit,
            theme,
            session,
        } => {
            let theme = Theme::resolve(theme.as_deref())?;
            if format == deck::cli::ExportFormat::Cast && !(speed.is_finite() && speed > 0.0) {
                anyhow::bail!("--speed must be a positive number");
            }
            let mut loaded = source::load_path(&path)?;
            let at = loaded.session(session.as_deref())?.id.clone();
            // The session's records are taken, not copied: the export holds
            // them once.
            let s = loaded
                .sessions
                .iter()
                .position(|x| x.id == at)
                .map(|i| loaded.sessions.swap_remove(i))
                .unwrap_or_default();
            let title = s.id.clone().unwrap_or_else(|| path.clone());
            // Written as it is made, to the file or stdout.
            let mut out: Box<dyn Write> = if output == "-" {
                Box::new(std::io::BufWriter::with_capacity(
                    1 << 16,
                    std::io::stdout().lock(),
                ))
            } else {
                let f = std::fs::File::create(&output)
                    .map_err(|e| anyhow::anyhow!("cannot write {output}: {e}"))?;
                Box::new(std::io::BufWriter::with_capacity(1 << 16, f))
            };
            let written = match format {
                deck::cli::ExportFormat::Cast => {
                    let opts = deck::app::cast::CastOptions {
                        width: width.max(20),
                        height: height.max(5),
                        speed,
                        idle_limit_ms: (idle_limit > 0.0).then_some((idle_limit * 1000.0) as u64),
                        theme,
                        title,
                    };
                    let stats = deck::app::cast::write_cast(
                        std::sync::Arc::new(s.records),
                        s.id.clone(),
                        &opts,
                        &mut out,
                    )?;
                    eprintln!(
                        "deck: {} frames, {} turn markers, {:.1} s",
                        stats.frames, stats.markers, stats.duration
                    );
                    Ok(())
                }
                deck::cli::ExportFormat::Html => {
                    let t = Transcript::from_records(s.id.clone(), &s.records);
                    drop(s);
                    headless::html::page_to(&mut out, &t, &theme, width as usize, &title)
                }
            };
            match written.and_then(|_| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(e) => anyhow::bail!("cannot write {output}: {e}"),
                Ok(()) => {}
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Inspect {
            path,
            session,
            diagnostics,
            sessions,
        } => {
            let loaded = source::load_path(&path)?;
            let mut out = String::new();
            if sessions {
                for s in &loaded.sessions {
                    let t = Transcript::from_records(s.id.clone(), &s.records);
                    out.push_str(&json_text(&session_line(&loaded, s, &t).to_string()));
                    out.push('\n');
                }
                write_stdout(out.as_bytes())?;
                return Ok(ExitCode::SUCCESS);
            }
            let s = loaded.session(session.as_deref())?;
            let t = Transcript::from_records(s.id.clone(), &s.records);
            if diagnostics {
                // Lines skipped or repaired, and views that did not type, in
                // input order.
                let mut all: Vec<deck::wire::Diagnostic> = t.diagnostics.iter().cloned().collect();
                all.extend(t.cards.iter().flat_map(|c| cards::view_problems(c)));
                all.sort_by_key(|d| (d.origin.line, d.origin.offset));
                for d in &all {
                    let line = json!({"line": d.origin.line, "offset": d.origin.offset, "reason": d.reason, "raw": d.raw});
                    out.push_str(&json_text(&line.to_string()));
                    out.push('\n');
                }
                write_stdout(out.as_bytes())?;
            } else {
                // One line per card, written as it is made: views go out as
                // the JSON text they are kept as.
                let mut w = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
                let mut line = Vec::new();
                let written: std::io::Result<()> = t.cards.iter().try_for_each(|card| {
                    line.clear();
                    serde_json::to_writer(&mut line, &inspect_line(card))?;
                    // serde_json writes valid UTF-8.
                    let text = String::from_utf8_lossy(&line);
                    w.write_all(json_text(&text).as_bytes())?;
                    w.write_all(b"\n")
                });
                match written.and_then(|_| w.flush()) {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                    r => r?,
                }
            }
            report_diagnostics(&t);
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn session_line(loaded: &source::Loaded, s: &source::LoadedSession, t: &Transcript) -> Value {
    json!({
        "sessionId": s.id,
        "format": loaded.format.name(),
        "compressed": loaded.compressed,
        "title": t.title,
        "events": t.events,
        "lastSeq": t.last_seq,
        "cards": t.cards.len(),
        "errors": t.error_count(),
        "diagnostics": t.diagnostics.len(),
    })
}

/// One `deck inspect` line (fields in this order).
#[derive(serde::Serialize)]
struct InspectLine<'a> {
    #[serde(rename = "callId")]
    call_id: &'a str,
    tool: Option<&'a str>,
    status: &'a str,
    #[serde(rename = "callView")]
    call_view: Option<&'a deck::wire::RawJson>,
    #[serde(rename = "resultView")]
    result_view: Option<&'a deck::wire::RawJson>,
    #[serde(rename = "viewSource")]
    view_source: &'static str,
    #[serde(rename = "fallbackReason", skip_serializing_if = "Option::is_none")]
    fallback_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
}

fn inspect_line(card: &deck::session::ToolCard) -> InspectLine<'_> {
    let resolved = cards::resolve(card);
    let view_source = match cards::resolution_of(card, &resolved) {
        Resolution::Wire => "wire",
        Resolution::Presenter => "presenter",
        Resolution::Fallback => "fallback",
    };
    InspectLine {
        call_id: &card.call_id,
        tool: card.tool.as_deref(),
        status: card.status.name(),
        call_view: card.call_view.as_ref().map(|a| &a.raw),
        result_view: card.result_view.as_ref().map(|a| &a.raw),
        view_source,
        fallback_reason: resolved.fallback,
        error: card
            .result
            .as_ref()
            .and_then(|r| r.error.as_ref())
            .map(|err| json!({"name": err.name, "code": err.code})),
    }
}

fn report_diagnostics(t: &Transcript) {
    let n = t.diagnostics.len();
    if n > 0 {
        eprintln!(
            "deck: {n} diagnostic{} (lines skipped or repaired); list them with `deck inspect --diagnostics`",
            if n == 1 { "" } else { "s" }
        );
    }
}

/// Write to stdout; a closed pipe (`deck render … | head`) is not an error.
fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}

/// mimalloc: the reducer and loader allocate many small values; glibc's
/// allocator spent a third of the fold time in malloc/free.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
