//! The `todo_write` presenter (DSH's `dsh-tool-todo`).
//!
//! Call: a `generic` `other` card titled `Update todo list` whose `rawInput`
//! is the submitted list. There is no result presenter: the host sends no
//! result view (the list itself travels as a `todo/write` session event).

use super::schema::{Ty, req};
use super::{Args, Presenter};
use crate::wire::view::{GenericView, View};

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

fn present_call(args: &Args) -> Option<View> {
    Some(View::Generic(GenericView {
        title: Some("Update todo list".into()),
        kind: Some("other".into()),
        // Required by the schema: the submitted list.
        raw_input: args.get("todos").cloned(),
        ..GenericView::default()
    }))
}
