//! How a typed view is written: the `card` tag first, then the card's
//! fields, what is absent left out — the form [`View::from_json`] reads
//! back into an equal view (`tests.rs` checks it on every fixture's view).
//! A search view writes its `shape` and a web view its `kind` (the tags
//! decoding switches on) before its fields. The plain structs derive
//! `Serialize` in `view.rs`; [`View`] derives it tagged by `card`.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::*;

/// `skip_serializing_if` for a count whose absence reads as 0.
pub(super) fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Serialize for Block {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        match self {
            Block::Text(text) => {
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", text)?;
            }
            Block::Other { kind } => map.serialize_entry("type", kind)?,
        }
        map.end()
    }
}

/// A search view as written: its shape, then its fields.
#[derive(Serialize)]
struct SearchOut<'a> {
    shape: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    files: Option<&'a [SearchFile]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<&'a [String]>,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
    #[serde(skip_serializing_if = "is_zero")]
    total: u64,
}

impl Serialize for SearchView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (shape, files, paths) = match &self.body {
            SearchBody::Matches(files) => ("matches", Some(&files[..]), None),
            SearchBody::Paths(paths) => ("paths", None, Some(&paths[..])),
        };
        SearchOut {
            shape,
            title: &self.title,
            files,
            paths,
            truncated: self.truncated,
            total: self.total,
        }
        .serialize(s)
    }
}

/// A web view as written: its kind, then its fields.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WebOut<'a> {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sources: Option<&'a [WebSource]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failures: Option<&'a [WebFailure]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status_code: Option<i64>,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
}

impl Serialize for WebView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = WebOut {
            kind: "search",
            title: &self.title,
            sources: None,
            answer: None,
            failures: None,
            url: None,
            status_code: None,
            truncated: self.truncated,
        };
        match &self.body {
            WebBody::Search {
                sources,
                answer,
                failures,
            } => {
                out.sources = (!sources.is_empty()).then_some(&sources[..]);
                out.answer = answer.as_deref();
                out.failures = (!failures.is_empty()).then_some(&failures[..]);
            }
            WebBody::Fetch { url, status_code } => {
                out.kind = "fetch";
                out.url = Some(url);
                out.status_code = *status_code;
            }
        }
        out.serialize(s)
    }
}

impl View {
    /// The view as JSON text (what a card keeps and [`View::from_json`]
    /// reads back).
    pub fn to_json(&self) -> String {
        // Strings, numbers and trees of them: writing cannot fail.
        serde_json::to_string(self).unwrap_or_else(|_| "null".into())
    }

    /// Bytes of [`View::to_json`]'s text, counted as it is written (none
    /// kept).
    pub fn json_len(&self) -> usize {
        struct Count(usize);
        impl std::io::Write for Count {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0 += b.len();
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut n = Count(0);
        let _ = serde_json::to_writer(&mut n, self);
        n.0
    }

    /// The view as a JSON tree (as [`View::to_json`] writes it).
    pub fn to_tree(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

// Constructors: the structs are `#[non_exhaustive]` (fields may be added
// as the protocol grows), so code outside deck builds them here.

impl Block {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Block {
        Block::Text(text.into())
    }
}

impl Location {
    /// A location in `path`, at `line` when known.
    pub fn new(path: impl Into<String>, line: Option<u64>) -> Location {
        Location {
            path: path.into(),
            line,
        }
    }
}

impl FileDiff {
    /// A change of `path` from `old_text` (`None`: a new file) to `new_text`,
    /// at no known line.
    pub fn new(
        path: impl Into<String>,
        old_text: Option<String>,
        new_text: impl Into<String>,
    ) -> FileDiff {
        FileDiff {
            path: path.into(),
            old_text,
            new_text: new_text.into(),
            start_line: None,
            new_start_line: None,
            before: None,
        }
    }

    /// The change with both texts starting at `line` of the file.
    pub fn at(mut self, line: u64) -> FileDiff {
        self.start_line = Some(line);
        self
    }

    /// A file written whole whose log does not say whether it existed
    /// (`before: "unknown"`): not claimed to be new.
    pub fn existed_unknown(mut self) -> FileDiff {
        self.before = Some("unknown".into());
        self
    }

    /// A file written whole over one that existed, what it held not in the
    /// log (`before: "overwritten"`).
    pub fn overwritten(mut self) -> FileDiff {
        self.before = Some("overwritten".into());
        self
    }
}

impl ReadLine {
    /// Line `number` of a file.
    pub fn new(number: u64, text: impl Into<String>) -> ReadLine {
        ReadLine {
            number,
            text: text.into(),
        }
    }
}

impl ReadView {
    /// Lines of `path` from line `offset`, nothing else known.
    pub fn new(path: impl Into<String>, offset: u64, lines: Vec<ReadLine>) -> ReadView {
        ReadView {
            title: None,
            path: path.into(),
            offset,
            lines,
            total_lines: 0,
            lang: None,
            content: None,
            more: None,
        }
    }
}

impl SearchMatch {
    /// A matching `line`, line `line_number` of its file (0: unknown).
    pub fn new(line_number: u64, line: impl Into<String>) -> SearchMatch {
        SearchMatch {
            line_number,
            line: line.into(),
        }
    }
}

impl SearchFile {
    /// A file and its matching lines.
    pub fn new(path: impl Into<String>, matches: Vec<SearchMatch>) -> SearchFile {
        SearchFile {
            path: path.into(),
            matches,
        }
    }
}

impl SearchView {
    /// What a search found, not capped, its total not said (as a view
    /// without `total` reads).
    pub fn new(title: Option<String>, body: SearchBody) -> SearchView {
        SearchView {
            title,
            body,
            truncated: false,
            total: 0,
        }
    }
}

impl WebSource {
    /// A page found at `url`, nothing else known.
    pub fn new(url: impl Into<String>) -> WebSource {
        WebSource {
            url: url.into(),
            title: None,
            snippet: None,
            published_at: None,
        }
    }
}

impl WebView {
    /// A web view of `body`, not cut.
    pub fn new(title: Option<String>, body: WebBody) -> WebView {
        WebView {
            title,
            body,
            truncated: false,
        }
    }
}

impl GenericView {
    /// A generic card titled `title`, of `kind` (`read`, `execute`, `other` …).
    pub fn new(title: impl Into<String>, kind: &str) -> GenericView {
        GenericView {
            title: Some(title.into()),
            kind: Some(kind.into()),
            ..GenericView::default()
        }
    }

    /// The card showing `text` (markdown) as its content.
    pub fn with_text(mut self, text: impl Into<String>) -> GenericView {
        self.content = Some(vec![Block::text(text)]);
        self
    }
}

macro_rules! into_view {
    ($($ty:ident => $variant:ident,)*) => {$(
        impl From<$ty> for View {
            fn from(v: $ty) -> View {
                View::$variant(v)
            }
        }
    )*};
}

into_view! {
    GenericView => Generic,
    TerminalView => Terminal,
    DiffView => Diff,
    SearchView => Search,
    ReadView => Read,
    WebView => Web,
}
