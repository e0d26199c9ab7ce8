//! Keys and mouse → actions. Pure: a key event in, an [`Action`] out; the
//! defaults follow less/vim and asciinema habits. The help overlay is
//! generated from [`BINDINGS`], so it never drifts from the map.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

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
    ToggleReasoning,
    CycleTheme,
    Help,
    Sessions,
    Quit,
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
    Back,
}

/// (keys as shown in help, action, description, section).
pub const BINDINGS: &[(&str, Action, &str, &str)] = &[
    ("j ↓", Action::Next, "next card", "move"),
    ("k ↑", Action::Prev, "previous card", "move"),
    (
        "Ctrl-d / Ctrl-u",
        Action::HalfPageDown,
        "half page down / up",
        "move",
    ),
    ("PgDn / PgUp", Action::PageDown, "page down / up", "move"),
    ("g Home", Action::Top, "first card", "move"),
    (
        "G End",
        Action::Bottom,
        "last card, follow the tail",
        "move",
    ),
    ("[ ]", Action::PrevTurn, "previous / next turn", "move"),
    (
        "e / E",
        Action::NextError,
        "next / previous failed card",
        "move",
    ),
    (
        "Enter o",
        Action::ToggleCard,
        "toggle card preview ↔ full",
        "cards",
    ),
    (
        "O",
        Action::CycleDensity,
        "all cards: line → preview → full",
        "cards",
    ),
    ("h", Action::ToggleTools, "hide / show tool cards", "cards"),
    (
        "r",
        Action::ToggleReasoning,
        "hide / show reasoning",
        "cards",
    ),
    (
        "v",
        Action::OpenPager,
        "open the card in the pager",
        "cards",
    ),
    ("/", Action::StartSearch, "search all cards", "search"),
    (
        "n / N",
        Action::NextMatch,
        "next / previous match",
        "search",
    ),
    ("y", Action::Copy, "copy the card", "copy"),
    (
        "Y",
        Action::CopyTarget,
        "copy its command, path or URL",
        "copy",
    ),
    ("space", Action::PlayPause, "play / pause", "player"),
    (
        "+ / -",
        Action::Faster,
        "speed up / down (0.25×–64×)",
        "player",
    ),
    ("→ / ←", Action::SeekForward, "seek ±5 s", "player"),
    (
        "Shift-→ / Shift-←",
        Action::SeekForwardFar,
        "seek ±10 %",
        "player",
    ),
    ("0–9", Action::Jump(0), "jump to 0–90 %", "player"),
    (
        ". / ,",
        Action::StepForward,
        "step one event (paused)",
        "player",
    ),
    (
        "S",
        Action::Sessions,
        "switch session (deck connect)",
        "other",
    ),
    ("t", Action::CycleTheme, "next theme", "other"),
    ("?", Action::Help, "this help", "other"),
    (
        "q Ctrl-c",
        Action::Quit,
        "quit (Esc/q closes overlays)",
        "other",
    ),
];

/// Map a key in the transcript.
pub fn transcript_key(key: KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('d') if ctrl => Action::HalfPageDown,
        KeyCode::Char('u') if ctrl => Action::HalfPageUp,
        KeyCode::Char('f') if ctrl => Action::PageDown,
        KeyCode::Char('b') if ctrl => Action::PageUp,
        _ if ctrl => return None,
        KeyCode::Char('j') | KeyCode::Down => Action::Next,
        KeyCode::Char('k') | KeyCode::Up => Action::Prev,
        KeyCode::PageDown => Action::PageDown,
        KeyCode::PageUp => Action::PageUp,
        KeyCode::Char('g') | KeyCode::Home => Action::Top,
        KeyCode::Char('G') | KeyCode::End => Action::Bottom,
        KeyCode::Enter | KeyCode::Char('o') => Action::ToggleCard,
        KeyCode::Char('O') => Action::CycleDensity,
        KeyCode::Char('h') => Action::ToggleTools,
        KeyCode::Char('v') => Action::OpenPager,
        KeyCode::Char('/') => Action::StartSearch,
        KeyCode::Char('n') => Action::NextMatch,
        KeyCode::Char('N') => Action::PrevMatch,
        KeyCode::Char('e') => Action::NextError,
        KeyCode::Char('E') => Action::PrevError,
        KeyCode::Char('[') => Action::PrevTurn,
        KeyCode::Char(']') => Action::NextTurn,
        KeyCode::Char('y') => Action::Copy,
        KeyCode::Char('Y') => Action::CopyTarget,
        KeyCode::Char('r') => Action::ToggleReasoning,
        KeyCode::Char('t') => Action::CycleTheme,
        KeyCode::Char('?') => Action::Help,
        KeyCode::Char('S') => Action::Sessions,
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Esc => Action::Back,
        KeyCode::Char(' ') => Action::PlayPause,
        KeyCode::Char('+') | KeyCode::Char('=') => Action::Faster,
        KeyCode::Char('-') | KeyCode::Char('_') => Action::Slower,
        KeyCode::Right if shift => Action::SeekForwardFar,
        KeyCode::Left if shift => Action::SeekBackFar,
        KeyCode::Right => Action::SeekForward,
        KeyCode::Left => Action::SeekBack,
        KeyCode::Char(c @ '0'..='9') => Action::Jump(c as u8 - b'0'),
        KeyCode::Char('.') => Action::StepForward,
        KeyCode::Char(',') => Action::StepBack,
        _ => return None,
    })
}

/// Map a key in the pager.
pub fn pager_key(key: KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('d') if ctrl => Action::HalfPageDown,
        KeyCode::Char('u') if ctrl => Action::HalfPageUp,
        KeyCode::Char('f') if ctrl => Action::PageDown,
        KeyCode::Char('b') if ctrl => Action::PageUp,
        _ if ctrl => return None,
        KeyCode::Char('q') | KeyCode::Esc => Action::Back,
        KeyCode::Char('j') | KeyCode::Down | KeyCode::Enter => Action::Next,
        KeyCode::Char('k') | KeyCode::Up => Action::Prev,
        KeyCode::PageDown | KeyCode::Char(' ') | KeyCode::Char('f') => Action::PageDown,
        KeyCode::PageUp | KeyCode::Char('b') => Action::PageUp,
        KeyCode::Char('g') | KeyCode::Home => Action::Top,
        KeyCode::Char('G') | KeyCode::End => Action::Bottom,
        KeyCode::Char('/') => Action::StartSearch,
        KeyCode::Char('n') => Action::NextMatch,
        KeyCode::Char('N') => Action::PrevMatch,
        KeyCode::Char('w') => Action::ToggleWrap,
        KeyCode::Char('h') | KeyCode::Left => Action::ScrollLeft,
        KeyCode::Char('l') | KeyCode::Right => Action::ScrollRight,
        KeyCode::Char('y') => Action::Copy,
        KeyCode::Char('Y') => Action::CopyTarget,
        KeyCode::Char('t') => Action::CycleTheme,
        KeyCode::Char('?') => Action::Help,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
    fn c(ch: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(ch), KeyModifiers::CONTROL)
    }

    #[test]
    fn transcript_keys_table() {
        use Action::*;
        let table: &[(KeyEvent, Action)] = &[
            (k(KeyCode::Char('j')), Next),
            (k(KeyCode::Down), Next),
            (k(KeyCode::Char('k')), Prev),
            (k(KeyCode::Up), Prev),
            (c('d'), HalfPageDown),
            (c('u'), HalfPageUp),
            (k(KeyCode::PageDown), PageDown),
            (k(KeyCode::PageUp), PageUp),
            (k(KeyCode::Char('g')), Top),
            (k(KeyCode::Home), Top),
            (k(KeyCode::Char('G')), Bottom),
            (k(KeyCode::End), Bottom),
            (k(KeyCode::Enter), ToggleCard),
            (k(KeyCode::Char('o')), ToggleCard),
            (k(KeyCode::Char('O')), CycleDensity),
            (k(KeyCode::Char('h')), ToggleTools),
            (k(KeyCode::Char('v')), OpenPager),
            (k(KeyCode::Char('/')), StartSearch),
            (k(KeyCode::Char('n')), NextMatch),
            (k(KeyCode::Char('N')), PrevMatch),
            (k(KeyCode::Char('e')), NextError),
            (k(KeyCode::Char('E')), PrevError),
            (k(KeyCode::Char('[')), PrevTurn),
            (k(KeyCode::Char(']')), NextTurn),
            (k(KeyCode::Char('y')), Copy),
            (k(KeyCode::Char('Y')), CopyTarget),
            (k(KeyCode::Char('r')), ToggleReasoning),
            (k(KeyCode::Char('t')), CycleTheme),
            (k(KeyCode::Char('?')), Help),
            (k(KeyCode::Char('S')), Sessions),
            (k(KeyCode::Char('q')), Quit),
            (c('c'), Quit),
            (k(KeyCode::Char(' ')), PlayPause),
            (k(KeyCode::Char('+')), Faster),
            (k(KeyCode::Char('-')), Slower),
            (k(KeyCode::Right), SeekForward),
            (k(KeyCode::Left), SeekBack),
            (
                KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT),
                SeekForwardFar,
            ),
            (
                KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT),
                SeekBackFar,
            ),
            (k(KeyCode::Char('0')), Jump(0)),
            (k(KeyCode::Char('7')), Jump(7)),
            (k(KeyCode::Char('.')), StepForward),
            (k(KeyCode::Char(',')), StepBack),
        ];
        for (key, want) in table {
            assert_eq!(transcript_key(*key), Some(*want), "{key:?}");
        }
        assert_eq!(transcript_key(k(KeyCode::Char('z'))), None);
        assert_eq!(transcript_key(c('z')), None);
    }

    #[test]
    fn pager_keys_table() {
        use Action::*;
        for (key, want) in [
            (k(KeyCode::Char('q')), Back),
            (k(KeyCode::Esc), Back),
            (k(KeyCode::Char('w')), ToggleWrap),
            (k(KeyCode::Char('/')), StartSearch),
            (k(KeyCode::Char('n')), NextMatch),
            (k(KeyCode::Char('j')), Next),
            (k(KeyCode::Char(' ')), PageDown),
            (k(KeyCode::Char('G')), Bottom),
            (c('c'), Quit),
        ] {
            assert_eq!(pager_key(key), Some(want), "{key:?}");
        }
    }
}
