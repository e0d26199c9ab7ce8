//! Builders for test input: records from JSON (log lines and host frames),
//! the events and frames of tool calls, and tool cards as the reducer leaves
//! them.

use deck::session::{AttachedView, Status, ToolCard, ToolError, ToolResult, ViewSource};
use deck::wire::{Frame, Origin, Record};
use serde_json::{Value, json};

/// Fixed call time (epoch ms) of [`tool_card`], so durations are stable.
pub const STARTED: i64 = 1_796_069_109_719;

/// A record from one line of a log: a session event or a host frame.
pub fn rec(v: Value) -> Record {
    Record::from_frame(Frame::from_owned(v).expect("frame"), Origin::default())
}

/// A session event as the session log stores it.
pub fn event(kind: &str, seq: u64, time: i64, data: Value) -> Value {
    json!({"type": kind, "seq": seq, "time": time, "data": data})
}

/// `event` as the host streams it: a `session/event` frame of session `s`,
/// with the host's view for `phase` (`"call"` or `"result"`) when given.
pub fn frame(event: Value, view: Option<(&str, Value)>) -> Value {
    let mut f = json!({"type": "session/event", "sessionId": "s", "event": event});
    if let Some((phase, view)) = view {
        f["view"] = json!({"for": phase, "view": view});
    }
    f
}

/// A text content block.
pub fn text(s: &str) -> Value {
    json!({"type": "text", "text": s})
}

/// `tool/call` data: call `id` of tool `name`, `arguments` as JSON text.
pub fn call_data(id: &str, name: &str, arguments: &str) -> Value {
    json!({"callId": id, "name": name, "arguments": arguments})
}

/// `tool/result` data: the result of call `id`, its `content` blocks.
pub fn result_data(id: &str, content: Value, is_error: bool) -> Value {
    json!({"message": {"content": [{"type": "tool-result", "toolCallId": id,
        "content": content, "isError": is_error}]}})
}

/// `data` placed in step 1 of turn 1 (`turn` and `step` first).
pub fn in_turn(data: Value) -> Value {
    let mut out = json!({"turn": 1, "step": 1});
    if let (Some(o), Value::Object(d)) = (out.as_object_mut(), data) {
        o.extend(d);
    }
    out
}

/// A `user/message` event as the session log stores it.
pub fn user_message(seq: u64, time: i64, said: &str) -> Value {
    event(
        "user/message",
        seq,
        time,
        json!({"content": [text(said)], "role": "user", "id": format!("u{seq}")}),
    )
}

/// A result: its text, `isError`, and `error: {name, code}`.
pub type Settled<'a> = (&'a str, bool, Option<(&'a str, &'a str)>);

/// A tool card as the reducer leaves it: call `call_1` (of `tool`; `None`: a
/// result whose call never came) in step 1 of turn 1, started at [`STARTED`],
/// its views as the host sent them. With a `result` (one text block) it
/// settled 13 ms later, `Error` when `isError`, else `Ok`; without one it
/// is still `Pending`.
pub fn tool_card(
    tool: Option<&str>,
    arguments: &str,
    call_view: Option<Value>,
    result_view: Option<Value>,
    result: Option<Settled<'_>>,
) -> ToolCard {
    let status = match &result {
        None => Status::Pending,
        Some((_, true, _)) => Status::Error,
        Some(_) => Status::Ok,
    };
    let mut card = ToolCard::new("call_1");
    card.tool = tool.map(str::to_string);
    card.arguments = arguments.into();
    card.turn = Some(1);
    card.step = Some(1);
    card.call_seq = tool.map(|_| 61);
    card.started = Some(STARTED);
    card.ended = result.as_ref().map(|_| STARTED + 13);
    card.call_view = call_view.map(|v| AttachedView::new(ViewSource::Wire, v));
    card.result_view = result_view.map(|v| AttachedView::new(ViewSource::Wire, v));
    card.result = result.map(|(out, is_error, error)| {
        ToolResult::new(
            63,
            vec![text(out)],
            is_error,
            error.map(|(name, code)| ToolError::new(Some(name.into()), Some(code.into()))),
            None,
        )
    });
    card.status = status;
    card.rev = 1;
    card
}

/// `frame`, of session `sid`.
pub fn frame_of(sid: &str, event: Value) -> Value {
    let mut f = frame(event, None);
    f["sessionId"] = json!(sid);
    f
}

/// The text of a frame log holding two sessions, their frames interleaved:
/// `alpha-1` (titled `Alpha work`: a prompt and one `bash` call printing
/// `alpha output`) and `beta-2` (no title: its first prompt, `Beta prompt
/// here`, and two calls printing `beta output 1` and `2`), started a
/// minute apart.
pub fn two_sessions() -> String {
    let call = |sid: &str, seq: u64, time: i64, n: usize, out: &str| {
        let id = format!("{sid}_call_{n}");
        [
            frame_of(
                sid,
                event(
                    "tool/call",
                    seq,
                    time,
                    in_turn(call_data(&id, "bash", r#"{"command":"echo"}"#)),
                ),
            ),
            frame_of(
                sid,
                event(
                    "tool/result",
                    seq + 1,
                    time + 10,
                    in_turn(result_data(&id, json!([text(out)]), false)),
                ),
            ),
        ]
    };
    let (a, b) = ("alpha-1", "beta-2");
    let mut frames = vec![
        frame_of(a, user_message(1, STARTED, "Alpha prompt")),
        frame_of(
            b,
            user_message(1, STARTED + 60_000, "Beta prompt here\nsecond line"),
        ),
        frame_of(
            a,
            event(
                "session/title",
                2,
                STARTED + 5,
                json!({"title": "Alpha work"}),
            ),
        ),
    ];
    frames.extend(call(b, 2, STARTED + 61_000, 1, "beta output 1"));
    frames.extend(call(a, 3, STARTED + 1_000, 1, "alpha output"));
    frames.extend(call(b, 4, STARTED + 62_000, 2, "beta output 2"));
    frames.iter().map(|f| format!("{f}\n")).collect()
}
