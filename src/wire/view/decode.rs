//! How a view is switched on its tags and decoded: [`Tags`] (`card`, and a
//! search view's `shape` or a web view's `kind`) read first, then the
//! [`Tag`]'s struct from the view's text or, when that does not fit, from
//! its tree (where the error names the field).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, de};
use serde_json::Value;

use super::*;
use crate::wire::de::{field_error, loose, strict};
use crate::wire::error::{JsonType, WireError};

/// The keys a view is switched on.
#[derive(Deserialize)]
pub(super) struct Tags {
    /// The tag, or the type of what came instead.
    #[serde(default, deserialize_with = "card_tag")]
    pub(super) card: Option<Result<String, JsonType>>,
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
    pub(super) fn from_text(text: &str) -> Option<Tags> {
        let mut de = serde_json::Deserializer::from_str(text);
        let tags = object_or_type(&mut de).ok()?.ok()?;
        de.end().ok()?;
        Some(tags)
    }
}

/// Which struct a view decodes into.
#[derive(Debug, Clone, Copy)]
pub(super) enum Tag {
    Generic,
    Terminal,
    Diff,
    Read,
    SearchMatches,
    SearchPaths,
    WebSearch,
    WebFetch,
}

/// A search view's `shape`s, each with its struct.
pub(super) const SEARCH_SHAPES: &[(&str, Tag)] =
    &[("matches", Tag::SearchMatches), ("paths", Tag::SearchPaths)];

/// A web view's `kind`s, each with its struct.
pub(super) const WEB_KINDS: &[(&str, Tag)] =
    &[("search", Tag::WebSearch), ("fetch", Tag::WebFetch)];

fn pick(table: &[(&str, Tag)], value: &str) -> Option<Tag> {
    table.iter().find(|(v, _)| *v == value).map(|&(_, tag)| tag)
}

impl Tag {
    pub(super) fn of(tags: Tags) -> Result<Tag, WireError> {
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
                Some(shape) => pick(SEARCH_SHAPES, shape)
                    .ok_or_else(|| WireError::UnknownSearchShape(shape.into()))?,
                None => return Err(WireError::NoSearchShape),
            },
            "web" => match tags.kind.as_deref() {
                Some(kind) => {
                    pick(WEB_KINDS, kind).ok_or_else(|| WireError::UnknownWebKind(kind.into()))?
                }
                None => return Err(WireError::NoWebKind),
            },
            _ => return Err(WireError::UnknownCard(card)),
        })
    }

    /// The schema of this tag's struct (a `$ref` into `generator`'s
    /// definitions): the struct [`Tag::decode`] reads, so they cannot differ.
    pub(super) fn schema(self, generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        match self {
            Tag::Generic => generator.subschema_for::<GenericView>(),
            Tag::Terminal => generator.subschema_for::<TerminalView>(),
            Tag::Diff => generator.subschema_for::<DiffView>(),
            Tag::Read => generator.subschema_for::<ReadView>(),
            Tag::SearchMatches => generator.subschema_for::<SearchMatches>(),
            Tag::SearchPaths => generator.subschema_for::<SearchPaths>(),
            Tag::WebSearch => generator.subschema_for::<WebSearch>(),
            Tag::WebFetch => generator.subschema_for::<WebFetch>(),
        }
    }

    /// The view of this tag, decoded from `source`.
    pub(super) fn decode<S: Source>(self, source: S) -> Result<View, S::Error> {
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
pub(super) trait Source {
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

/// `search` with `shape: "matches"` (a grep): files and their matching lines.
#[derive(Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
pub(super) struct SearchMatches {
    /// The card's title.
    #[serde(default, deserialize_with = "strict::opt_str")]
    title: Option<String>,
    /// The files that match.
    #[serde(deserialize_with = "strict::objects")]
    files: Vec<SearchFile>,
    /// The matches were capped (`total` says how many there were).
    #[serde(default, deserialize_with = "strict::bool_or_false")]
    #[schemars(with = "Option<bool>")]
    truncated: bool,
    /// The matches before capping.
    #[serde(default, deserialize_with = "strict::u64_or::<_, 0>")]
    #[schemars(with = "Option<u64>")]
    total: u64,
}

/// `search` with `shape: "paths"` (a glob): the paths found.
#[derive(Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
pub(super) struct SearchPaths {
    /// The card's title.
    #[serde(default, deserialize_with = "strict::opt_str")]
    title: Option<String>,
    /// The paths found.
    #[serde(deserialize_with = "strict::strings")]
    paths: Vec<String>,
    /// The paths were capped (`total` says how many there were).
    #[serde(default, deserialize_with = "strict::bool_or_false")]
    #[schemars(with = "Option<bool>")]
    truncated: bool,
    /// The paths before capping.
    #[serde(default, deserialize_with = "strict::u64_or::<_, 0>")]
    #[schemars(with = "Option<u64>")]
    total: u64,
}

/// `web` with `kind: "search"`: the pages a web search found.
#[derive(Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
pub(super) struct WebSearch {
    /// The card's title.
    #[serde(default, deserialize_with = "strict::opt_str")]
    title: Option<String>,
    /// The pages found.
    #[serde(default, deserialize_with = "strict::objects_or_none")]
    #[schemars(with = "Option<Vec<WebSource>>")]
    sources: Vec<WebSource>,
    /// The search engine's answer (markdown).
    #[serde(default, deserialize_with = "strict::opt_str")]
    answer: Option<String>,
    /// The queries that failed.
    #[serde(default, deserialize_with = "strict::objects_or_none")]
    #[schemars(with = "Option<Vec<WebFailure>>")]
    failures: Vec<WebFailure>,
    /// The sources were capped.
    #[serde(default, deserialize_with = "strict::bool_or_false")]
    #[schemars(with = "Option<bool>")]
    truncated: bool,
}

/// `web` with `kind: "fetch"`: a page fetched.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("additionalProperties" = true))]
pub(super) struct WebFetch {
    /// The card's title.
    #[serde(default, deserialize_with = "strict::opt_str")]
    title: Option<String>,
    /// The page's URL (drawn as a link).
    #[serde(deserialize_with = "strict::req_str")]
    url: String,
    /// The HTTP status.
    #[serde(default, deserialize_with = "strict::opt_i64")]
    status_code: Option<i64>,
    /// The page's text was cut.
    #[serde(default, deserialize_with = "strict::bool_or_false")]
    #[schemars(with = "Option<bool>")]
    truncated: bool,
}
