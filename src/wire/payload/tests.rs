//! Reading payloads leniently.

use super::*;
use serde_json::json;

fn raw(v: Value) -> RawJson {
    RawJson::from_value(&v)
}

#[test]
fn misfits_read_as_absent() {
    let t: TurnStart = read(&raw(json!({"turn": "1"}))).unwrap();
    assert_eq!(t.turn, None);
    let t: TurnStart = read(&raw(json!([{"turn": 1}]))).unwrap();
    assert_eq!(t, TurnStart::default());
    let t: TurnStart = read(&raw(json!({"turn": 1.5, "x": [[{"y": null}]]}))).unwrap();
    assert_eq!(t.turn, None);
    // The last of a repeated key, as a tree keeps it.
    let t: TurnStart = read(&RawJson::from(json!(null))).unwrap();
    assert_eq!(t.turn, None);
    let t: TurnStart = serde_json::from_str(r#"{"turn":1,"turn":2}"#).unwrap();
    assert_eq!(t.turn, Some(2));
}

#[test]
fn present_keys_stop_the_fallbacks() {
    let r: ToolResult = read(&raw(json!({"callId": "d", "message": {
        "source": {"callId": "s"},
        "content": [1, {"type": "tool-result", "toolCallId": 5, "isError": true}]}})))
    .unwrap();
    assert_eq!(r.call_id(), None);
    assert_eq!(r.part().and_then(|p| p.is_error), Some(true));
    let r: ToolResult = read(&raw(json!({"callId": "d", "message": {
        "source": {"callId": "s"}, "content": [{"type": "tool-result"}]}})))
    .unwrap();
    assert_eq!(r.call_id(), Some("s"));
    let r: ToolResult = read(&raw(json!({"callId": "d", "message": "m"}))).unwrap();
    assert_eq!(r.call_id(), Some("d"));
    let e: TurnEnd = read(&raw(json!({"reason": {"error": null,
        "failure": {"message": "m", "code": 7}}})))
    .unwrap();
    assert_eq!(e.reason.as_ref().and_then(TurnEndReason::failure), None);
    let e: TurnEnd = read(&raw(
        json!({"reason": {"failure": {"message": "m", "code": 7}}}),
    ))
    .unwrap();
    let f = e.reason.as_ref().and_then(TurnEndReason::failure).unwrap();
    assert_eq!(
        (f.message.clone().flatten(), f.code.as_deref()),
        (Some("m".into()), Some("7"))
    );
}

#[test]
fn items_keep_their_places() {
    let m: AssistantMessage = read(&raw(json!({"message": {"content": [
        "x", {"type": "text", "text": "a"}]}})))
    .unwrap();
    let content = m.message.unwrap().content.unwrap();
    assert_eq!(content.len(), 2);
    assert!(content[0].is_none());
    let u: UserMessage = read(&raw(json!({"content": "hi"}))).unwrap();
    assert_eq!(u.content, TextOrObjects::Text("hi".into()));
}

#[test]
fn too_deep_is_an_error_wherever_it_is() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    for text in [
        deep.clone(),
        format!(r#"{{"turn":{deep}}}"#),
        format!(r#"{{"unread":{deep}}}"#),
    ] {
        let data: RawJson = serde_json::from_str::<Box<serde_json::value::RawValue>>(&text)
            .map(|r| RawJson::from_raw(&r))
            .unwrap();
        let err = read::<TurnStart>(&data).unwrap_err().to_string();
        assert!(err.contains("recursion limit"), "{err}");
    }
}
