//! `deck sessions`: the session library. On a terminal, the full-screen
//! list (and `deck sessions search QUERY`: its search, with the hits
//! shown); with `--json` or into a pipe, one line per session or per hit.
//! The index is brought up to date first (a progress line on stderr when
//! it is a terminal); on a terminal the list shows at once and the index
//! is updated behind it.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::json;

use super::shared::output::write_stdout;
use crate::cli::{SessionsArgs, SessionsCommand};
use crate::library::{self, Filter, Found, Hit, Library, LibraryError, Progress, SessionRow};
use crate::text::sanitize::json_text;

/// Run `deck sessions`.
pub fn run(args: SessionsArgs) -> anyhow::Result<ExitCode> {
    let cfg = crate::settings::config::load()?;
    let filter = filter(&args)?;
    let mut extra: Vec<PathBuf> = cfg
        .library
        .as_ref()
        .map(|l| l.dirs.iter().map(|d| expand_home(d)).collect())
        .unwrap_or_default();
    extra.extend(args.dirs.iter().cloned());
    let roots = library::Roots::from_env(extra);
    let dir = index_dir()?;
    let lib = if args.reindex {
        Library::reset(&dir)?
    } else {
        Library::open(&dir)?
    };
    crate::private::say_all(lib.tightened());
    if let Some(why) = lib.rebuilt() {
        eprintln!(
            "{}",
            crate::text::sanitize::message(&format!(
                "deck: the session index was built anew ({why})"
            ))
        );
    }
    let query = match &args.search {
        Some(SessionsCommand::Search { query, limit }) => Some((query.join(" "), *limit)),
        None => None,
    };
    if !args.json && std::io::stdout().is_terminal() {
        let open = crate::app::library::Open {
            roots,
            filter,
            query: query.map(|q| q.0),
        };
        crate::app::run::ensure_terminal()?;
        let (lib, tui) = (Arc::new(lib), args.tui);
        let themes = super::shared::tui::themes(&tui, &cfg)?;
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        crate::app::run::run_loading(
            "sessions".into(),
            move |_| {
                let mut app = crate::app::App::library(lib, open, now_ms);
                super::shared::tui::base_app(&mut app, themes, &tui, &cfg)?;
                Ok(app)
            },
            None,
            None,
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let found = library::discover(&roots);
    update(&lib, &found)?;
    match query {
        None => list(&lib, &filter, args.json)?,
        Some((q, limit)) => search(&lib, &filter, &q, limit, args.json)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The filter the options ask for (`--cwd .` is the current directory).
fn filter(args: &SessionsArgs) -> anyhow::Result<Filter> {
    let cwd = match &args.cwd {
        None => None,
        Some(c) => {
            let abs = if c.is_absolute() {
                c.clone()
            } else {
                std::env::current_dir()?.join(c)
            };
            let abs = std::fs::canonicalize(&abs).unwrap_or(abs);
            Some(abs.to_string_lossy().into_owned())
        }
    };
    let since = match &args.since {
        None => None,
        Some(s) => Some(
            library::filter::parse_day(s)
                .ok_or_else(|| anyhow::anyhow!("--since {s:?}: not a date (YYYY-MM-DD)"))?,
        ),
    };
    Ok(Filter {
        agent: args.agent.clone(),
        cwd,
        since,
    })
}

/// `$XDG_CACHE_HOME/deck/index`; `deck/` made private (0700, and the
/// cache folder too when deck has to make it), or closed up with a note.
pub(crate) fn index_dir() -> anyhow::Result<PathBuf> {
    let deck = crate::settings::dirs::cache().ok_or_else(|| {
        anyhow::anyhow!("no cache folder (neither XDG_CACHE_HOME nor HOME is set)")
    })?;
    let note = crate::private::dir(&deck)
        .map_err(|e| anyhow::anyhow!("cannot make {}: {e}", deck.display()))?;
    crate::private::say_all(&note);
    Ok(deck.join("index"))
}

/// `~/x` as the home folder's `x`.
fn expand_home(d: &str) -> PathBuf {
    match (d.strip_prefix("~/"), etcetera::home_dir()) {
        (Some(rest), Ok(home)) => home.join(rest),
        _ => PathBuf::from(d),
    }
}

/// Bring the index up to date, a progress line on stderr (a terminal's)
/// while it takes long; another deck updating it is said and not fatal.
fn update(lib: &Library, found: &[Found]) -> anyhow::Result<()> {
    let progress = Arc::new(Progress::default());
    let show = std::io::stderr().is_terminal();
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let ticker = show.then(|| {
        let (p, done) = (progress.clone(), done.clone());
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if started.elapsed().as_millis() > 300 {
                    eprint!("\r\x1b[K{}", p.line());
                }
            }
            if started.elapsed().as_millis() > 300 {
                eprint!("\r\x1b[K");
            }
        })
    });
    let result = lib.update(found, &progress);
    done.store(true, Ordering::Relaxed);
    if let Some(t) = ticker {
        let _ = t.join();
    }
    match result {
        Ok(_) => Ok(()),
        Err(e @ LibraryError::Busy(_)) => {
            eprintln!("{}", crate::text::sanitize::message(&format!("deck: {e}")));
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

fn row_json(r: &SessionRow) -> serde_json::Value {
    json!({
        "agent": r.agent,
        "id": r.id,
        "title": r.title,
        "cwd": r.cwd,
        "path": r.path,
        "started": r.started.map(library::filter::iso),
        "duration_ms": r.started.zip(r.ended).map(|(a, b)| b - a),
        "calls": r.calls,
        "errors": r.errors,
        "bytes": r.bytes,
        "problem": r.problem,
    })
}

fn list(lib: &Library, filter: &Filter, as_json: bool) -> anyhow::Result<()> {
    let mut out = String::new();
    for r in lib.rows().iter().filter(|r| filter.keeps(r)) {
        if as_json {
            out.push_str(&json_text(&row_json(r).to_string()));
        } else {
            out.push_str(&crate::text::sanitize::inline(&format!(
                "{}  {}  {}  {}  {} calls, {} errors  {}{}",
                r.started
                    .map(library::filter::iso)
                    .unwrap_or_else(|| "-".into()),
                r.agent,
                r.title
                    .as_deref()
                    .or(r.id.as_deref())
                    .unwrap_or("(untitled)"),
                r.cwd.as_deref().unwrap_or("-"),
                r.calls,
                r.errors,
                r.path,
                r.problem
                    .as_deref()
                    .map(|p| format!("  ({p})"))
                    .unwrap_or_default(),
            )));
        }
        out.push('\n');
    }
    write_stdout(out.as_bytes())
}

/// What a hit is in: the call's tool and id, else the entry's kind.
pub(crate) fn hit_place(h: &Hit) -> String {
    let part = if h.part.is_empty() { &h.kind } else { &h.part };
    match (&h.tool, &h.call) {
        (Some(t), Some(c)) => format!("{t} {c} · {part}"),
        (None, Some(c)) => format!("{c} · {part}"),
        _ => part.clone(),
    }
}

fn search(
    lib: &Library,
    filter: &Filter,
    q: &str,
    limit: usize,
    as_json: bool,
) -> anyhow::Result<()> {
    let found = lib.search_kept(q, filter, limit)?;
    let hits = &found.hits;
    let mut out = String::new();
    for h in hits {
        if as_json {
            let v = json!({
                "agent": h.row.agent,
                "id": h.row.id,
                "path": h.row.path,
                "title": h.row.title,
                "item": h.item,
                "call": h.call,
                "tool": h.tool,
                "kind": h.kind,
                "part": h.part,
                "time": h.time.map(library::filter::iso),
                "snippet": h.snippet,
                "marks": h.marks.iter().map(|m| [m.start, m.end]).collect::<Vec<_>>(),
            });
            out.push_str(&json_text(&v.to_string()));
        } else {
            out.push_str(&crate::text::sanitize::inline(&format!(
                "{}  {}  {}  {}",
                h.row.path,
                h.row
                    .title
                    .as_deref()
                    .or(h.row.id.as_deref())
                    .unwrap_or("(untitled)"),
                hit_place(h),
                h.snippet.trim(),
            )));
        }
        out.push('\n');
    }
    if hits.is_empty() && !as_json {
        eprintln!(
            "{}",
            crate::text::sanitize::message(&format!("deck: no match for {q:?}"))
        );
    }
    write_stdout(out.as_bytes())?;
    // The cut said, on stderr (stdout stays the hits alone).
    if found.more {
        let n = hits.len();
        let hits_word = if n == 1 { "hit" } else { "hits" };
        let said = match found.total {
            Some(total) => format!("deck: {n} of {total} hits; --limit N for more"),
            None => format!("deck: the first {n} {hits_word}, more match; --limit N for more"),
        };
        eprintln!("{said}");
    }
    Ok(())
}
