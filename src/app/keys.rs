//! The one key table. Every key the app answers, in every part of the
//! screen that can have the keys, is a row of [`TABLE`]: the part, the keys,
//! the [`Action`] and the words help shows. [`action`] looks keys up in it
//! and the help overlay is written from it, so the two cannot drift apart.
//! The defaults follow less/vim and asciinema habits; the message field of
//! `deck connect` follows readline.
//!
//! A key matches a row's key when the codes are equal, Ctrl is pressed on
//! both or on neither, and any other modifier the row names is pressed
//! (`Shift-→` before `→`: rows are tried in order). Rows marked `any`
//! ignore modifiers; `Char` rows with [`ANY_CHAR`] take any character typed
//! without Ctrl.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Which part of the screen has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The transcript (no overlay).
    Transcript,
    /// `deck connect` keys taken before the transcript's.
    Connect,
    /// The message field of `deck connect`.
    Compose,
    /// A search line being typed (over the transcript or in the pager).
    Prompt,
    /// One card full screen.
    Pager,
    /// The help overlay.
    Help,
    /// The session picker.
    Picker,
    /// `deck sessions`: the library's list.
    Library,
}

/// Everything a key can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Next,
    Prev,
    HalfPageDown,
    HalfPageUp,
    PageDown,
    PageUp,
    Top,
    Bottom,
    ToggleCard,
    CycleDensity,
    ToggleTools,
    OpenPager,
    StartSearch,
    NextMatch,
    PrevMatch,
    NextError,
    PrevError,
    PrevTurn,
    NextTurn,
    Copy,
    CopyTarget,
    CopyRaw,
    ToggleReasoning,
    ToggleRedaction,
    CycleTheme,
    Help,
    Sessions,
    Quit,
    /// Esc: clear the search (transcript), close (overlays).
    Back,
    // Player
    PlayPause,
    Faster,
    Slower,
    SeekBack,
    SeekForward,
    SeekBackFar,
    SeekForwardFar,
    Jump(u8),
    StepForward,
    StepBack,
    // Pager
    ToggleWrap,
    ScrollLeft,
    ScrollRight,
    // Session picker
    Show,
    NewSession,
    // The library
    Replay,
    CycleAgent,
    ThisDir,
    CycleSince,
    CycleSort,
    // Search line and message field
    Submit,
    Insert(char),
    DeleteBack,
    // Message field
    NewLine,
    Interrupt,
    Delete,
    Left,
    Right,
    WordLeft,
    WordRight,
    LineStart,
    LineEnd,
    KillToStart,
    KillToEnd,
    KillWord,
    Up,
    Down,
    // deck connect
    Type,
    Leave,
    CancelTurn,
    Allow,
    Reject,
    Choose(u8),
    Confirm,
}

/// A key of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
    /// Modifiers do not matter.
    pub any: bool,
    /// Left out of help (an alias).
    pub hidden: bool,
}

/// `Char` code of a row key that takes any character typed without Ctrl.
pub const ANY_CHAR: char = '\0';

const fn k(code: KeyCode) -> Key {
    Key {
        code,
        mods: KeyModifiers::NONE,
        any: false,
        hidden: false,
    }
}
const fn c(ch: char) -> Key {
    k(KeyCode::Char(ch))
}
const fn ctrl(ch: char) -> Key {
    Key {
        mods: KeyModifiers::CONTROL,
        ..c(ch)
    }
}
const fn with(mods: KeyModifiers, code: KeyCode) -> Key {
    Key { mods, ..k(code) }
}
const fn any(code: KeyCode) -> Key {
    Key {
        any: true,
        ..k(code)
    }
}
const fn hide(key: Key) -> Key {
    Key {
        hidden: true,
        ..key
    }
}

const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
const ALT: KeyModifiers = KeyModifiers::ALT;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;

/// One row: in `part`, `keys` do `action`. `help` describes it (a row with
/// empty help is shown on the line of the row before it: `n / N`).
pub struct Row {
    pub part: Part,
    pub keys: &'static [Key],
    pub action: Action,
    pub help: &'static str,
    /// Shown instead of the keys (a range: `0–9`).
    pub shown: Option<&'static str>,
    /// The heading help shows the row under.
    pub section: &'static str,
}

const fn row(
    part: Part,
    keys: &'static [Key],
    action: Action,
    help: &'static str,
    section: &'static str,
) -> Row {
    Row {
        part,
        keys,
        action,
        help,
        shown: None,
        section,
    }
}

const DIGITS: &[Key] = &[
    c('0'),
    c('1'),
    c('2'),
    c('3'),
    c('4'),
    c('5'),
    c('6'),
    c('7'),
    c('8'),
    c('9'),
];

use Action as A;
use KeyCode as K;
use Part as P;

/// Every key, by part; help shows the rows in this order.
#[rustfmt::skip]
pub const TABLE: &[Row] = &[
    // The transcript.
    row(P::Transcript, &[c('j'), k(K::Down)], A::Next, "next card", "move"),
    row(P::Transcript, &[c('k'), k(K::Up)], A::Prev, "previous card", "move"),
    row(P::Transcript, &[ctrl('d')], A::HalfPageDown, "half page down / up", "move"),
    row(P::Transcript, &[ctrl('u')], A::HalfPageUp, "", "move"),
    row(P::Transcript, &[k(K::PageDown), hide(ctrl('f'))], A::PageDown, "page down / up", "move"),
    row(P::Transcript, &[k(K::PageUp), hide(ctrl('b'))], A::PageUp, "", "move"),
    row(P::Transcript, &[c('g'), k(K::Home)], A::Top, "first card", "move"),
    row(P::Transcript, &[c('G'), k(K::End)], A::Bottom, "last card, follow the tail", "move"),
    row(P::Transcript, &[c('[')], A::PrevTurn, "previous / next turn", "move"),
    row(P::Transcript, &[c(']')], A::NextTurn, "", "move"),
    row(P::Transcript, &[c('e')], A::NextError, "next / previous failed card", "move"),
    row(P::Transcript, &[c('E')], A::PrevError, "", "move"),
    row(P::Transcript, &[k(K::Enter), c('o')], A::ToggleCard, "toggle card preview ↔ full", "cards"),
    row(P::Transcript, &[c('O')], A::CycleDensity, "all cards: line → preview → full", "cards"),
    row(P::Transcript, &[c('h')], A::ToggleTools, "hide / show tool cards", "cards"),
    row(P::Transcript, &[c('r')], A::ToggleReasoning, "hide / show reasoning", "cards"),
    row(P::Transcript, &[c('v')], A::OpenPager, "open the card in the pager", "cards"),
    row(P::Transcript, &[c('/')], A::StartSearch, "search all cards", "search"),
    row(P::Transcript, &[c('n')], A::NextMatch, "next / previous match", "search"),
    row(P::Transcript, &[c('N')], A::PrevMatch, "", "search"),
    row(P::Transcript, &[k(K::Esc)], A::Back, "clear the search", "search"),
    row(P::Transcript, &[c('y')], A::Copy, "copy the card", "copy"),
    row(P::Transcript, &[c('Y')], A::CopyRaw, "copy its raw output", "copy"),
    row(P::Transcript, &[c('c')], A::CopyTarget, "copy its command, path or URL", "copy"),
    row(P::Transcript, &[c(' ')], A::PlayPause, "play / pause", "player"),
    row(P::Transcript, &[c('+'), hide(c('='))], A::Faster, "speed up / down (0.25×–64×)", "player"),
    row(P::Transcript, &[c('-'), hide(c('_'))], A::Slower, "", "player"),
    row(P::Transcript, &[with(SHIFT, K::Right)], A::SeekForwardFar, "seek ±10 %", "player"),
    row(P::Transcript, &[with(SHIFT, K::Left)], A::SeekBackFar, "", "player"),
    row(P::Transcript, &[k(K::Right)], A::SeekForward, "seek ±5 s", "player"),
    row(P::Transcript, &[k(K::Left)], A::SeekBack, "", "player"),
    Row {
        shown: Some("0–9"),
        ..row(P::Transcript, DIGITS, A::Jump(0), "jump to 0–90 %", "player")
    },
    row(P::Transcript, &[c('.')], A::StepForward, "step to the next change (paused)", "player"),
    row(P::Transcript, &[c(',')], A::StepBack, "", "player"),
    row(P::Transcript, &[c('S')], A::Sessions, "switch session (deck connect, a file of several)", "other"),
    row(P::Transcript, &[c('R')], A::ToggleRedaction, "redact secrets on / off (for a screen share)", "other"),
    row(P::Transcript, &[c('t')], A::CycleTheme, "next theme", "other"),
    row(P::Transcript, &[c('?')], A::Help, "this help", "other"),
    row(P::Transcript, &[c('q'), ctrl('c')], A::Quit, "quit", "other"),
    // The pager.
    row(P::Pager, &[c('j'), k(K::Down), k(K::Enter)], A::Next, "line down / up", "pager"),
    row(P::Pager, &[c('k'), k(K::Up)], A::Prev, "", "pager"),
    row(P::Pager, &[ctrl('d')], A::HalfPageDown, "half page down / up", "pager"),
    row(P::Pager, &[ctrl('u')], A::HalfPageUp, "", "pager"),
    row(P::Pager, &[c(' '), k(K::PageDown), c('f'), hide(ctrl('f'))], A::PageDown, "page down / up", "pager"),
    row(P::Pager, &[c('b'), k(K::PageUp), hide(ctrl('b'))], A::PageUp, "", "pager"),
    row(P::Pager, &[c('g'), k(K::Home)], A::Top, "top / bottom", "pager"),
    row(P::Pager, &[c('G'), k(K::End)], A::Bottom, "", "pager"),
    row(P::Pager, &[c('/')], A::StartSearch, "search the card", "pager"),
    row(P::Pager, &[c('n')], A::NextMatch, "next / previous match", "pager"),
    row(P::Pager, &[c('N')], A::PrevMatch, "", "pager"),
    row(P::Pager, &[c('w')], A::ToggleWrap, "wrap long lines on / off", "pager"),
    row(P::Pager, &[c('h'), k(K::Left)], A::ScrollLeft, "scroll left / right (wrap off)", "pager"),
    row(P::Pager, &[c('l'), k(K::Right)], A::ScrollRight, "", "pager"),
    row(P::Pager, &[c('y')], A::Copy, "copy the card", "pager"),
    row(P::Pager, &[c('Y')], A::CopyRaw, "copy its raw output", "pager"),
    row(P::Pager, &[c('c')], A::CopyTarget, "copy its command, path or URL", "pager"),
    row(P::Pager, &[c('t')], A::CycleTheme, "next theme", "pager"),
    row(P::Pager, &[c('?')], A::Help, "this help", "pager"),
    row(P::Pager, &[c('q'), k(K::Esc)], A::Back, "back to the transcript", "pager"),
    row(P::Pager, &[ctrl('c')], A::Quit, "quit", "pager"),
    // A search line.
    row(P::Prompt, &[any(K::Enter)], A::Submit, "search", "search line"),
    row(P::Prompt, &[k(K::Esc), ctrl('c')], A::Back, "cancel", "search line"),
    row(P::Prompt, &[any(K::Backspace)], A::DeleteBack, "delete a character", "search line"),
    row(P::Prompt, &[hide(c(ANY_CHAR))], A::Insert(ANY_CHAR), "", "search line"),
    // The help overlay; any other key closes it.
    row(P::Help, &[c('j'), k(K::Down)], A::Next, "scroll down / up (any other key closes)", "help"),
    row(P::Help, &[c('k'), k(K::Up)], A::Prev, "", "help"),
    row(P::Help, &[c(' '), k(K::PageDown)], A::PageDown, "page down / up", "help"),
    row(P::Help, &[k(K::PageUp)], A::PageUp, "", "help"),
    row(P::Help, &[ctrl('c')], A::Quit, "quit", "help"),
    // deck connect, before the transcript's keys.
    row(P::Connect, &[c('i'), k(K::Tab)], A::Type, "type in the message field", "deck connect"),
    row(P::Connect, &[c('y')], A::Allow, "approval: allow once / reject", "deck connect"),
    row(P::Connect, &[c('n')], A::Reject, "", "deck connect"),
    Row {
        shown: Some("1–9"),
        ..row(P::Connect, &DIGITS_1_9, A::Choose(0), "choose an option (several: Enter confirms)", "deck connect")
    },
    row(P::Connect, &[any(K::Enter)], A::Confirm, "", "deck connect"),
    row(P::Connect, &[ctrl('c')], A::CancelTurn, "cancel the running turn", "deck connect"),
    row(P::Connect, &[k(K::Esc)], A::Leave, "twice: cancel the running turn", "deck connect"),
    // The message field.
    row(P::Compose, &[with(ALT, K::Enter), hide(with(SHIFT, K::Enter)), ctrl('j')], A::NewLine, "new line in the message", "message field"),
    row(P::Compose, &[any(K::Enter)], A::Submit, "send (queued when idle, steers a running turn)", "message field"),
    row(P::Compose, &[ctrl('c')], A::Interrupt, "cancel the running turn, else clear, else quit", "message field"),
    row(P::Compose, &[k(K::Esc)], A::Leave, "leave the field (twice: cancel the turn)", "message field"),
    row(P::Compose, &[any(K::Up)], A::Up, "history (empty field), else lines", "message field"),
    row(P::Compose, &[any(K::Down)], A::Down, "", "message field"),
    row(P::Compose, &[any(K::Backspace), hide(ctrl('h'))], A::DeleteBack, "delete before / after the cursor", "message field"),
    row(P::Compose, &[any(K::Delete), hide(ctrl('d'))], A::Delete, "", "message field"),
    row(P::Compose, &[with(CTRL, K::Left), with(ALT, K::Left), hide(with(ALT, K::Char('b')))], A::WordLeft, "word left / right", "message field"),
    row(P::Compose, &[with(CTRL, K::Right), with(ALT, K::Right), hide(with(ALT, K::Char('f')))], A::WordRight, "", "message field"),
    row(P::Compose, &[any(K::Left), hide(ctrl('b'))], A::Left, "character left / right", "message field"),
    row(P::Compose, &[any(K::Right), hide(ctrl('f'))], A::Right, "", "message field"),
    row(P::Compose, &[ctrl('a'), hide(any(K::Home))], A::LineStart, "start / end of the line", "message field"),
    row(P::Compose, &[ctrl('e'), hide(any(K::End))], A::LineEnd, "", "message field"),
    row(P::Compose, &[ctrl('u')], A::KillToStart, "delete to the start / end / word", "message field"),
    row(P::Compose, &[ctrl('k')], A::KillToEnd, "", "message field"),
    row(P::Compose, &[ctrl('w')], A::KillWord, "", "message field"),
    row(P::Compose, &[k(K::PageUp)], A::PageUp, "scroll the transcript", "message field"),
    row(P::Compose, &[k(K::PageDown)], A::PageDown, "", "message field"),
    row(P::Compose, &[hide(c(ANY_CHAR))], A::Insert(ANY_CHAR), "", "message field"),
    // The session picker.
    row(P::Picker, &[c('j'), k(K::Down)], A::Next, "next / previous session", "session picker (S)"),
    row(P::Picker, &[c('k'), k(K::Up)], A::Prev, "", "session picker (S)"),
    row(P::Picker, &[k(K::Enter)], A::Show, "show it", "session picker (S)"),
    row(P::Picker, &[c('n')], A::NewSession, "new session (deck connect, in --cwd)", "session picker (S)"),
    row(P::Picker, &[k(K::Esc), c('q'), c('S')], A::Back, "close (over a file, before a session: quit)", "session picker (S)"),
    row(P::Picker, &[ctrl('c')], A::Quit, "quit", "session picker (S)"),
    // deck sessions.
    row(P::Library, &[c('j'), k(K::Down)], A::Next, "next / previous session or hit", "deck sessions"),
    row(P::Library, &[c('k'), k(K::Up)], A::Prev, "", "deck sessions"),
    row(P::Library, &[k(K::PageDown), c(' '), hide(ctrl('f'))], A::PageDown, "page down / up", "deck sessions"),
    row(P::Library, &[k(K::PageUp), hide(ctrl('b'))], A::PageUp, "", "deck sessions"),
    row(P::Library, &[c('g'), k(K::Home)], A::Top, "first / last", "deck sessions"),
    row(P::Library, &[c('G'), k(K::End)], A::Bottom, "", "deck sessions"),
    row(P::Library, &[k(K::Enter)], A::Show, "open it (a hit: at its card); q comes back", "deck sessions"),
    row(P::Library, &[c('r')], A::Replay, "play it in the player", "deck sessions"),
    row(P::Library, &[c('/')], A::StartSearch, "search every session", "deck sessions"),
    row(P::Library, &[c('a')], A::CycleAgent, "filter: the next agent, then all", "deck sessions"),
    row(P::Library, &[c('c')], A::ThisDir, "filter: this directory, on / off", "deck sessions"),
    row(P::Library, &[c('d')], A::CycleSince, "filter: today, 7 days, 30 days, any time", "deck sessions"),
    row(P::Library, &[c('s')], A::CycleSort, "sort by: last activity, start, length, calls, errors, size", "deck sessions"),
    row(P::Library, &[k(K::Esc)], A::Back, "back from the hits to the list", "deck sessions"),
    row(P::Library, &[c('R')], A::ToggleRedaction, "redact secrets on / off (list, hits, sessions)", "deck sessions"),
    row(P::Library, &[c('t')], A::CycleTheme, "next theme", "deck sessions"),
    row(P::Library, &[c('?')], A::Help, "this help", "deck sessions"),
    row(P::Library, &[c('q'), ctrl('c')], A::Quit, "quit", "deck sessions"),
];

const DIGITS_1_9: [Key; 9] = [
    c('1'),
    c('2'),
    c('3'),
    c('4'),
    c('5'),
    c('6'),
    c('7'),
    c('8'),
    c('9'),
];

/// Whether `key` is pressed as the row key `k` says.
fn matches(k: &Key, key: &KeyEvent) -> bool {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let code_ok = match (k.code, key.code) {
        (KeyCode::Char(ANY_CHAR), KeyCode::Char(_)) => return !ctrl,
        (a, b) => a == b,
    };
    if !code_ok {
        return false;
    }
    if k.any {
        return true;
    }
    ctrl == k.mods.contains(KeyModifiers::CONTROL) && key.modifiers.contains(k.mods)
}

/// What `key` does in `part` (`None`: nothing there).
pub fn action(part: Part, key: KeyEvent) -> Option<Action> {
    TABLE
        .iter()
        .filter(|r| r.part == part)
        .find(|r| r.keys.iter().any(|k| matches(k, &key)))
        .map(|r| match (r.action, key.code) {
            (A::Jump(_), KeyCode::Char(d @ '0'..='9')) => A::Jump(d as u8 - b'0'),
            (A::Choose(_), KeyCode::Char(d @ '1'..='9')) => A::Choose(d as u8 - b'0'),
            (A::Insert(_), KeyCode::Char(ch)) => A::Insert(ch),
            (a, _) => a,
        })
}

/// How help names a key: `j`, `↓`, `Ctrl-d`, `Shift-→`, `space`.
pub fn key_name(k: &Key) -> String {
    let base = match k.code {
        KeyCode::Char(' ') => "space".to_string(),
        KeyCode::Char(ch) => ch.to_string(),
        KeyCode::Down => "↓".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::PageUp => "PgUp".into(),
        other => other.to_string(),
    };
    let mut name = String::new();
    if k.mods.contains(KeyModifiers::CONTROL) {
        name.push_str("Ctrl-");
    }
    if k.mods.contains(KeyModifiers::ALT) {
        name.push_str("Alt-");
    }
    if k.mods.contains(KeyModifiers::SHIFT) {
        name.push_str("Shift-");
    }
    name.push_str(&base);
    name
}

/// One line of help: the keys, what they do, the section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpLine {
    pub keys: String,
    pub what: &'static str,
    pub section: &'static str,
}

/// Help's lines, from [`TABLE`]: a row's shown keys joined by spaces, the
/// rows it describes together joined by ` / `.
pub fn help_lines() -> Vec<HelpLine> {
    let mut out: Vec<HelpLine> = Vec::new();
    for r in TABLE {
        let keys = r.shown.map(str::to_string).unwrap_or_else(|| {
            r.keys
                .iter()
                .filter(|k| !k.hidden)
                .map(key_name)
                .collect::<Vec<_>>()
                .join(" ")
        });
        if keys.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some(last) if r.help.is_empty() && last.section == r.section => {
                last.keys = format!("{} / {keys}", last.keys);
            }
            _ => out.push(HelpLine {
                keys,
                what: r.help,
                section: r.section,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests;
