//! Render intents (views), typed. One enum for call and result views: the
//! union of their fields, with everything a result view may omit optional.
//!
//! Each card's struct derives `Deserialize` over the strict readers of
//! `wire/de.rs`: strict about types (a field of the wrong type is an error
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

use serde::{Deserialize, Deserializer, de};
use serde_json::Value;

use super::de::{field_error, loose, object_or_type, strict};
use super::error::{JsonType, WireError};

/// A content block. Text is shown; other block types get a placeholder naming the type.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Text(String),
    Other { kind: String },
}

/// `{path, line?}` — a location a call touches.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Location {
    #[serde(deserialize_with = "strict::req_str")]
    pub path: String,
    #[serde(default, deserialize_with = "strict::opt_u64")]
    pub line: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GenericView {
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub title: Option<String>,
    /// read | edit | delete | move | search | execute | fetch | other (kept as sent).
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub kind: Option<String>,
    /// Any JSON but `null`.
    #[serde(default)]
    pub raw_input: Option<Value>,
    #[serde(default, deserialize_with = "strict::opt_array")]
    pub content: Option<Vec<Block>>,
    #[serde(default, deserialize_with = "strict::objects_or_none")]
    pub locations: Vec<Location>,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TerminalView {
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub description: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub cwd: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub output: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_i64")]
    pub exit_code: Option<i64>,
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub signal: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    #[serde(deserialize_with = "strict::req_str")]
    pub path: String,
    /// `None`: a new file (or an overwrite without prior content): all lines added.
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub old_text: Option<String>,
    #[serde(deserialize_with = "strict::req_str")]
    pub new_text: String,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct DiffView {
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub title: Option<String>,
    #[serde(deserialize_with = "strict::objects")]
    pub diffs: Vec<FileDiff>,
    #[serde(default, deserialize_with = "strict::objects_or_none")]
    pub locations: Vec<Location>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchMatch {
    #[serde(default, deserialize_with = "strict::u64_or::<_, 0>")]
    pub line_number: u64,
    #[serde(deserialize_with = "strict::req_str")]
    pub line: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SearchFile {
    #[serde(deserialize_with = "strict::req_str")]
    pub path: String,
    #[serde(deserialize_with = "strict::objects")]
    pub matches: Vec<SearchMatch>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SearchBody {
    Matches(Vec<SearchFile>),
    Paths(Vec<String>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchView {
    pub title: Option<String>,
    pub body: SearchBody,
    pub truncated: bool,
    pub total: u64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReadLine {
    #[serde(deserialize_with = "strict::req_u64")]
    pub number: u64,
    #[serde(deserialize_with = "strict::req_str")]
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadView {
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub title: Option<String>,
    #[serde(deserialize_with = "strict::req_str")]
    pub path: String,
    #[serde(default = "first_line", deserialize_with = "strict::u64_or::<_, 1>")]
    pub offset: u64,
    #[serde(deserialize_with = "strict::objects")]
    pub lines: Vec<ReadLine>,
    #[serde(default, deserialize_with = "strict::u64_or::<_, 0>")]
    pub total_lines: u64,
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub lang: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_array")]
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
    pub count: usize,
    /// The number of the last one.
    pub last: u64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebSource {
    #[serde(deserialize_with = "strict::req_str")]
    pub url: String,
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub snippet: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_str")]
    pub published_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct WebFailure {
    #[serde(default, deserialize_with = "strict::str_or_empty")]
    pub query: String,
    #[serde(default, deserialize_with = "strict::str_or_empty")]
    pub code: String,
    #[serde(default, deserialize_with = "strict::str_or_empty")]
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum WebBody {
    Search {
        sources: Vec<WebSource>,
        answer: Option<String>,
        failures: Vec<WebFailure>,
    },
    Fetch {
        url: String,
        status_code: Option<i64>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct WebView {
    pub title: Option<String>,
    pub body: WebBody,
    pub truncated: bool,
}

/// A typed view, switched on its `card` tag.
#[derive(Debug, Clone, PartialEq)]
pub enum View {
    Generic(GenericView),
    Terminal(TerminalView),
    Diff(DiffView),
    Search(SearchView),
    Read(ReadView),
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
}

/// The keys a view is switched on.
#[derive(Deserialize)]
struct Tags {
    /// The tag, or the type of what came instead.
    #[serde(default, deserialize_with = "card_tag")]
    card: Option<Result<String, JsonType>>,
    #[serde(default, deserialize_with = "loose::string")]
    shape: Option<String>,
    #[serde(default, deserialize_with = "loose::string")]
    kind: Option<String>,
}

fn card_tag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Result<String, JsonType>>, D::Error> {
    strict::str_or_type(d).map(Some)
}

impl Tags {
    /// The tags of an object's text (`None`: not an object, not JSON, or a
    /// tag key twice).
    fn from_text(text: &str) -> Option<Tags> {
        let mut de = serde_json::Deserializer::from_str(text);
        let tags = object_or_type(&mut de).ok()?.ok()?;
        de.end().ok()?;
        Some(tags)
    }
}

/// Which struct a view decodes into.
#[derive(Debug, Clone, Copy)]
enum Tag {
    Generic,
    Terminal,
    Diff,
    Read,
    SearchMatches,
    SearchPaths,
    WebSearch,
    WebFetch,
}

impl Tag {
    fn of(tags: Tags) -> Result<Tag, WireError> {
        let card = match tags.card {
            None => return Err(WireError::NoCard),
            Some(Err(got)) => return Err(WireError::CardNotString(got)),
            Some(Ok(card)) => card,
        };
        Ok(match card.as_str() {
            "generic" => Tag::Generic,
            "terminal" => Tag::Terminal,
            "diff" => Tag::Diff,
            "read" => Tag::Read,
            "search" => match tags.shape.as_deref() {
                Some("matches") => Tag::SearchMatches,
                Some("paths") => Tag::SearchPaths,
                Some(other) => return Err(WireError::UnknownSearchShape(other.into())),
                None => return Err(WireError::NoSearchShape),
            },
            "web" => match tags.kind.as_deref() {
                Some("search") => Tag::WebSearch,
                Some("fetch") => Tag::WebFetch,
                Some(other) => return Err(WireError::UnknownWebKind(other.into())),
                None => return Err(WireError::NoWebKind),
            },
            _ => return Err(WireError::UnknownCard(card)),
        })
    }

    /// The view of this tag, decoded from `source`.
    fn decode<S: Source>(self, source: S) -> Result<View, S::Error> {
        Ok(match self {
            Tag::Generic => View::Generic(source.typed()?),
            Tag::Terminal => View::Terminal(source.typed()?),
            Tag::Diff => View::Diff(source.typed()?),
            Tag::Read => View::Read(source.typed()?),
            Tag::SearchMatches => {
                let s: SearchMatches = source.typed()?;
                View::Search(SearchView {
                    title: s.title,
                    body: SearchBody::Matches(s.files),
                    truncated: s.truncated,
                    total: s.total,
                })
            }
            Tag::SearchPaths => {
                let s: SearchPaths = source.typed()?;
                View::Search(SearchView {
                    title: s.title,
                    body: SearchBody::Paths(s.paths),
                    truncated: s.truncated,
                    total: s.total,
                })
            }
            Tag::WebSearch => {
                let w: WebSearch = source.typed()?;
                View::Web(WebView {
                    title: w.title,
                    body: WebBody::Search {
                        sources: w.sources,
                        answer: w.answer,
                        failures: w.failures,
                    },
                    truncated: w.truncated,
                })
            }
            Tag::WebFetch => {
                let w: WebFetch = source.typed()?;
                View::Web(WebView {
                    title: w.title,
                    body: WebBody::Fetch {
                        url: w.url,
                        status_code: w.status_code,
                    },
                    truncated: w.truncated,
                })
            }
        })
    }
}

/// Where a view's struct is decoded from: its text (fast, the error
/// unsaid) or its tree (the error with the field's path).
trait Source {
    type Error;
    fn typed<T: de::DeserializeOwned>(&self) -> Result<T, Self::Error>;
}

impl Source for &str {
    type Error = serde_json::Error;
    fn typed<T: de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self)
    }
}

impl Source for &Value {
    type Error = WireError;
    fn typed<T: de::DeserializeOwned>(&self) -> Result<T, WireError> {
        serde_path_to_error::deserialize(*self)
            .map_err(|e| field_error(e.path(), &e.inner().to_string()))
    }
}

/// `search` with `shape: "matches"`.
#[derive(Deserialize)]
struct SearchMatches {
    #[serde(default, deserialize_with = "strict::opt_str")]
    title: Option<String>,
    #[serde(deserialize_with = "strict::objects")]
    files: Vec<SearchFile>,
    #[serde(default, deserialize_with = "strict::bool_or_false")]
    truncated: bool,
    #[serde(default, deserialize_with = "strict::u64_or::<_, 0>")]
    total: u64,
}

/// `search` with `shape: "paths"`.
#[derive(Deserialize)]
struct SearchPaths {
    #[serde(default, deserialize_with = "strict::opt_str")]
    title: Option<String>,
    #[serde(deserialize_with = "strict::strings")]
    paths: Vec<String>,
    #[serde(default, deserialize_with = "strict::bool_or_false")]
    truncated: bool,
    #[serde(default, deserialize_with = "strict::u64_or::<_, 0>")]
    total: u64,
}

/// `web` with `kind: "search"`.
#[derive(Deserialize)]
struct WebSearch {
    #[serde(default, deserialize_with = "strict::opt_str")]
    title: Option<String>,
    #[serde(default, deserialize_with = "strict::objects_or_none")]
    sources: Vec<WebSource>,
    #[serde(default, deserialize_with = "strict::opt_str")]
    answer: Option<String>,
    #[serde(default, deserialize_with = "strict::objects_or_none")]
    failures: Vec<WebFailure>,
    #[serde(default, deserialize_with = "strict::bool_or_false")]
    truncated: bool,
}

/// `web` with `kind: "fetch"`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WebFetch {
    #[serde(default, deserialize_with = "strict::opt_str")]
    title: Option<String>,
    #[serde(deserialize_with = "strict::req_str")]
    url: String,
    #[serde(default, deserialize_with = "strict::opt_i64")]
    status_code: Option<i64>,
    #[serde(default, deserialize_with = "strict::bool_or_false")]
    truncated: bool,
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

#[cfg(test)]
mod tests;
