//! Argument parsing and soft validation, as the host does before presenting.
//!
//! DSH's `viewFor` runs `JSON.parse` on the model's raw arguments and
//! `defineTool` checks the result against the tool's parameter schema; any
//! failure yields no view. This module mirrors the subset of DSH's JSON-schema
//! validator the stock tools' parameter schemas use: an open object root with
//! required and optional properties of type string (optionally an enum),
//! number, boolean, array, and closed objects. Like the host it also rejects
//! values that are not lossless JSON (negative zero anywhere in the
//! arguments). `null` never satisfies a declared property, present or not
//! required.

use serde_json::{Map, Value};

use super::Args;

/// The JSON type a declared property must have.
pub(super) enum Ty {
    /// Any string.
    Str,
    /// A string from a fixed set (`type: 'string', enum: [...]`).
    Enum(&'static [&'static str]),
    /// A finite JSON number (not negative zero).
    Num,
    /// `true` or `false`.
    Bool,
    /// An array whose every item has the given type.
    List(&'static Ty),
    /// An object with the given properties and `additionalProperties: false`.
    Closed(&'static [Param]),
}

/// One declared property of an object schema.
pub(super) struct Param {
    pub name: &'static str,
    pub ty: Ty,
    pub required: bool,
}

/// A required property.
pub(super) const fn req(name: &'static str, ty: Ty) -> Param {
    Param {
        name,
        ty,
        required: true,
    }
}

/// An optional property.
pub(super) const fn opt(name: &'static str, ty: Ty) -> Param {
    Param {
        name,
        ty,
        required: false,
    }
}

/// The sandbox modes an escalating call may request (DSH's `ESCALATION_TARGETS`),
/// advertised as the `sandbox_permissions` enum of `bash`, `write` and `edit`
/// by a confining composition — the stock host's, as both captures show. (A
/// host without a sandboxing backend leaves the key undeclared, so there any
/// value would pass; deck follows the stock composition.)
pub(super) const ESCALATION_TARGETS: &[&str] = &["workspace-write", "danger-full-access"];

/// Parse raw arguments and validate them against a tool's parameters: the
/// arguments as an object, or `None` where the host would present nothing.
pub(super) fn parse(raw: &str, params: &[Param]) -> Option<Args> {
    let value: Value = serde_json::from_str(raw).ok()?;
    if !lossless(&value) {
        return None;
    }
    let Value::Object(args) = value else {
        return None;
    };
    fields_fit(&args, params, false).then_some(args)
}

/// Whether every declared property of `map` fits, every required one is
/// present, and (for a closed object) no undeclared key appears.
fn fields_fit(map: &Map<String, Value>, params: &[Param], closed: bool) -> bool {
    let declared = params.iter().all(|p| match map.get(p.name) {
        Some(value) => fits(value, &p.ty),
        None => !p.required,
    });
    declared && (!closed || map.keys().all(|k| params.iter().any(|p| p.name == k)))
}

/// Whether one value fits one declared type.
fn fits(value: &Value, ty: &Ty) -> bool {
    match ty {
        Ty::Str => value.is_string(),
        Ty::Enum(allowed) => value.as_str().is_some_and(|s| allowed.contains(&s)),
        Ty::Num => value
            .as_f64()
            .is_some_and(|n| n.is_finite() && !negative_zero(n)),
        Ty::Bool => value.is_boolean(),
        Ty::List(item) => value
            .as_array()
            .is_some_and(|items| items.iter().all(|v| fits(v, item))),
        Ty::Closed(params) => value
            .as_object()
            .is_some_and(|m| fields_fit(m, params, true)),
    }
}

/// DSH's lossless-JSON boundary: no negative zero (and no non-finite number,
/// which a successful parse cannot produce) anywhere in the value.
fn lossless(value: &Value) -> bool {
    match value {
        Value::Number(n) => n
            .as_f64()
            .is_none_or(|f| f.is_finite() && !negative_zero(f)),
        Value::Array(items) => items.iter().all(lossless),
        Value::Object(map) => map.values().all(lossless),
        _ => true,
    }
}

fn negative_zero(n: f64) -> bool {
    n == 0.0 && n.is_sign_negative()
}
