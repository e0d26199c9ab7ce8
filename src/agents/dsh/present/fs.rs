//! The file-tool presenters: `read`, `write` and `edit` (DSH's `dsh-tool-fs`).
//!
//! * `read` call: a `generic` `read` card titled `Read <path>` plus the window
//!   the raw arguments ask for (` (a - b)` with a limit, ` (from line a)` with
//!   only an offset), with one location at the offset (default 1). Result: a
//!   `read` card rebuilt from the persisted `meta` window (validated: 1-based
//!   strictly increasing line numbers within `totalLines`), carrying the
//!   model-facing text with its `<path>/<type>/<content>` envelope stripped.
//!   Errors, bad meta or a text that is not the envelope give no view.
//! * `write` call: a `diff` card with `oldText: null` and the new content.
//!   Result: the applied hunks from `meta.diffs`, or (empty/absent meta, as
//!   for a create) the call's whole-file diff again; no view on error.
//! * `edit` call: a `diff` card of `old_string` → `new_string` (an empty
//!   `old_string` shows as `null`). Result: the applied hunks from
//!   `meta.diffs`; no view on error or without hunks.

use serde_json::{Map, Value};

use super::schema::{ESCALATION_TARGETS, Ty, opt, req};
use super::{
    Args, Outcome, Presenter, absent_or_str, arg_str, is_text_block, js, record, single_block,
    typed,
};
use crate::wire::view::{Block, DiffView, FileDiff, GenericView, Location, ReadView, View};

pub(super) static READ: Presenter = Presenter {
    params: &[
        req("file_path", Ty::Str),
        opt("offset", Ty::Num),
        opt("limit", Ty::Num),
    ],
    call: read_call,
    result: Some(read_result),
};

pub(super) static WRITE: Presenter = Presenter {
    params: &[
        req("file_path", Ty::Str),
        req("content", Ty::Str),
        opt("sandbox_permissions", Ty::Enum(ESCALATION_TARGETS)),
        opt("justification", Ty::Str),
    ],
    call: write_call,
    result: Some(write_result),
};

pub(super) static EDIT: Presenter = Presenter {
    params: &[
        req("file_path", Ty::Str),
        req("old_string", Ty::Str),
        req("new_string", Ty::Str),
        opt("replace_all", Ty::Bool),
        opt("sandbox_permissions", Ty::Enum(ESCALATION_TARGETS)),
        opt("justification", Ty::Str),
    ],
    call: edit_call,
    result: Some(edit_result),
};

fn read_call(args: &Args) -> Option<View> {
    let path = arg_str(args, "file_path").unwrap_or_default();
    let offset = args.get("offset").and_then(Value::as_f64);
    let limit = args.get("limit").and_then(Value::as_f64);
    let start = offset.unwrap_or(1.0);
    let window = match (limit, offset) {
        (Some(limit), _) if limit > 0.0 => {
            format!(
                " ({} - {})",
                js::number_to_string(start),
                js::number_to_string(start + limit - 1.0)
            )
        }
        (_, Some(offset)) => format!(" (from line {})", js::number_to_string(offset)),
        _ => String::new(),
    };
    Some(View::Generic(GenericView {
        title: Some(format!("Read {path}{window}")),
        kind: Some("read".into()),
        locations: vec![Location::new(path, Some(js::count(start)?))],
        ..GenericView::default()
    }))
}

fn read_result(_args: &Args, result: &Outcome) -> Option<View> {
    if result.is_error {
        return None;
    }
    let meta = read_meta(result.meta)?;
    let block = single_block(result.content).filter(|b| is_text_block(b))?;
    let body = envelope_body(block.get("text")?.as_str()?)?;
    let number = |key: &str| meta.get(key).and_then(Value::as_u64);
    let mut view = ReadView::new(
        meta.get("path")?.as_str()?,
        number("offset")?,
        typed(meta.get("lines")?)?,
    );
    view.total_lines = number("totalLines")?;
    view.lang = meta.get("lang").and_then(Value::as_str).map(str::to_string);
    view.content = Some(vec![Block::text(body)]);
    Some(View::Read(view))
}

/// DSH's `readMetaFromMeta`: the persisted read window, when it is well formed.
fn read_meta(meta: Option<&Value>) -> Option<&Map<String, Value>> {
    let meta = record(meta)?;
    meta.get("path")?.as_str()?;
    let total = meta.get("totalLines")?;
    let offset = meta.get("offset")?;
    let (total_n, offset_n) = (total.as_f64()?, offset.as_f64()?);
    if !js::is_integer(offset) || offset_n < 1.0 || !js::is_integer(total) || total_n < 0.0 {
        return None;
    }
    let lines = meta.get("lines")?.as_array()?;
    if !absent_or_str(meta, "lang") {
        return None;
    }
    let mut previous = offset_n - 1.0;
    for line in lines {
        let line = line.as_object()?;
        let number = line.get("number")?;
        line.get("text")?.as_str()?;
        let n = number.as_f64()?;
        if !js::is_integer(number) || n < 1.0 || n <= previous || n > total_n {
            return None;
        }
        previous = n;
    }
    Some(meta)
}

/// The body of the read envelope
/// `^<path>[^\n]*</path>\n<type>file</type>\n<content>\n([\s\S]*)\n</content>$`.
fn envelope_body(text: &str) -> Option<&str> {
    let (first, rest) = text.split_once('\n')?;
    if first.len() < "<path></path>".len()
        || !first.starts_with("<path>")
        || !first.ends_with("</path>")
    {
        return None;
    }
    rest.strip_prefix("<type>file</type>\n<content>\n")?
        .strip_suffix("\n</content>")
}

/// A diff card of `diffs`, titled `{verb} {path}`; a call's names its file.
fn diff(verb: &str, args: &Args, diffs: Vec<FileDiff>, call: bool) -> Option<View> {
    let path = arg_str(args, "file_path").unwrap_or_default();
    Some(View::Diff(DiffView {
        title: Some(format!("{verb} {path}")),
        diffs,
        locations: if call { vec![Location::new(path, None)] } else { Vec::new() },
    }))
}

fn write_call(args: &Args) -> Option<View> {
    diff("Write", args, write_diffs(args), true)
}

/// The call-time whole-file diff of a write: no before-image.
fn write_diffs(args: &Args) -> Vec<FileDiff> {
    let path = arg_str(args, "file_path").unwrap_or_default();
    let content = arg_str(args, "content").unwrap_or_default();
    vec![FileDiff::new(path, None, content)]
}

fn write_result(args: &Args, result: &Outcome) -> Option<View> {
    if result.is_error {
        return None;
    }
    let diffs = match diffs_from_meta(result.meta) {
        Some(diffs) => typed(diffs)?,
        None => write_diffs(args),
    };
    diff("Write", args, diffs, false)
}

fn edit_call(args: &Args) -> Option<View> {
    let path = arg_str(args, "file_path").unwrap_or_default();
    let old = arg_str(args, "old_string").filter(|s| !s.is_empty());
    let new = arg_str(args, "new_string").unwrap_or_default();
    diff("Edit", args, vec![FileDiff::new(path, old.map(str::to_string), new)], true)
}

fn edit_result(args: &Args, result: &Outcome) -> Option<View> {
    if result.is_error {
        return None;
    }
    diff("Edit", args, typed(diffs_from_meta(result.meta)?)?, false)
}

/// DSH's `diffsFromMeta`: a non-empty `diffs` array of `{path, oldText: string
/// | null, newText}` entries (kept as persisted), or nothing.
fn diffs_from_meta(meta: Option<&Value>) -> Option<&Value> {
    let diffs = record(meta)?.get("diffs")?;
    let list = diffs.as_array()?;
    let valid = |d: &Value| {
        d.as_object().is_some_and(|d| {
            d.get("path").is_some_and(Value::is_string)
                && d.get("oldText")
                    .is_some_and(|o| o.is_null() || o.is_string())
                && d.get("newText").is_some_and(Value::is_string)
        })
    };
    (!list.is_empty() && list.iter().all(valid)).then_some(diffs)
}
