use super::*;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}
fn shift(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::SHIFT)
}
fn ch(c: char) -> KeyEvent {
    // Upper case comes with Shift, as terminals send it.
    if c.is_uppercase() {
        shift(KeyCode::Char(c))
    } else {
        key(KeyCode::Char(c))
    }
}
fn ctl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}
fn alt(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::ALT)
}

#[test]
fn transcript_keys() {
    use Action::*;
    let table: &[(KeyEvent, Action)] = &[
        (ch('j'), Next),
        (key(KeyCode::Down), Next),
        (ch('k'), Prev),
        (key(KeyCode::Up), Prev),
        (ctl('d'), HalfPageDown),
        (ctl('u'), HalfPageUp),
        (ctl('f'), PageDown),
        (ctl('b'), PageUp),
        (key(KeyCode::PageDown), PageDown),
        (key(KeyCode::PageUp), PageUp),
        (ch('g'), Top),
        (key(KeyCode::Home), Top),
        (ch('G'), Bottom),
        (key(KeyCode::End), Bottom),
        (key(KeyCode::Enter), ToggleCard),
        (ch('o'), ToggleCard),
        (ch('O'), CycleDensity),
        (ch('h'), ToggleTools),
        (ch('v'), OpenPager),
        (ch('/'), StartSearch),
        (ch('n'), NextMatch),
        (ch('N'), PrevMatch),
        (ch('e'), NextError),
        (ch('E'), PrevError),
        (ch('['), PrevTurn),
        (ch(']'), NextTurn),
        (ch('y'), Copy),
        (ch('Y'), CopyRaw),
        (ch('c'), CopyTarget),
        (ch('r'), ToggleReasoning),
        (ch('t'), CycleTheme),
        (ch('?'), Help),
        (ch('S'), Sessions),
        (ch('q'), Quit),
        (ctl('c'), Quit),
        (key(KeyCode::Esc), Back),
        (ch(' '), PlayPause),
        (ch('+'), Faster),
        (ch('='), Faster),
        (ch('-'), Slower),
        (ch('_'), Slower),
        (key(KeyCode::Right), SeekForward),
        (key(KeyCode::Left), SeekBack),
        (shift(KeyCode::Right), SeekForwardFar),
        (shift(KeyCode::Left), SeekBackFar),
        (ch('0'), Jump(0)),
        (ch('7'), Jump(7)),
        (ch('.'), StepForward),
        (ch(','), StepBack),
        // Alt does not change a transcript key.
        (alt(KeyCode::Char('j')), Next),
    ];
    for (k, want) in table {
        assert_eq!(action(Part::Transcript, *k), Some(*want), "{k:?}");
    }
    assert_eq!(action(Part::Transcript, ch('z')), None);
    // Ctrl with a key the transcript has no Ctrl binding for: nothing.
    assert_eq!(action(Part::Transcript, ctl('z')), None);
    assert_eq!(action(Part::Transcript, ctl('j')), None);
}

#[test]
fn pager_keys() {
    use Action::*;
    for (k, want) in [
        (ch('q'), Back),
        (key(KeyCode::Esc), Back),
        (ch('w'), ToggleWrap),
        (ch('/'), StartSearch),
        (ch('n'), NextMatch),
        (ch('j'), Next),
        (key(KeyCode::Enter), Next),
        (ch(' '), PageDown),
        (ch('f'), PageDown),
        (ch('b'), PageUp),
        (ch('G'), Bottom),
        (ch('h'), ScrollLeft),
        (ch('l'), ScrollRight),
        (ctl('c'), Quit),
    ] {
        assert_eq!(action(Part::Pager, k), Some(want), "{k:?}");
    }
}

#[test]
fn message_field_keys_follow_readline() {
    use Action::*;
    for (k, want) in [
        (key(KeyCode::Enter), Submit),
        (alt(KeyCode::Enter), NewLine),
        (shift(KeyCode::Enter), NewLine),
        (ctl('j'), NewLine),
        (ctl('a'), LineStart),
        (ctl('e'), LineEnd),
        (ctl('u'), KillToStart),
        (ctl('k'), KillToEnd),
        (ctl('w'), KillWord),
        (ctl('h'), DeleteBack),
        (key(KeyCode::Backspace), DeleteBack),
        (ctl('d'), Delete),
        (key(KeyCode::Left), Left),
        (
            KeyEvent::new(KeyCode::Left, KeyModifiers::CONTROL),
            WordLeft,
        ),
        (alt(KeyCode::Left), WordLeft),
        (alt(KeyCode::Char('b')), WordLeft),
        (alt(KeyCode::Char('f')), WordRight),
        (ctl('b'), Left),
        (ctl('f'), Right),
        (ch('x'), Insert('x')),
        (ch('Q'), Insert('Q')),
        (alt(KeyCode::Char('x')), Insert('x')),
        (ctl('c'), Interrupt),
        (key(KeyCode::Esc), Leave),
    ] {
        assert_eq!(action(Part::Compose, k), Some(want), "{k:?}");
    }
    // A Ctrl key the field has no use for types nothing.
    assert_eq!(action(Part::Compose, ctl('z')), None);
    assert_eq!(action(Part::Prompt, ctl('z')), None);
    assert_eq!(action(Part::Prompt, ch('z')), Some(Insert('z')));
}

#[test]
fn connect_keys_carry_their_digit() {
    assert_eq!(action(Part::Connect, ch('3')), Some(Action::Choose(3)));
    assert_eq!(action(Part::Connect, ch('0')), None);
    assert_eq!(action(Part::Connect, ch('y')), Some(Action::Allow));
    assert_eq!(action(Part::Connect, ctl('c')), Some(Action::CancelTurn));
}

/// Every key of every row reaches its own row: no row hides another's key
/// (a key listed twice would be dead in help).
#[test]
fn no_row_shadows_another() {
    for r in TABLE {
        for k in r.keys {
            let KeyCode::Char(c) = k.code else {
                let ev = KeyEvent::new(k.code, k.mods);
                let got = action(r.part, ev).map(|a| std::mem::discriminant(&a));
                assert_eq!(
                    got,
                    Some(std::mem::discriminant(&r.action)),
                    "{:?} {k:?}",
                    r.help
                );
                continue;
            };
            if c == ANY_CHAR {
                continue;
            }
            let ev = KeyEvent::new(k.code, k.mods);
            let got = action(r.part, ev).map(|a| std::mem::discriminant(&a));
            assert_eq!(
                got,
                Some(std::mem::discriminant(&r.action)),
                "{:?} {k:?}",
                r.help
            );
        }
    }
}

#[test]
fn help_is_written_from_the_table() {
    let lines = help_lines();
    let find = |keys: &str| lines.iter().find(|l| l.keys == keys).map(|l| l.what);
    assert_eq!(find("j ↓"), Some("next card"));
    assert_eq!(find("Ctrl-d / Ctrl-u"), Some("half page down / up"));
    assert_eq!(find("PgDn / PgUp"), Some("page down / up"));
    assert_eq!(find("Shift-→ / Shift-←"), Some("seek ±10 %"));
    assert_eq!(find("0–9"), Some("jump to 0–90 %"));
    assert_eq!(find("+ / -"), Some("speed up / down (0.25×–64×)"));
    assert_eq!(find("q Ctrl-c"), Some("quit"));
    assert_eq!(find("w"), Some("wrap long lines on / off"));
    assert_eq!(
        find("1–9 / Enter"),
        Some("choose an option (several: Enter confirms)")
    );
    // Every row with help is in it, under its section.
    for r in TABLE.iter().filter(|r| !r.help.is_empty()) {
        assert!(
            lines
                .iter()
                .any(|l| l.what == r.help && l.section == r.section),
            "{:?} missing",
            r.help
        );
    }
}
