//! `deck acp [--cwd DIR] [--record FILE] -- CMD ARGS…`: drive an agent that
//! speaks the Agent Client Protocol. In the terminal view (as `deck
//! connect`): the composer sends prompts, Ctrl-c / Esc Esc cancels, a
//! permission request is answered with one of the agent's options (its
//! number, or `y` / `n`: the first that allows / rejects). With `--prompt TEXT` (repeatable): no
//! view; the prompts are sent in order, permission requests answered by
//! `--allow` / `--reject`, and the session rendered to stdout at the end.
//! The client itself is `clients::acp`; how the command ends, on `q`,
//! a signal or a session that does not end, is `end.rs`.

mod end;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::Context;

use super::shared::live::{Drive, Finish, run_tui_with, runtime};
use crate::app::run::{Switcher, ensure_terminal};
use crate::cli::AcpArgs;
use crate::clients::acp::{
    AcpError, Client, Control, Options, Policy, Procs, QUIT_WAIT, Sink, Trace, stop_group,
};
use crate::clients::dsh as host;
use crate::headless::{self, Format};
use crate::settings::config;
use crate::source::live::{self, LinkStatus};
use crate::view::transcript::LayoutOptions;
use end::{Ending, StopOnDrop, say, say_left};

/// Run `deck acp`.
pub fn run(args: AcpArgs) -> anyhow::Result<ExitCode> {
    let dir = match &args.cwd {
        Some(d) => d.clone(),
        None => std::env::current_dir().context("no current directory")?,
    };
    let cwd = dir
        .canonicalize()
        .with_context(|| format!("deck acp: --cwd {}", dir.display()))?;
    let mut command = args.command.clone();
    let program = command.remove(0);
    let opts = Options {
        program,
        args: command,
        cwd,
        procs: Procs::new(),
    };
    // However this is left, nothing deck started outlives it.
    let _stop = StopOnDrop(opts.procs.clone());
    let file = match &args.record {
        // Created 0600: the recording holds the session's text.
        Some(p) => Some(
            crate::private::create(
                std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true),
                p,
            )
            .with_context(|| format!("deck acp: cannot create {}", p.display()))?,
        ),
        None => None,
    };
    if args.prompt.is_empty() {
        interactive(args, opts, file)
    } else {
        scripted(args, opts, file)
    }
}

/// The error of a session, saying where its recording is.
fn failed(e: AcpError, record: &Option<PathBuf>) -> anyhow::Error {
    let kept = match record {
        Some(p) => format!(" (the recording so far is in {})", p.display()),
        None => String::new(),
    };
    anyhow::anyhow!("acp: {e}{kept}")
}

/// `--prompt …`: no view; the session rendered at the end.
fn scripted(args: AcpArgs, opts: Options, file: Option<std::fs::File>) -> anyhow::Result<ExitCode> {
    let policy = if args.allow {
        Policy::Allow
    } else {
        Policy::Reject
    };
    let rt = runtime()?;
    let prompts = args.prompt.clone();
    // A signal ends the session as the end of the prompts would: the
    // control channel closes (the running turn is cancelled).
    let (ctl, rx) = tokio::sync::mpsc::channel::<Control>(1);
    let ctl = Arc::new(Mutex::new(Some(ctl)));
    let signalled = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (close, flag) = (ctl.clone(), signalled.clone());
    let on_signal = Box::new(move || {
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut c) = close.lock() {
            c.take();
        }
    });
    let ending = Ending::start(opts.procs.clone(), false, on_signal)?;
    let ended = rt.block_on(async move {
        let trace = Trace::new(file, Sink::Keep(Vec::new()));
        let mut client = Client::spawn(opts, trace, policy)?;
        let group = client.group();
        let ended = match client.open().await {
            Ok(_) => client.run(rx, prompts).await,
            Err(e) => Err(e),
        };
        // A session that failed was not closed: what the agent started goes.
        if let (Err(_), Some(g)) = (&ended, group) {
            stop_group(g);
        }
        ended
    });
    rt.shutdown_background();
    ending.quitting();
    say_left(&ending.stop());
    drop(ctl);
    let ended = ended.map_err(|e| failed(e, &args.record))?;
    for n in &ended.notices {
        say(&format!("deck acp: {n}"));
    }
    let cfg = config::load()?;
    let theme = config::resolve_theme(args.tui.theme.as_deref(), &cfg)?;
    let density = args.tui.density.or(cfg.density).unwrap_or_default();
    let t = headless::fold(None, &ended.records, None);
    let opts = LayoutOptions::new(args.width, density);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    super::shared::output::finish(
        headless::render_to(&mut out, &t, &theme, &opts, None, Format::Text)
            .and_then(|_| out.flush()),
    )?;
    say(&format!(
        "deck acp: {} turn(s): {}",
        ended.stops.len(),
        ended.stops.join(", ")
    ));
    if signalled.load(std::sync::atomic::Ordering::Relaxed) {
        say("deck acp: ended by a signal");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The terminal view, driving the agent as `deck connect` drives a host.
fn interactive(
    args: AcpArgs,
    opts: Options,
    file: Option<std::fs::File>,
) -> anyhow::Result<ExitCode> {
    ensure_terminal()?;
    // The view's loop ends on SIGINT / SIGTERM by itself.
    let ending = Ending::start(opts.procs.clone(), true, Box::new(|| {}))?;
    let rt = runtime()?;
    let (tx, rx) = live::channel();
    let label = format!("acp {}", opts.program);
    let cwd = opts.cwd.to_string_lossy().into_owned();
    // The agent is started and the session opened before the view takes
    // the terminal: what goes wrong there is said plainly.
    let trace = Trace::new(file, Sink::Live(tx.clone()));
    let origin = trace.start_epoch_ms();
    let client = rt.block_on(async move {
        let mut client = Client::spawn(opts, trace, Policy::Ask)?;
        match client.open().await {
            Ok(id) => Ok((client, id)),
            Err(e) => {
                // Not opened: what the agent started goes with it.
                if let Some(g) = client.group() {
                    stop_group(g);
                }
                Err(e)
            }
        }
    });
    let (client, session) = client.map_err(|e| failed(e, &args.record))?;
    let group = client.group();
    let (ctl_tx, ctl_rx) = tokio::sync::mpsc::channel(16);
    let error: Arc<Mutex<Option<String>>> = Arc::default();
    let keep = error.clone();
    let running = rt.spawn(async move {
        let r = client.run(ctl_rx, Vec::new()).await;
        let status = match r {
            Ok(_) => LinkStatus::Ended,
            Err(e) => {
                let reason = e.to_string();
                if let Ok(mut k) = keep.lock() {
                    *k = Some(reason.clone());
                }
                let _ = tx.diagnostic(format!("deck acp: {reason}")).await;
                LinkStatus::Failed { reason }
            }
        };
        let _ = tx.status(status).await;
    });
    let switch: Switcher = Box::new(move |c| {
        if let Some(c) = control(c) {
            let _ = ctl_tx.try_send(c);
        }
    });
    let drive = Drive {
        history: Vec::new(),
        typing: true,
        cwd: Some(cwd),
        preset: None,
        host: None,
        held: true,
        clock_origin_ms: Some(origin),
    };
    // Once the view is closed (the control channel with it), the session
    // closes: the running turn cancelled, the agent and its terminals
    // stopped. Should that not be over in time, the agent's process group
    // is stopped all the same, and then whatever is left of what deck
    // started: nothing outlives it. Should even that hang, the ending
    // watch exits deck.
    let left: Arc<Mutex<Vec<String>>> = Arc::default();
    let said = left.clone();
    let finish: Finish = Box::new(move |rt| {
        ending.quitting();
        let wait = QUIT_WAIT + std::time::Duration::from_secs(3);
        let _ = rt.block_on(async { tokio::time::timeout(wait, running).await });
        if let Some(g) = group {
            stop_group(g);
        }
        if let Ok(mut l) = said.lock() {
            *l = ending.stop();
        }
    });
    run_tui_with(
        label,
        Some(session),
        &args.tui,
        rt,
        rx,
        Some((switch, drive)),
        false,
        Some(finish),
    )?;
    if let Ok(l) = left.lock() {
        say_left(&l);
    }
    let said = error.lock().ok().and_then(|e| e.clone());
    match said {
        Some(e) => Err(anyhow::anyhow!(
            "deck acp: {e}{}",
            args.record
                .as_ref()
                .map(|p| format!(" (the recording is in {})", p.display()))
                .unwrap_or_default()
        )),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// What the view's composer and approval keys ask, for the ACP client.
fn control(c: host::Control) -> Option<Control> {
    match c {
        host::Control::Prompt { text, .. } => Some(Control::Prompt(text)),
        host::Control::Cancel => Some(Control::Cancel),
        host::Control::Respond { value, .. } => {
            // The reader names a permission request `permission-<JSON-RPC id>`.
            let id = value
                .get("approvalId")?
                .as_str()?
                .strip_prefix("permission-")?;
            // The option chosen; none when the agent offered none.
            let option = value
                .get("optionId")
                .and_then(|o| o.as_str())
                .map(str::to_string);
            Some(Control::Permission {
                id: id.to_string(),
                option,
            })
        }
        host::Control::Switch(_) | host::Control::Create { .. } => None,
    }
}
