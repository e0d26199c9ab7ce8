//! Packed chunk rows of DSH session logs (`text-chunks`, `reasoning-chunks`,
//! `tool-call-chunks`) expanded back into the `assistant/chunk` events they
//! stand for: member `k` has seq `seq0 + k` and time `time0 + dt[0] + … + dt[k-1]`.

use serde_json::{Map, Value};

use crate::wire::SessionEvent;
use crate::wire::payload::{AssistantChunk, Chunk};

/// True for the three packed row tags.
pub fn is_chunk_row(kind: &str) -> bool {
    matches!(
        kind,
        "text-chunks" | "reasoning-chunks" | "tool-call-chunks"
    )
}

/// Expand one packed row. Errors name what is malformed.
pub fn expand(row: &Map<String, Value>) -> Result<Vec<SessionEvent>, String> {
    let kind = row.get("type").and_then(Value::as_str).unwrap_or("");
    let seq0 = row
        .get("seq0")
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("{kind}: no integer \"seq0\""))?;
    let time0 = row
        .get("time0")
        .and_then(Value::as_i64)
        .ok_or_else(|| format!("{kind}: no integer \"time0\""))?;
    let data = row
        .get("data")
        .and_then(Value::as_object)
        .ok_or_else(|| format!("{kind}: no \"data\" object"))?;
    let num = |k: &str| {
        data.get(k)
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("{kind}: data.{k} is not an integer"))
    };
    let (turn, step, index) = (num("turn")?, num("step")?, num("index")?);
    let dt: Vec<i64> = match data.get("dt") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_i64()
                    .ok_or_else(|| format!("{kind}: data.dt holds a non-integer"))
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(format!("{kind}: data.dt is not an array")),
    };
    let key = if kind == "tool-call-chunks" {
        "args"
    } else {
        "texts"
    };
    let texts: Vec<&str> = match data.get(key) {
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .ok_or_else(|| format!("{kind}: data.{key} holds a non-string"))
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(format!("{kind}: data.{key} is not an array")),
    };
    if dt.len() + 1 != texts.len() {
        return Err(format!(
            "{kind}: {} gaps for {} members (expected one fewer)",
            dt.len(),
            texts.len()
        ));
    }
    let mut out = Vec::with_capacity(texts.len());
    let mut time = time0;
    for (k, text) in texts.iter().enumerate() {
        if k > 0 {
            time += dt[k - 1];
        }
        let delta = |kind: &str| Chunk {
            kind: Some(kind.into()),
            index: Some(index),
            text: Some(text.to_string()),
            ..Chunk::default()
        };
        let chunk = match kind {
            "text-chunks" => delta("text-delta"),
            "reasoning-chunks" => delta("reasoning-delta"),
            _ => {
                let id = data
                    .get("id")
                    .and_then(Value::as_str)
                    .ok_or("tool-call-chunks: no data.id")?;
                Chunk {
                    kind: Some("tool-call-delta".into()),
                    index: Some(index),
                    id: Some(id.to_string()),
                    name: data.get("name").and_then(Value::as_str).map(str::to_string),
                    arguments_delta: Some(text.to_string()),
                    ..Chunk::default()
                }
            }
        };
        let data = AssistantChunk {
            turn: Some(turn),
            step: Some(step),
            chunk: Some(chunk),
        };
        out.push(SessionEvent {
            kind: crate::wire::EventKind::AssistantChunk,
            seq: seq0 + k as u64,
            time,
            // Strings and numbers: it always writes.
            data: crate::wire::RawJson::from_text(
                serde_json::to_string(&data).unwrap_or_else(|_| "null".into()),
            ),
            ignorable: false,
            source_event_seqs: Vec::new(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn expands_text_rows_with_gaps() {
        let evs = expand(&row(json!({"type":"text-chunks","seq0":20,"time0":100,
            "data":{"turn":1,"step":1,"index":1,"dt":[1,0],"texts":["a","b","c"]}})))
        .unwrap();
        assert_eq!(
            evs.iter().map(|e| e.seq).collect::<Vec<_>>(),
            vec![20, 21, 22]
        );
        assert_eq!(
            evs.iter().map(|e| e.time).collect::<Vec<_>>(),
            vec![100, 101, 101]
        );
        assert_eq!(evs[2].data.parse()["chunk"]["text"], "c");
        assert_eq!(evs[0].data.parse()["chunk"]["type"], "text-delta");
    }

    #[test]
    fn expands_tool_call_rows() {
        let evs = expand(&row(json!({"type":"tool-call-chunks","seq0":5,"time0":1,
            "data":{"turn":1,"step":2,"index":0,"id":"c1","name":"x","dt":[0],"args":["{\"a\"",":1}"]}})))
        .unwrap();
        assert_eq!(evs[1].data.parse()["chunk"]["argumentsDelta"], ":1}");
        assert_eq!(evs[0].data.parse()["chunk"]["id"], "c1");
    }

    #[test]
    fn malformed_rows_are_errors() {
        assert!(expand(&row(json!({"type":"text-chunks","seq0":1,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a","b"]}}))).is_err());
        assert!(expand(&row(json!({"type":"text-chunks","time0":1,"data":{}}))).is_err());
    }
}
