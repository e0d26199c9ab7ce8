//! proptest generators for the property tests: hostile strings (controls,
//! escapes, wide CJK, combining marks, emoji, tabs, CR), JSON values and
//! render intents of every card tag (valid, with wrong-typed or missing
//! fields, of unknown tags, not objects). Whole sessions are in [`session`].

pub mod session;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value, json};

pub use session::session;

/// Pieces that stress layout and sanitizing.
const NASTY: &[&str] = &[
    "\n",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "\t\t",
    "\u{1b}",
    "\u{1b}[31m",
    "\u{1b}[1;4;38;5;200m",
    "\u{1b}[0m",
    "\u{1b}[2J",
    "\u{1b}[10A",
    "\u{1b}[?1049h",
    "\u{1b}]0;title\u{7}",
    "\u{1b}]8;;http://x.test/\u{1b}\\",
    "\u{1b}P+q\u{1b}\\",
    "\u{9b}",
    "\u{9b}31m",
    "\u{85}",
    "\u{0}",
    "\u{7}",
    "\u{8}",
    "\u{b}",
    "\u{c}",
    "\u{7f}",
    "日本語",
    "漢",
    "한글",
    "ｆｕｌｌ",
    "e\u{301}",
    "\u{301}",
    "\u{20dd}",
    "a\u{200d}b",
    "👍🏽",
    "👨\u{200d}👩\u{200d}👧",
    "🇫🇷",
    "🇫",
    "❤\u{fe0f}",
    "\u{fe0f}",
    "\u{200b}",
    "\u{feff}",
    "\u{ad}",
    "\u{202e}",
    "\u{2066}",
    "لا",
    "\u{1100}\u{1161}",
    "\u{3000}",
    "\u{fffd}",
    "#",
    "# ",
    "**",
    "_",
    "`",
    "```",
    "```rust\n",
    "|",
    "| a | b |\n|---|---|\n",
    "- ",
    "1. ",
    "> ",
    "- [x] ",
    "[a](http://x.test/a)",
    "<http://x.test>",
    "---\n",
    "    ",
    "@@ -1,2 +1,3 @@",
    "+",
    "-",
    "{",
    "}",
    "\"",
    "\\",
    "[stderr]\n",
    "<U+202E>",
];

/// One piece of a hostile string.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-zA-Z0-9]{1,10}( )?",
        1 => " {1,6}",
        5 => select(NASTY).prop_map(str::to_string),
        2 => any::<char>().prop_map(String::from),
        1 => "[a-z]{40,200}",
    ]
}

/// A short hostile string (a title, a path, a word).
pub fn short() -> impl Strategy<Value = String> {
    vec(piece(), 0..6).prop_map(|p| p.concat())
}

/// A longer hostile string, usually over several lines (outputs, file texts, markdown).
pub fn text() -> impl Strategy<Value = String> {
    vec(piece(), 0..40).prop_map(|p| p.concat())
}

/// Any JSON value, strings hostile, a few levels deep.
pub fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        short().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            vec((short(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// An optional field: usually there, with a value of the right type.
pub(crate) fn field(right: BoxedStrategy<Value>) -> BoxedStrategy<Option<Value>> {
    prop::option::weighted(0.85, right).boxed()
}

/// A required field.
fn req(right: BoxedStrategy<Value>) -> BoxedStrategy<Option<Value>> {
    right.prop_map(Some).boxed()
}

/// Damage one field of an object: drop it, null it or give it a value of
/// any type. Other values are left as they are.
fn corrupt(v: Value) -> BoxedStrategy<Value> {
    let Value::Object(o) = v else {
        return Just(v).boxed();
    };
    let n = o.len().max(1);
    (0..n, prop::option::weighted(0.8, json_value()))
        .prop_map(move |(i, replacement)| {
            let mut o = o.clone();
            if let Some(k) = o.keys().nth(i).cloned() {
                match replacement {
                    Some(r) => {
                        o.insert(k, r);
                    }
                    None => {
                        o.remove(&k);
                    }
                }
            }
            Value::Object(o)
        })
        .boxed()
}

/// Mostly whole, sometimes with one field damaged.
fn maybe_corrupt(whole: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop_oneof![
        5 => whole.clone(),
        1 => whole.prop_flat_map(corrupt),
    ]
    .boxed()
}

pub(crate) fn s() -> BoxedStrategy<Value> {
    short().prop_map(Value::from).boxed()
}

pub(crate) fn t() -> BoxedStrategy<Value> {
    text().prop_map(Value::from).boxed()
}

/// A count, a line number, an offset (edge values included: the wire may send any).
fn n() -> BoxedStrategy<Value> {
    prop_oneof![
        6 => (0u64..2000).prop_map(Value::from),
        1 => any::<u64>().prop_map(Value::from),
        1 => select(vec![0, 1, u64::MAX - 1, u64::MAX]).prop_map(Value::from),
    ]
    .boxed()
}

fn exit_code() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => (0i64..3).prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => select(vec![i64::MIN, -1, i64::MAX]).prop_map(Value::from),
    ]
    .boxed()
}

fn b() -> BoxedStrategy<Value> {
    any::<bool>().prop_map(Value::from).boxed()
}

pub(crate) fn arr(item: BoxedStrategy<Value>, max: usize) -> BoxedStrategy<Value> {
    vec(item, 0..max).prop_map(Value::Array).boxed()
}

pub(crate) fn one_of(
    values: impl Into<std::borrow::Cow<'static, [&'static str]>>,
) -> BoxedStrategy<Value> {
    prop_oneof![
        9 => select(values).prop_map(Value::from),
        1 => short().prop_map(Value::from),
    ]
    .boxed()
}

/// An object of `(key, field)` pairs; absent fields are left out.
pub(crate) fn object(
    fields: Vec<(&'static str, BoxedStrategy<Option<Value>>)>,
) -> BoxedStrategy<Value> {
    let (keys, values): (Vec<_>, Vec<_>) = fields.into_iter().unzip();
    values
        .prop_map(move |vals| {
            let mut o = Map::new();
            for (k, v) in keys.iter().zip(vals) {
                if let Some(v) = v {
                    o.insert((*k).to_string(), v);
                }
            }
            Value::Object(o)
        })
        .boxed()
}

fn block() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => object(vec![("type", req(Just(Value::from("text")).boxed())), ("text", req(t()))]),
        1 => object(vec![("type", req(s())), ("data", field(s()))]),
    ]
    .boxed()
}

fn location() -> BoxedStrategy<Value> {
    object(vec![("path", req(s())), ("line", field(n()))])
}

/// Several lines of text, and an edited copy of them (so diffs have real hunks).
fn old_and_new() -> BoxedStrategy<(Value, Value)> {
    (
        vec(short(), 0..30),
        vec((any::<bool>(), any::<bool>(), short()), 0..30),
    )
        .prop_map(|(old, edits)| {
            let mut new = Vec::new();
            for (i, l) in old.iter().enumerate() {
                match edits.get(i) {
                    Some((true, _, _)) => {}
                    Some((false, true, repl)) => new.push(format!("{l}{repl}")),
                    _ => new.push(l.clone()),
                }
            }
            (Value::from(old.join("\n")), Value::from(new.join("\n")))
        })
        .boxed()
}

fn file_diff() -> BoxedStrategy<Value> {
    (old_and_new(), any::<u8>(), short())
        .prop_map(|((old, new), mode, path)| {
            let path = format!("{path}{}", [".rs", ".py", ".md", ""][mode as usize % 4]);
            match mode % 12 {
                0 => json!({"path": path, "oldText": null, "newText": new}),
                1 => json!({"path": path, "newText": new}),
                2 => json!({"path": path, "oldText": old, "newText": 7}),
                3 => json!({"path": path, "oldText": new, "newText": old}),
                _ => json!({"path": path, "oldText": old, "newText": new}),
            }
        })
        .boxed()
}

const LANGS: &[&str] = &[
    "rust", "python", "json", "markdown", "sh", "diff", "c", "toml",
];
const KINDS: &[&str] = &[
    "read", "edit", "delete", "move", "search", "execute", "fetch", "other",
];

/// A render intent with a `card` tag: every tag deck knows, unknown tags,
/// wrong-typed and missing fields, and values that are not objects.
pub fn view() -> BoxedStrategy<Value> {
    let title = || ("title", field(s()));
    let generic = object(vec![
        ("card", Just(Some(Value::from("generic"))).boxed()),
        title(),
        ("kind", field(one_of(KINDS))),
        ("rawInput", field(json_value().boxed())),
        ("content", field(arr(block(), 4))),
        ("locations", field(arr(location(), 3))),
    ]);
    let terminal = object(vec![
        ("card", Just(Some(Value::from("terminal"))).boxed()),
        title(),
        ("description", field(s())),
        ("cwd", field(s())),
        ("output", field(t())),
        ("exitCode", field(exit_code())),
        ("signal", field(one_of(&["SIGKILL", "SIGTERM"]))),
    ]);
    let diff = object(vec![
        ("card", Just(Some(Value::from("diff"))).boxed()),
        title(),
        ("diffs", req(arr(file_diff(), 3))),
        ("locations", field(arr(location(), 2))),
    ]);
    let read_line = object(vec![("number", req(n())), ("text", req(s()))]);
    let read = object(vec![
        ("card", Just(Some(Value::from("read"))).boxed()),
        title(),
        ("path", req(s())),
        ("offset", field(n())),
        ("lines", req(arr(read_line, 20))),
        ("totalLines", field(n())),
        ("lang", field(one_of(LANGS))),
        ("content", field(arr(block(), 2))),
    ]);
    let search_match = object(vec![("lineNumber", field(n())), ("line", req(s()))]);
    let search_file = object(vec![
        ("path", req(s())),
        ("matches", req(arr(search_match, 5))),
    ]);
    let search = object(vec![
        ("card", Just(Some(Value::from("search"))).boxed()),
        title(),
        ("shape", req(one_of(&["matches", "paths"]))),
        ("files", req(arr(search_file, 4))),
        ("paths", req(arr(s(), 6))),
        ("truncated", field(b())),
        ("total", field(n())),
    ]);
    let source = object(vec![
        ("url", req(s())),
        ("title", field(s())),
        ("snippet", field(t())),
        ("publishedAt", field(s())),
    ]);
    let failure = object(vec![
        ("query", field(s())),
        ("code", field(s())),
        ("message", field(s())),
    ]);
    let web = object(vec![
        ("card", Just(Some(Value::from("web"))).boxed()),
        title(),
        ("kind", req(one_of(&["search", "fetch"]))),
        ("sources", field(arr(source, 4))),
        ("answer", field(t())),
        ("failures", field(arr(failure, 2))),
        ("url", req(s())),
        ("statusCode", field(n())),
        ("truncated", field(b())),
    ]);
    let unknown = object(vec![("card", field(s())), title(), ("output", field(t()))]);
    prop_oneof![
        3 => maybe_corrupt(generic),
        3 => maybe_corrupt(terminal),
        3 => maybe_corrupt(diff),
        3 => maybe_corrupt(read),
        3 => maybe_corrupt(search),
        3 => maybe_corrupt(web),
        1 => unknown,
        1 => json_value().boxed(),
    ]
    .boxed()
}
