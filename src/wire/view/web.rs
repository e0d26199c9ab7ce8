//! The web card's view (`card: "web"`): a search's pages, answer and
//! failed queries, or a page fetched.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::wire::de::strict;

/// A page a web search found.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct WebSource {
    /// The page's URL (drawn as a link).
    #[serde(deserialize_with = "strict::req_str")]
    pub url: String,
    /// The page's title (absent: the URL stands in for it).
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// A piece of the page.
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub snippet: Option<String>,
    /// When the page was published, as the search engine said it.
    #[serde(
        default,
        deserialize_with = "strict::opt_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub published_at: Option<String>,
}

/// A query of a web search that failed.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
#[non_exhaustive]
pub struct WebFailure {
    /// The query.
    #[serde(default, deserialize_with = "strict::str_or_empty")]
    #[schemars(with = "Option<String>")]
    pub query: String,
    /// The error's code.
    #[serde(default, deserialize_with = "strict::str_or_empty")]
    #[schemars(with = "Option<String>")]
    pub code: String,
    /// The error's message.
    #[serde(default, deserialize_with = "strict::str_or_empty")]
    #[schemars(with = "Option<String>")]
    pub message: String,
}

/// What a web view shows, by its `kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum WebBody {
    /// `search`: the pages a web search found.
    Search {
        /// The pages found.
        sources: Vec<WebSource>,
        /// The search engine's answer (markdown).
        answer: Option<String>,
        /// The queries that failed.
        failures: Vec<WebFailure>,
    },
    /// `fetch`: a page fetched.
    Fetch {
        /// The page's URL.
        url: String,
        /// The HTTP status.
        status_code: Option<i64>,
    },
}

/// `card: "web"`: a web search or a page fetched.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct WebView {
    /// The card's title.
    pub title: Option<String>,
    /// What it shows.
    pub body: WebBody,
    /// The sources were capped, or the page's text was cut.
    pub truncated: bool,
}
