use super::*;

#[test]
fn keys_parse_characters_and_names() {
    let keys = parse_keys("jK<Enter><C-d>< x").unwrap();
    assert_eq!(keys.len(), 7);
    assert_eq!(
        keys[1],
        KeyEvent::new(KeyCode::Char('K'), KeyModifiers::SHIFT)
    );
    assert_eq!(keys[2].code, KeyCode::Enter);
    assert_eq!(
        keys[3],
        KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)
    );
    assert_eq!(keys[4].code, KeyCode::Char('<'));
    assert!(matches!(parse_keys("<Nope>"), Err(Error::Key(k)) if k == "Nope"));
    assert!(matches!(parse_keys("<C-dd>"), Err(Error::Key(_))));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(matches!(
        render_view("{", 40, "dark", Density::Full),
        Err(Error::Json(_))
    ));
    assert!(matches!(
        render_view("{}", 40, "nope", Density::Full),
        Err(Error::Theme(t)) if t == "nope"
    ));
    assert!(matches!(
        Screen::open("not a log", 40, 10, "dark"),
        Err(Error::Load(_))
    ));
}

#[test]
fn a_card_is_what_deck_render_draws_of_its_frames() {
    let card = ToolCard::new("run_command")
        .arguments(json!({"command": "ls"}))
        .result_view(json!({"card": "terminal", "title": "ls", "output": "a\nb",
                            "exitCode": 0}))
        .output("a\nb");
    let rendered = card.render(50, "dark", Density::Full).unwrap();
    let loaded = source::load_bytes("x", card.frames().as_bytes()).unwrap();
    let s = &loaded.sessions[0];
    let t = Transcript::from_records(s.id.clone(), &s.records, crate::agents::stock());
    let direct = headless::render(
        &t,
        &Theme::dark(),
        &LayoutOptions::new(50, Density::Full),
        None,
        Format::Styled,
    );
    assert_eq!(rendered.styled, direct);
    assert!(rendered.text.contains("$ ls"), "{}", rendered.text);
    assert_eq!(rendered.height, 3, "{}", rendered.text);
}

#[test]
fn densities_and_running_calls_differ() {
    let long = (1..=40).map(|i| format!("line {i}")).collect::<Vec<_>>();
    let view = json!({"card": "terminal", "title": "seq 40", "output": long.join("\n")});
    let card = ToolCard::new("run_command").result_view(view);
    let full = card.render(40, "dark", Density::Full).unwrap();
    let line = card.render(40, "dark", Density::Line).unwrap();
    assert!(full.height > 40, "{}", full.text);
    assert_eq!(line.height, 1, "{}", line.text);
    let running = card
        .clone()
        .running()
        .render(40, "dark", Density::Full)
        .unwrap();
    assert_ne!(running.text, full.text);
    assert!(
        !card
            .clone()
            .error("boom")
            .frames()
            .contains("\"isError\":false")
    );
}
