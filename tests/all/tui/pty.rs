//! The real `deck` binary end to end under a pseudo-terminal (portable-pty):
//! its output is fed to a `vt100::Parser` to read the screen, keys are typed
//! into the pty, and every wait polls the screen against a deadline. Checks
//! that the terminal is restored on the way out (alternate screen left,
//! mouse reporting off, cursor shown, cooked mode back), and that the
//! interactive commands refuse to start when stdout is not a terminal.
//! [`Tui::hang_up`] takes the terminal away. The other ways out (signals,
//! a hang-up, a load error, a panic): `tui/pty_exits.rs`; `deck connect`
//! under a pty: `tui/pty_connect.rs`.

use std::io::{Read, Write};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

use crate::common::{self, build};

const ROWS: u16 = 30;
const COLS: u16 = 100;
/// How long any one screen may take to appear (generous: CI machines are slow).
pub(crate) const DEADLINE: Duration = Duration::from_secs(10);

/// A `deck` process on a pty, with the screen it drew so far.
pub(crate) struct Tui {
    /// The pty's master side (`None` once hung up).
    master: Option<Box<dyn MasterPty + Send>>,
    writer: Option<Box<dyn Write + Send>>,
    pub(crate) child: Box<dyn Child + Send + Sync>,
    pub(crate) parser: Arc<Mutex<vt100::Parser>>,
    pub(crate) raw: Arc<Mutex<Vec<u8>>>,
    reader: Option<JoinHandle<()>>,
    /// Tells the reader to let go of its copy of the master.
    stop_reading: Arc<AtomicBool>,
}

/// Answer what a terminal answers, as xterm and tmux do: its background
/// colour (OSC 11, black) and its device attributes (DA1), which deck asks
/// when its theme is `auto`.
fn answer_queries(fd: std::os::fd::RawFd, out: &[u8]) {
    let has = |q: &[u8]| out.windows(q.len()).any(|w| w == q);
    let mut answer = Vec::new();
    if has(b"\x1b]11;?") {
        answer.extend_from_slice(b"\x1b]11;rgb:0000/0000/0000\x1b\\");
    }
    if has(b"\x1b[c") || has(b"\x1b[0c") {
        answer.extend_from_slice(b"\x1b[?62;22c");
    }
    if !answer.is_empty() {
        // SAFETY: a valid fd and buffer; a short or failed write only
        // leaves the query unanswered, as a terminal that does not answer.
        unsafe { libc::write(fd, answer.as_ptr().cast(), answer.len()) };
    }
}

impl Tui {
    pub(crate) fn spawn(args: &[&str]) -> Tui {
        Tui::spawn_with(args, &[])
    }

    pub(crate) fn spawn_with(args: &[&str], env: &[(&str, &str)]) -> Tui {
        Tui::spawn_under(&[], args, env)
    }

    /// [`Tui::spawn_with`] on a terminal that answers deck's queries of it
    /// (its background colour, its attributes), as xterm and tmux do.
    pub(crate) fn spawn_answering(args: &[&str], env: &[(&str, &str)]) -> Tui {
        Tui::spawn_inner(&[], args, env, true)
    }

    /// deck run by `wrapper` (a program and its arguments, then deck's
    /// path and `args`): a wrapper that sets up what deck inherits.
    pub(crate) fn spawn_under(wrapper: &[&str], args: &[&str], env: &[(&str, &str)]) -> Tui {
        Tui::spawn_inner(wrapper, args, env, false)
    }

    fn spawn_inner(wrapper: &[&str], args: &[&str], env: &[(&str, &str)], answer: bool) -> Tui {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        // A config folder that does not exist: no user config or themes
        // from the machine running the tests.
        let config = std::env::temp_dir().join("deck-pty-tests-no-config");
        let deck = env!("CARGO_BIN_EXE_deck");
        let mut cmd = CommandBuilder::new(wrapper.first().copied().unwrap_or(deck));
        if !wrapper.is_empty() {
            cmd.args(&wrapper[1..]);
            cmd.arg(deck);
        }
        cmd.args(args);
        cmd.cwd(env!("CARGO_MANIFEST_DIR"));
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        cmd.env_remove("COLORFGBG");
        // A terminal that says it shows 24-bit colour (the pty's parser does):
        // the theme's background is painted, no notice about it.
        cmd.env("COLORTERM", "truecolor");
        cmd.env("XDG_CONFIG_HOME", &config);
        cmd.env_remove("DECK_LOG");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pty.slave.spawn_command(cmd).expect("spawn deck");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let fd = pty.master.as_raw_fd().expect("the pty's master fd");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLS, 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let stop_reading = Arc::new(AtomicBool::new(false));
        let (p, r, stop) = (parser.clone(), raw.clone(), stop_reading.clone());
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            // Ends at EOF or EIO (the child and every copy of the slave are
            // gone), or when told to (a hang-up: its copy must go).
            while !stop.load(Ordering::Relaxed) {
                let mut pfd = libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                };
                // SAFETY: one valid pollfd.
                if unsafe { libc::poll(&mut pfd, 1, 50) } == 0 {
                    continue;
                }
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        p.lock().unwrap().process(&buf[..n]);
                        r.lock().unwrap().extend_from_slice(&buf[..n]);
                        if answer {
                            answer_queries(fd, &buf[..n]);
                        }
                    }
                }
            }
        });
        Tui {
            master: Some(pty.master),
            writer: Some(writer),
            child,
            parser,
            raw,
            reader: Some(reader),
            stop_reading,
        }
    }

    /// The terminal goes away, as when its window is closed or the tmux
    /// session killed: every copy of the pty's master is closed, so the
    /// kernel hangs up deck's side (SIGHUP to it, EIO on its reads and
    /// writes). What deck drew so far stays readable.
    pub(crate) fn hang_up(&mut self) {
        self.stop_reading.store(true, Ordering::Relaxed);
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
        if let Some(master) = &self.master
            && let Some(fd) = master.as_raw_fd()
        {
            // The writer sends an EOF on its way out when VEOF is set: none.
            // SAFETY: termios of the pty's master fd, read and set back.
            unsafe {
                let mut t: libc::termios = std::mem::zeroed();
                if libc::tcgetattr(fd, &mut t) == 0 {
                    t.c_cc[libc::VEOF] = 0;
                    libc::tcsetattr(fd, libc::TCSANOW, &t);
                }
            }
        }
        self.writer = None;
        self.master = None;
    }

    /// deck's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.process_id().expect("a child pid")
    }

    /// Whether deck has exited (`Some`: how), without waiting.
    pub(crate) fn exited(&mut self) -> Option<portable_pty::ExitStatus> {
        self.child.try_wait().unwrap()
    }

    pub(crate) fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Every cell of the screen, as the emulator holds it: each row a list
    /// of (contents, wide) — what is really shown, fragments included.
    pub(crate) fn cells(&self) -> Vec<Vec<(String, bool)>> {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        let (rows, cols) = screen.size();
        (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| {
                        screen
                            .cell(r, c)
                            .map(|x| (x.contents().to_string(), x.is_wide()))
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .collect()
    }

    /// Resize the pty (the process gets SIGWINCH).
    pub(crate) fn resize(&mut self, cols: u16, rows: u16) {
        self.master
            .as_ref()
            .expect("a terminal not hung up")
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize the pty");
        self.parser
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(rows, cols);
    }

    /// Wait until the screen has not changed for `quiet`.
    pub(crate) fn settle(&mut self, quiet: Duration) -> Vec<Vec<(String, bool)>> {
        let start = Instant::now();
        let mut last = self.cells();
        let mut since = Instant::now();
        while since.elapsed() < quiet {
            std::thread::sleep(Duration::from_millis(20));
            let now = self.cells();
            if now != last {
                last = now;
                since = Instant::now();
            }
            assert!(start.elapsed() < DEADLINE, "the screen never settled");
        }
        last
    }

    /// The bottom row: the status bar.
    pub(crate) fn status(&self) -> String {
        self.screen().lines().last().unwrap_or("").to_string()
    }

    /// Poll until `pred` holds for the screen; panic with the screen when the deadline passes.
    pub(crate) fn wait_for(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("deck exited ({status:?}) while waiting for {what}; screen:\n{s}");
            }
            if start.elapsed() > DEADLINE {
                let _ = self.child.kill();
                panic!("timed out waiting for {what}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub(crate) fn send(&mut self, keys: &str) {
        let w = self.writer.as_mut().expect("a terminal not hung up");
        w.write_all(keys.as_bytes()).unwrap();
        w.flush().unwrap();
    }

    /// The background colour of the cell at (`row`, `col`) as drawn so far.
    pub(crate) fn bg(&self, row: u16, col: u16) -> Option<vt100::Color> {
        let parser = self.parser.lock().unwrap();
        parser.screen().cell(row, col).map(vt100::Cell::bgcolor)
    }

    /// Everything the process wrote to the terminal so far.
    pub(crate) fn raw_text(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned()
    }

    /// Wait for the process to end, then for its last output.
    pub(crate) fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > DEADLINE {
                let _ = self.child.kill();
                panic!("deck did not exit; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
        status
    }

    /// The pty's local mode flags, by name (`ICANON`, `ECHO` …).
    pub(crate) fn local_flags(&self) -> Vec<String> {
        let t = self
            .master
            .as_ref()
            .and_then(|m| m.get_termios())
            .expect("termios of the pty");
        format!("{:?}", t.local_flags)
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// Everything the process wrote after it last left the alternate screen.
    pub(crate) fn assert_restored(&self) {
        let raw = self.raw.lock().unwrap();
        let out = String::from_utf8_lossy(&raw);
        let enter = out
            .rfind("\x1b[?1049h")
            .expect("entered the alternate screen");
        let leave = out.rfind("\x1b[?1049l").expect("left the alternate screen");
        assert!(leave > enter, "the last alternate-screen switch enters it");
        let tail = &out[leave + "\x1b[?1049l".len()..];
        assert_eq!(
            without_csi(tail),
            "",
            "only mode switches after leaving, nothing drawn: {tail:?}"
        );
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        assert!(!screen.alternate_screen(), "back on the main screen");
        assert!(!screen.hide_cursor(), "the cursor is shown again");
        assert_eq!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse reporting is off"
        );
        drop(parser);
        let flags = self.local_flags();
        for f in ["ICANON", "ECHO", "ISIG"] {
            assert!(flags.iter().any(|x| x == f), "{f} back on: {flags:?}");
        }
    }
}

/// `s` without its CSI sequences (`ESC [ params final`).
fn without_csi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            for p in chars.by_ref() {
                if ('@'..='~').contains(&p) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl Drop for Tui {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
    }
}

/// What the library says the status bar shows after searching the showcase
/// for `query` at the pty's size: the binary must show the same.
fn expected_match_message(query: &str) -> String {
    let mut app = common::tui::viewer_sized(common::tui::SHOWCASE, COLS, ROWS);
    common::tui::typed(&mut app, &format!("/{query}"));
    app.update(common::tui::key(KeyCode::Enter));
    app.message().map(str::to_string).expect("a match message")
}

#[test]
fn view_showcase_end_search_pager_and_quit() {
    let mut tui = Tui::spawn(&["view", "demo-sessions/showcase.jsonl", "--theme", "dark"]);
    // The whole first frame: the screen is read as it arrives, and the
    // status bar is its last row.
    let first = tui.wait_for("the first screen", |s| {
        s.contains("── turn 1 ─")
            && s.contains("showcase.jsonl")
            && s.lines().last().is_some_and(|l| l.contains("? help"))
    });
    assert!(first.contains("› Tidy up the parser"), "{first}");
    assert!(tui.status().contains("dark · ? help"), "{}", tui.status());
    let flags = tui.local_flags();
    assert!(!flags.iter().any(|x| x == "ICANON"), "raw mode: {flags:?}");
    assert!(tui.parser.lock().unwrap().screen().alternate_screen());

    tui.send("G");
    let end = tui.wait_for("the end of the session", |s| {
        s.contains("Watch the dev server logs for me.") && s.contains("tail -f logs/dev.log")
    });
    assert!(!end.contains("── turn 1 ─"), "{end}");

    tui.send("/");
    tui.wait_for("the search prompt", |s| s.contains("search all cards /"));
    tui.send("parse_line\r");
    let want = expected_match_message("parse_line");
    assert!(want.starts_with("match 1/"), "{want}");
    tui.wait_for("the match count", |s| s.contains(&want));
    assert!(tui.status().contains(&want), "{}", tui.status());

    tui.send("v");
    tui.wait_for("the pager's status line", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("· wrap on · / search · q back"))
    });
    assert!(tui.status().contains("line 1/"), "{}", tui.status());

    tui.send("q");
    tui.wait_for("the transcript again", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("? help") && !l.contains("q back"))
    });
    tui.send("q");
    let status = tui.wait_exit();
    assert!(status.success(), "{status:?}");
    tui.assert_restored();
}

#[test]
fn demo_starts_paused_and_the_player_keys_move_it() {
    let mut tui = Tui::spawn(&["demo", "--paused", "--theme", "dark"]);
    let first = tui.wait_for("the paused player", |s| {
        s.contains("⏸") && s.contains("demo")
    });
    let records = deck::source::load_bytes("demo", deck::source::demo::SHOWCASE)
        .unwrap()
        .sessions[0]
        .records
        .iter()
        .filter(|r| matches!(r, deck::wire::Record::Event { .. }))
        .count();
    assert!(
        first.contains(&format!("/{records} · 00:00/")),
        "at the start: {first}"
    );
    tui.send("9");
    tui.wait_for("90 % of the demo", |s| s.contains("Why did it stop?"));
    tui.send(" ");
    tui.wait_for("playing", |s| s.contains(" ▶ "));
    tui.send("\x03");
    let status = tui.wait_exit();
    assert!(status.success(), "Ctrl-c quits cleanly: {status:?}");
    tui.assert_restored();
}

#[test]
fn interactive_commands_refuse_without_a_terminal() {
    for args in [
        vec!["view", "demo-sessions/showcase.jsonl"],
        vec!["replay", "demo-sessions/showcase.jsonl"],
        vec!["demo"],
    ] {
        let o = common::deck_cmd()
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!o.status.success(), "{args:?}");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("deck: the interactive view needs a terminal"),
            "{args:?}: {err}"
        );
        assert!(err.contains("deck render PATH"), "{err}");
        assert!(
            o.stdout.is_empty(),
            "nothing drawn on a pipe: {:?}",
            o.stdout
        );
    }
}

#[test]
fn demo_end_search_pager_and_quit() {
    // The demo itself (the bundled showcase in the player), started at its end.
    let mut tui = Tui::spawn(&["demo", "--paused", "--at", "999999", "--theme", "dark"]);
    tui.wait_for("the demo's player", |s| {
        s.contains("⏸") && s.contains("demo")
    });
    tui.send("G");
    tui.wait_for("the end of the session", |s| {
        s.contains("Watch the dev server logs for me.") && s.contains("tail -f logs/dev.log")
    });
    tui.send("/");
    tui.wait_for("the search prompt", |s| s.contains("search all cards /"));
    tui.send("parse_line\r");
    let want = expected_match_message("parse_line");
    let total = want.split('/').nth(1).expect("match k/N").to_string();
    tui.wait_for("the match count", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("match ") && l.contains(&format!("/{total}")))
    });
    tui.send("v");
    tui.wait_for("the pager", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("· wrap on · / search · q back"))
    });
    tui.send("q");
    tui.wait_for("the transcript again", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("? help") && !l.contains("q back"))
    });
    tui.send("q");
    let status = tui.wait_exit();
    assert!(status.success(), "{status:?}");
    tui.assert_restored();
}

/// A frame log of about `mb` megabytes: terminal cards with long outputs.
fn big_log(dir: &std::path::Path, mb: usize) -> String {
    use std::io::Write as _;
    let path = dir.join("big.frames.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let output: String = (0..40)
        .map(|i| format!("line {i} of a long output\n"))
        .collect();
    let content = serde_json::json!([build::text(&output)]);
    let mut seq = 0u64;
    let mut written = 0usize;
    let mut n = 0u64;
    while written < mb << 20 {
        n += 1;
        let id = format!("c{n}");
        for (kind, data) in [
            ("tool/call", build::call_data(&id, "bash", "{}")),
            (
                "tool/result",
                build::result_data(&id, content.clone(), false),
            ),
        ] {
            seq += 1;
            let line = build::frame(build::event(kind, seq, seq as i64, data), None).to_string();
            writeln!(f, "{line}").unwrap();
            written += line.len() + 1;
        }
    }
    f.flush().unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_big_log_opens_on_a_loading_screen_that_q_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let path = big_log(dir.path(), 60);
    // A replay started further in is made of the whole file: the loading
    // screen first.
    let mut tui = Tui::spawn(&["replay", &path, "--at", "1000"]);
    let s = tui.wait_for("the loading screen", |s| {
        s.contains("loading big.frames.jsonl") && s.contains("% ") && s.contains("q quits")
    });
    assert!(
        s.contains(" of "),
        "a known size shows a bar and a fraction: {s}"
    );
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
}

#[test]
fn a_big_log_in_view_shows_its_first_cards_while_it_is_read_and_q_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let path = big_log(dir.path(), 60);
    let mut tui = Tui::spawn(&["view", &path]);
    // The first cards at once, the read going on behind them, its counts
    // not final yet.
    let s = tui.wait_for("the first cards", |s| {
        s.contains("• bash") && s.contains("line 0 of a long output")
    });
    let status = s.lines().last().unwrap_or_default();
    assert!(
        status.contains("loading ") && status.contains("% ") && status.contains("… cards"),
        "{s}"
    );
    assert!(!s.contains("q quits"), "no loading screen: {s}");
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
}
