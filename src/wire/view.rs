//! Render intents (views), typed. One enum for call and result views: the
//! union of their fields, with everything a result view may omit optional.
//!
//! Each card's struct derives `Deserialize` over the strict readers of
//! `wire/de/strict.rs`: strict about types (a field of the wrong type is an error
//! naming the field, so the card falls back with that reason), lenient
//! about extra fields (ignored). Decoding is what `#[serde(tag = "card")]`
//! does, in two steps: the tags first (`card`, and a search view's `shape`
//! or a web view's `kind`), then that card's struct straight from the text.
//! (The derived internally tagged enum would buffer the view into serde's
//! content tree — as costly as a JSON tree — and lose the field path.)
//!
//! A view that does not decode from its text (a wrong field, a duplicate
//! key) is decoded again from its JSON tree: there, as in any tree, the last
//! of duplicate keys wins, and `serde_path_to_error` names the field that
//! did not fit. It never panics.
//!
//! The same structs derive `JsonSchema` (`deck schema`, `view/schema.rs`):
//! each field's doc is its description there, and where a strict reader
//! takes more than the field's Rust type says (`null` for a field with a
//! default), `#[schemars(with = …)]` says what it takes. Every struct
//! allows unknown fields, as the readers do.
//!
//! The same structs derive `Serialize` (presenters build typed views and
//! write them; `view/encode.rs` writes the tagged ones): what is absent is
//! not written, so a written view reads back equal.
//!
//! This file owns the view types and their entry points; `view/decode.rs`
//! the switch on tags and the decoding of each card's struct;
//! `view/encode.rs` the writing of tagged views;
//! `view/schema.rs` the JSON Schema of all six cards.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, de};
use serde_json::Value;

use super::de::{loose, object_or_type, strict};
use super::error::{JsonType, WireError};
use decode::{Tag, Tags};
use encode::is_zero;
pub use web::{WebBody, WebFailure, WebSource, WebView};

/// A content block. Text is shown; other block types get a placeholder naming the type.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A text block's text.
    Text(String),
    /// A block of another type.
    Other {
        /// Its type (`image`, `resource` …).
        kind: String,
    },
}

/// `{path, line?}` — a location a call touches.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct Location {
    /// The file's path.
    #[serde(deserialize_with = "strict::req_str")]
    pub path: String,
    /// The 1-based line.
    #[serde(
        default,
        deserialize_with = "strict::opt_u64",
        skip_serializing_if = "Option::is_none"
    )]
    pub line: Option<u64>,
}

/// The kinds of a generic view that the protocol names (a glyph hint).
pub const GENERIC_KINDS: &[&str] = &[
    "read", "edit", "delete", "move", "search", "execute", "fetch", "other",
];

/// `card: "generic"`: a title, the call's input, content blocks.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct GenericView {
    /// The card's title (a result view's replaces the call view's).
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// read | edit | delete | move | search | execute | fetch | other (kept as sent).
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(schema_with = "schema::generic_kind")]
    pub kind: Option<String>,
    /// The call's input: any JSON (a string is shown as is, anything else
    /// as pretty JSON); `null` is no input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_input: Option<Value>,
    /// What the card shows; absent: the result's own text.
    #[serde(
        default,
        deserialize_with = "strict::opt_array",
        skip_serializing_if = "Option::is_none"
    )]
    pub content: Option<Vec<Block>>,
    /// The files the call touches.
    #[serde(
        default,
        deserialize_with = "strict::objects_or_none",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[schemars(with = "Option<Vec<Location>>")]
    pub locations: Vec<Location>,
}

/// `card: "terminal"`: a command, its output and how it ended.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct TerminalView {
    /// The command.
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// A one-line summary of what the command does.
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub description: Option<String>,
    /// Where the command runs.
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub cwd: Option<String>,
    /// stdout and stderr as the tool combined them (ANSI escapes are
    /// drawn as a terminal would; stderr after a `\n[stderr]\n` line).
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub output: Option<String>,
    /// The command's exit code (a result view has it or `signal`).
    #[serde(
        default,
        deserialize_with = "strict::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub exit_code: Option<i64>,
    /// The signal that ended the command (`SIGTERM`).
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub signal: Option<String>,
}

/// One file's change: deck computes the line diff of the two texts.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct FileDiff {
    /// The file's path.
    #[serde(deserialize_with = "strict::req_str")]
    pub path: String,
    /// `None`: a new file (unless `before` says otherwise): all lines added.
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub old_text: Option<String>,
    /// The text after the change.
    #[serde(deserialize_with = "strict::req_str")]
    pub new_text: String,
    /// The file's line number of both texts' first line (of the new text's
    /// too unless `newStartLine` says), when they start at a known place
    /// (deck's own presenters of other agents send it: their logs hold the
    /// whole file, or a hunk's header). DSH's views have no such key.
    #[serde(
        default,
        deserialize_with = "strict::opt_u64",
        skip_serializing_if = "Option::is_none"
    )]
    pub start_line: Option<u64>,
    /// The changed file's line number of the new text's first line, when
    /// it is not `startLine` (a hunk after others that added or removed
    /// lines: unified diff's `@@ -a,b +c,d @@` has both). Read only with
    /// `startLine`.
    #[serde(
        default,
        deserialize_with = "strict::opt_u64",
        skip_serializing_if = "Option::is_none"
    )]
    pub new_start_line: Option<u64>,
    /// Without `oldText`, what the file held before when it is not known
    /// to be new (deck's presenters of other agents' logs send it):
    /// `overwritten` (it existed; what it held is not in the log) or
    /// `unknown` (the log does not say whether it existed). Absent: a new
    /// file, as DSH's views mean `oldText: null`.
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub before: Option<String>,
}

/// `card: "diff"`: changes to files, one entry per hunk or file.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct DiffView {
    /// The card's title (`Edit src/x.rs`).
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// The changes.
    #[serde(deserialize_with = "strict::objects")]
    pub diffs: Vec<FileDiff>,
    /// The files the call touches.
    #[serde(
        default,
        deserialize_with = "strict::objects_or_none",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[schemars(with = "Option<Vec<Location>>")]
    pub locations: Vec<Location>,
}

/// A matching line.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct SearchMatch {
    /// Its 1-based number (absent: 0, not shown).
    #[serde(
        default,
        deserialize_with = "strict::u64_or::<_, 0>",
        skip_serializing_if = "is_zero"
    )]
    #[schemars(with = "Option<u64>")]
    pub line_number: u64,
    /// Its text.
    #[serde(deserialize_with = "strict::req_str")]
    pub line: String,
}

/// A file and its matching lines.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct SearchFile {
    /// The file's path.
    #[serde(deserialize_with = "strict::req_str")]
    pub path: String,
    /// Its matching lines.
    #[serde(deserialize_with = "strict::objects")]
    pub matches: Vec<SearchMatch>,
}

/// What a search view found, by its `shape`.
#[derive(Debug, Clone, PartialEq)]
pub enum SearchBody {
    /// `matches` (a grep): files and their matching lines.
    Matches(Vec<SearchFile>),
    /// `paths` (a glob): the paths found.
    Paths(Vec<String>),
}

/// `card: "search"`: what a search found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SearchView {
    /// The card's title.
    pub title: Option<String>,
    /// What was found.
    pub body: SearchBody,
    /// What was found was capped (`total` says how much there was).
    pub truncated: bool,
    /// The matches or paths before capping.
    pub total: u64,
}

/// A line of a file.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct ReadLine {
    /// Its 1-based number.
    #[serde(deserialize_with = "strict::req_u64")]
    pub number: u64,
    /// Its text.
    #[serde(deserialize_with = "strict::req_str")]
    pub text: String,
}

/// `card: "read"`: lines of a file, highlighted.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct ReadView {
    /// The card's title.
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// The file's path (its extension picks the highlighting when `lang`
    /// is absent).
    #[serde(deserialize_with = "strict::req_str")]
    pub path: String,
    /// The first line asked for, 1-based.
    #[serde(default = "first_line", deserialize_with = "strict::u64_or::<_, 1>")]
    #[schemars(with = "Option<u64>")]
    pub offset: u64,
    /// The lines read.
    #[serde(deserialize_with = "strict::objects")]
    pub lines: Vec<ReadLine>,
    /// The file's length in lines (absent: 0, unknown).
    #[serde(
        default,
        deserialize_with = "strict::u64_or::<_, 0>",
        skip_serializing_if = "is_zero"
    )]
    #[schemars(with = "Option<u64>")]
    pub total_lines: u64,
    /// The language, as an extension-like token (`py`, `ts`, `md`).
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub lang: Option<String>,
    /// Text shown when there are no lines.
    #[serde(
        default,
        deserialize_with = "strict::opt_array",
        skip_serializing_if = "Option::is_none"
    )]
    pub content: Option<Vec<Block>>,
    /// Lines after `lines` that were counted but not read (a view typed
    /// only as far as a screen needs: [`super::read_prefix`]); `None` when
    /// `lines` holds them all.
    #[serde(skip)]
    pub more: Option<MoreLines>,
}

/// A read view's `offset` when it has none: the first line.
fn first_line() -> u64 {
    1
}

/// Lines of a read view counted but not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoreLines {
    /// How many.
    pub count: usize,
    /// The number of the last one.
    pub last: u64,
}

/// A typed view, switched on its `card` tag (and written with it).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "card", rename_all = "lowercase")]
#[non_exhaustive]
pub enum View {
    /// `card: "generic"`.
    Generic(GenericView),
    /// `card: "terminal"`.
    Terminal(TerminalView),
    /// `card: "diff"`.
    Diff(DiffView),
    /// `card: "search"`.
    Search(SearchView),
    /// `card: "read"`.
    Read(ReadView),
    /// `card: "web"`.
    Web(WebView),
}

/// The six card tags.
pub const CARD_TAGS: &[&str] = &["generic", "terminal", "diff", "read", "search", "web"];

impl View {
    /// The `card` tag.
    pub fn tag(&self) -> &'static str {
        match self {
            View::Generic(_) => "generic",
            View::Terminal(_) => "terminal",
            View::Diff(_) => "diff",
            View::Search(_) => "search",
            View::Read(_) => "read",
            View::Web(_) => "web",
        }
    }

    /// The view's own title, if it has one.
    pub fn title(&self) -> Option<&str> {
        match self {
            View::Generic(v) => v.title.as_deref(),
            View::Terminal(v) => v.title.as_deref(),
            View::Diff(v) => v.title.as_deref(),
            View::Search(v) => v.title.as_deref(),
            View::Read(v) => v.title.as_deref(),
            View::Web(v) => v.title.as_deref(),
        }
    }

    /// Type a view from its JSON text. The error is the reason shown on
    /// the fallback card.
    pub fn from_json(text: &str) -> Result<View, WireError> {
        let from_text = || Tag::of(Tags::from_text(text)?).ok()?.decode(text).ok();
        if let Some(view) = from_text() {
            return Ok(view);
        }
        let tree: Value =
            serde_json::from_str(text).map_err(|e| WireError::Unreadable(e.to_string()))?;
        View::parse(&tree)
    }

    /// Type a view from its JSON tree.
    pub fn parse(v: &Value) -> Result<View, WireError> {
        let tags = match object_or_type(v) {
            Ok(Ok(tags)) => tags,
            Ok(Err(got)) => return Err(WireError::ViewNotObject(got)),
            // A tree has no duplicate keys; a reader of the tags never fails on one.
            Err(e) => return Err(WireError::Unreadable(e.to_string())),
        };
        Tag::of(tags)?.decode(v)
    }

    /// The `card` tag of a view's text, read without typing the view.
    pub fn tag_of(text: &str) -> Option<String> {
        Tags::from_text(text)?.card?.ok()
    }

    /// What a view's text is switched on (one pass over it, nothing typed):
    /// kept, it spares [`View::from_json_as`] that pass.
    pub fn kind_of(text: &str) -> Kind {
        let Some(tags) = Tags::from_text(text) else {
            return Kind::default();
        };
        let card = tags.card.clone().and_then(Result::ok);
        Kind {
            card,
            tag: Tag::of(tags).ok(),
        }
    }

    /// [`View::from_json`] of a text whose kind is known: the same view,
    /// its tags not read again.
    pub fn from_json_as(text: &str, kind: &Kind) -> Result<View, WireError> {
        if let Some(view) = kind.tag.and_then(|tag| tag.decode(text).ok()) {
            return Ok(view);
        }
        View::from_json(text)
    }
}

/// What a view is switched on: its `card` tag and the struct its text
/// decodes into, learnt once ([`View::kind_of`], or from the typed view a
/// text was written from).
#[derive(Debug, Clone, Default)]
pub struct Kind {
    card: Option<String>,
    /// `None`: not known (typing reads the tags again) or none fits.
    tag: Option<Tag>,
}

impl Kind {
    /// The `card` tag, when it is a string.
    pub fn card(&self) -> Option<&str> {
        self.card.as_deref()
    }

    /// A view's text known only by its `card` tag.
    pub fn card_only(card: Option<String>) -> Kind {
        Kind { card, tag: None }
    }

    /// The kind of the text `view` is written as.
    pub fn of_view(view: &View) -> Kind {
        let tag = match view {
            View::Generic(_) => Tag::Generic,
            View::Terminal(_) => Tag::Terminal,
            View::Diff(_) => Tag::Diff,
            View::Read(_) => Tag::Read,
            View::Search(s) => match s.body {
                SearchBody::Matches(_) => Tag::SearchMatches,
                SearchBody::Paths(_) => Tag::SearchPaths,
            },
            View::Web(w) => match w.body {
                WebBody::Search { .. } => Tag::WebSearch,
                WebBody::Fetch { .. } => Tag::WebFetch,
            },
        };
        Kind {
            card: Some(view.tag().to_string()),
            tag: Some(tag),
        }
    }
}

/// A content block: an object with a `type`; a `text` block's `text` is a
/// string (checked once the type is known, whatever the keys' order).
impl<'de> Deserialize<'de> for Block {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Block, D::Error> {
        #[derive(Deserialize)]
        struct Fields {
            #[serde(rename = "type", default, deserialize_with = "loose::string")]
            kind: Option<String>,
            #[serde(default, deserialize_with = "text_field")]
            text: Option<Result<String, JsonType>>,
        }
        fn text_field<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Result<String, JsonType>>, D::Error> {
            strict::str_or_type(d).map(Some)
        }
        let Fields { kind, text } = match object_or_type(d)? {
            Ok(fields) => fields,
            Err(got) => return Err(strict::misfit("object", got)),
        };
        match kind.as_deref() {
            Some("text") => match text {
                Some(Ok(t)) => Ok(Block::Text(t)),
                None | Some(Err(JsonType::Null)) => Err(super::de::below("text", "missing")),
                Some(Err(got)) => Err(super::de::below("text", strict::not_a_string(got))),
            },
            Some(_) => Ok(Block::Other {
                kind: kind.unwrap_or_default(),
            }),
            None => Err(de::Error::missing_field("type")),
        }
    }
}

/// A content block's schema, as its reader above takes it: an object with
/// a string `type`; a `text` block's `text` a string (any other block's
/// fields are not read: deck draws a placeholder naming its type).
impl JsonSchema for Block {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Block".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A content block. A `text` block's text is shown; a block of any other type (an image …) is drawn as a one-line placeholder naming its type. Unknown fields are ignored.",
            "type": "object",
            "properties": {
                "type": {"type": "string", "description": "`text`, or another block type."},
            },
            "required": ["type"],
            "if": {"properties": {"type": {"const": "text"}}},
            "then": {
                "properties": {"text": {"type": "string", "description": "The text."}},
                "required": ["text"],
            },
            "additionalProperties": true,
        })
    }
}

mod decode;
mod encode;
pub mod schema;
#[cfg(test)]
mod tests;
mod web;
