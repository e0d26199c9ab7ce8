use super::*;

#[test]
fn backfilled_events_are_put_in_seq_order_with_their_frames() {
    let text = [
        r#"{"type":"session/subscribed","sessionId":"s","lastSeq":0}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":3,"time":4,"data":{"turn":1}}}"#,
        r#"{"type":"question/requested","sessionId":"s","questions":[]}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":1,"time":2,"data":{"turn":1}}}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":2,"time":3,"data":{"turn":1}}}"#,
    ]
    .join("\n");
    let loaded = load_bytes("t", text.as_bytes()).unwrap();
    let tags: Vec<String> = loaded.sessions[0]
        .records
        .iter()
        .map(|r| match r {
            Record::Event { event, .. } => event.seq.to_string(),
            Record::Frame { kind, .. } => kind.clone(),
            Record::Diagnostic(_) => "!".into(),
            Record::Nested { .. } => "n".into(),
        })
        .collect();
    assert_eq!(
        tags,
        vec![
            "session/subscribed",
            "0",
            "1",
            "2",
            "3",
            "question/requested"
        ]
    );
    // Lines keep their own numbers.
    assert_eq!(loaded.sessions[0].records[2].origin().line, 5);
}
