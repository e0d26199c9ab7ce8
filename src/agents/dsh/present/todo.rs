//! The `todo_write` presenter (DSH's `dsh-tool-todo`).
//!
//! Call: a `generic` `other` card titled `Update todo list` whose `rawInput`
//! is the submitted list. There is no result presenter: the host sends no
//! result view (the list itself travels as a `todo/write` session event).

use serde_json::{Value, json};

use super::schema::{Ty, req};
use super::{Args, Presenter};

const STATUSES: &[&str] = &["pending", "in_progress", "completed"];

pub(super) static TODO_WRITE: Presenter = Presenter {
    params: &[req(
        "todos",
        Ty::List(&Ty::Closed(&[
            req("content", Ty::Str),
            req("status", Ty::Enum(STATUSES)),
        ])),
    )],
    call: present_call,
    result: None,
};

fn present_call(args: &Args) -> Value {
    let todos = args.get("todos").cloned().unwrap_or(Value::Null);
    json!({"card": "generic", "title": "Update todo list", "kind": "other", "rawInput": todos})
}
