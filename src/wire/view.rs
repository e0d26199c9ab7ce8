//! Render intents (views), typed. One enum for call and result views: the
//! union of their fields, with everything a result view may omit optional.
//!
//! [`View::parse`] is strict about types (a field of the wrong type is an
//! error naming the field, so the card falls back with that reason) and
//! lenient about extra fields (ignored). It never panics.

use serde_json::{Map, Value};

/// A content block. Text is shown; other block types get a placeholder naming the type.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Text(String),
    Other { kind: String },
}

/// `{path, line?}` — a location a call touches.
#[derive(Debug, Clone, PartialEq)]
pub struct Location {
    pub path: String,
    pub line: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct GenericView {
    pub title: Option<String>,
    /// read | edit | delete | move | search | execute | fetch | other (kept as sent).
    pub kind: Option<String>,
    pub raw_input: Option<Value>,
    pub content: Option<Vec<Block>>,
    pub locations: Vec<Location>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct TerminalView {
    pub title: Option<String>,
    pub description: Option<String>,
    pub cwd: Option<String>,
    pub output: Option<String>,
    pub exit_code: Option<i64>,
    pub signal: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileDiff {
    pub path: String,
    /// `None`: a new file (or an overwrite without prior content): all lines added.
    pub old_text: Option<String>,
    pub new_text: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiffView {
    pub title: Option<String>,
    pub diffs: Vec<FileDiff>,
    pub locations: Vec<Location>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchMatch {
    pub line_number: u64,
    pub line: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchFile {
    pub path: String,
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

#[derive(Debug, Clone, PartialEq)]
pub struct ReadLine {
    pub number: u64,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReadView {
    pub title: Option<String>,
    pub path: String,
    pub offset: u64,
    pub lines: Vec<ReadLine>,
    pub total_lines: u64,
    pub lang: Option<String>,
    pub content: Option<Vec<Block>>,
    /// Lines after `lines` that were counted but not read (a view typed
    /// only as far as a screen needs: [`super::read_prefix`]); `None` when
    /// `lines` holds them all.
    pub more: Option<MoreLines>,
}

/// Lines of a read view counted but not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoreLines {
    pub count: usize,
    /// The number of the last one.
    pub last: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WebSource {
    pub url: String,
    pub title: Option<String>,
    pub snippet: Option<String>,
    pub published_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WebFailure {
    pub query: String,
    pub code: String,
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

    /// Type a raw view. The error is the reason shown on the fallback card.
    pub fn parse(v: &Value) -> Result<View, String> {
        let o = v
            .as_object()
            .ok_or_else(|| format!("view is {}, not an object", type_name(v)))?;
        let f = Fields(o);
        let card = match o.get("card") {
            Some(Value::String(s)) => s.as_str(),
            Some(other) => return Err(format!("card: expected string, got {}", type_name(other))),
            None => return Err("view has no \"card\" tag".into()),
        };
        let title = f.opt_str("title")?;
        Ok(match card {
            "generic" => View::Generic(GenericView {
                title,
                kind: f.opt_str("kind")?,
                raw_input: o.get("rawInput").filter(|v| !v.is_null()).cloned(),
                content: f.opt_blocks("content")?,
                locations: f.locations()?,
            }),
            "terminal" => View::Terminal(TerminalView {
                title,
                description: f.opt_str("description")?,
                cwd: f.opt_str("cwd")?,
                output: f.opt_str("output")?,
                exit_code: f.opt_i64("exitCode")?,
                signal: f.opt_str("signal")?,
            }),
            "diff" => View::Diff(DiffView {
                title,
                diffs: f
                    .req_array("diffs")?
                    .iter()
                    .enumerate()
                    .map(|(i, d)| file_diff(d).map_err(|e| item("diffs", i, e)))
                    .collect::<Result<_, _>>()?,
                locations: f.locations()?,
            }),
            "search" => {
                let body = match o.get("shape").and_then(Value::as_str) {
                    Some("matches") => SearchBody::Matches(
                        f.req_array("files")?
                            .iter()
                            .enumerate()
                            .map(|(i, x)| search_file(x).map_err(|e| item("files", i, e)))
                            .collect::<Result<_, _>>()?,
                    ),
                    Some("paths") => SearchBody::Paths(
                        f.req_array("paths")?
                            .iter()
                            .enumerate()
                            .map(|(i, p)| {
                                p.as_str().map(str::to_string).ok_or_else(|| {
                                    format!("paths[{i}]: expected string, got {}", type_name(p))
                                })
                            })
                            .collect::<Result<_, _>>()?,
                    ),
                    Some(other) => return Err(format!("unknown search shape {other:?}")),
                    None => return Err("search view without a string \"shape\"".into()),
                };
                View::Search(SearchView {
                    title,
                    body,
                    truncated: f.opt_bool("truncated")?.unwrap_or(false),
                    total: f.opt_u64("total")?.unwrap_or(0),
                })
            }
            "read" => View::Read(ReadView {
                title,
                path: f.req_str("path")?,
                offset: f.opt_u64("offset")?.unwrap_or(1),
                lines: f
                    .req_array("lines")?
                    .iter()
                    .enumerate()
                    .map(|(i, l)| read_line(l).map_err(|e| item("lines", i, e)))
                    .collect::<Result<_, _>>()?,
                total_lines: f.opt_u64("totalLines")?.unwrap_or(0),
                lang: f.opt_str("lang")?,
                content: f.opt_blocks("content")?,
                more: None,
            }),
            "web" => {
                let body = match o.get("kind").and_then(Value::as_str) {
                    Some("search") => WebBody::Search {
                        sources: f
                            .opt_array("sources")?
                            .unwrap_or(&[])
                            .iter()
                            .enumerate()
                            .map(|(i, s)| web_source(s).map_err(|e| item("sources", i, e)))
                            .collect::<Result<_, _>>()?,
                        answer: f.opt_str("answer")?,
                        failures: f
                            .opt_array("failures")?
                            .unwrap_or(&[])
                            .iter()
                            .enumerate()
                            .map(|(i, s)| web_failure(s).map_err(|e| item("failures", i, e)))
                            .collect::<Result<_, _>>()?,
                    },
                    Some("fetch") => WebBody::Fetch {
                        url: f.req_str("url")?,
                        status_code: f.opt_i64("statusCode")?,
                    },
                    Some(other) => return Err(format!("unknown web kind {other:?}")),
                    None => return Err("web view without a string \"kind\"".into()),
                };
                View::Web(WebView {
                    title,
                    body,
                    truncated: f.opt_bool("truncated")?.unwrap_or(false),
                })
            }
            other => return Err(format!("unknown card {other:?}")),
        })
    }
}

/// A JSON type name for error messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    fn get(&self, k: &str) -> Option<&'a Value> {
        self.0.get(k).filter(|v| !v.is_null())
    }
    fn wrong(k: &str, want: &str, v: &Value) -> String {
        format!("{k}: expected {want}, got {}", type_name(v))
    }
    fn opt_str(&self, k: &str) -> Result<Option<String>, String> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(Self::wrong(k, "string", v)),
        }
    }
    fn req_str(&self, k: &str) -> Result<String, String> {
        self.opt_str(k)?.ok_or_else(|| format!("{k}: missing"))
    }
    fn opt_i64(&self, k: &str) -> Result<Option<i64>, String> {
        match self.get(k) {
            None => Ok(None),
            Some(v) => v
                .as_i64()
                .map(Some)
                .ok_or_else(|| Self::wrong(k, "integer", v)),
        }
    }
    fn opt_u64(&self, k: &str) -> Result<Option<u64>, String> {
        match self.get(k) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| Self::wrong(k, "non-negative integer", v)),
        }
    }
    fn opt_bool(&self, k: &str) -> Result<Option<bool>, String> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(Self::wrong(k, "boolean", v)),
        }
    }
    fn opt_array(&self, k: &str) -> Result<Option<&'a [Value]>, String> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a.as_slice())),
            Some(v) => Err(Self::wrong(k, "array", v)),
        }
    }
    fn req_array(&self, k: &str) -> Result<&'a [Value], String> {
        self.opt_array(k)?.ok_or_else(|| format!("{k}: missing"))
    }
    fn opt_blocks(&self, k: &str) -> Result<Option<Vec<Block>>, String> {
        match self.opt_array(k)? {
            None => Ok(None),
            Some(a) => a
                .iter()
                .enumerate()
                .map(|(i, b)| block(b).map_err(|e| item(k, i, e)))
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
        }
    }
    fn locations(&self) -> Result<Vec<Location>, String> {
        self.opt_array("locations")?
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let o = l.as_object().ok_or_else(|| {
                    format!("locations[{i}]: expected object, got {}", type_name(l))
                })?;
                let f = Fields(o);
                Ok(Location {
                    path: f.req_str("path").map_err(|e| item("locations", i, e))?,
                    line: f.opt_u64("line").map_err(|e| item("locations", i, e))?,
                })
            })
            .collect()
    }
}

/// An error inside the `i`th item of array `k`: `k[i].field: …`, or
/// `k[i]: …` when the item itself is wrong.
fn item(k: &str, i: usize, e: String) -> String {
    match e.strip_prefix(':') {
        Some(rest) => format!("{k}[{i}]:{rest}"),
        None => format!("{k}[{i}].{e}"),
    }
}

fn obj(v: &Value) -> Result<Fields<'_>, String> {
    v.as_object()
        .map(Fields)
        .ok_or_else(|| format!(": expected object, got {}", type_name(v)))
}

/// Parse one content block.
pub fn block(v: &Value) -> Result<Block, String> {
    let f = obj(v)?;
    match f.0.get("type").and_then(Value::as_str) {
        Some("text") => Ok(Block::Text(f.req_str("text")?)),
        Some(other) => Ok(Block::Other {
            kind: other.to_string(),
        }),
        None => Err("type: missing".into()),
    }
}

fn file_diff(v: &Value) -> Result<FileDiff, String> {
    let f = obj(v)?;
    Ok(FileDiff {
        path: f.req_str("path")?,
        old_text: f.opt_str("oldText")?,
        new_text: f.req_str("newText")?,
    })
}

fn search_file(v: &Value) -> Result<SearchFile, String> {
    let f = obj(v)?;
    let matches = f
        .req_array("matches")?
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let g = obj(m).map_err(|e| item("matches", i, e))?;
            Ok(SearchMatch {
                line_number: g
                    .opt_u64("lineNumber")
                    .map_err(|e| item("matches", i, e))?
                    .unwrap_or(0),
                line: g.req_str("line").map_err(|e| item("matches", i, e))?,
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(SearchFile {
        path: f.req_str("path")?,
        matches,
    })
}

fn read_line(v: &Value) -> Result<ReadLine, String> {
    let f = obj(v)?;
    Ok(ReadLine {
        number: f.opt_u64("number")?.ok_or("number: missing")?,
        text: f.req_str("text")?,
    })
}

fn web_source(v: &Value) -> Result<WebSource, String> {
    let f = obj(v)?;
    Ok(WebSource {
        url: f.req_str("url")?,
        title: f.opt_str("title")?,
        snippet: f.opt_str("snippet")?,
        published_at: f.opt_str("publishedAt")?,
    })
}

fn web_failure(v: &Value) -> Result<WebFailure, String> {
    let f = obj(v)?;
    Ok(WebFailure {
        query: f.opt_str("query")?.unwrap_or_default(),
        code: f.opt_str("code")?.unwrap_or_default(),
        message: f.opt_str("message")?.unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_every_tag() {
        let cases = [
            json!({"card":"generic","title":"t","kind":"read","locations":[{"path":"a","line":1}]}),
            json!({"card":"terminal","title":"ls","output":"x","exitCode":0}),
            json!({"card":"diff","title":"Edit","diffs":[{"path":"a","oldText":null,"newText":"x"}]}),
            json!({"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}),
            json!({"card":"search","shape":"paths","paths":["a"],"truncated":true,"total":9}),
            json!({"card":"read","path":"a","offset":1,"lines":[{"number":1,"text":"x"}],"totalLines":1,"lang":"py"}),
            json!({"card":"web","kind":"search","sources":[{"url":"u"}],"truncated":false}),
            json!({"card":"web","kind":"fetch","url":"u","statusCode":200,"truncated":false}),
        ];
        for c in cases {
            let v = View::parse(&c).unwrap_or_else(|e| panic!("{c}: {e}"));
            assert_eq!(v.tag(), c["card"].as_str().unwrap());
        }
    }

    #[test]
    fn wrong_shapes_name_the_field() {
        let err = |v: Value| View::parse(&v).unwrap_err();
        assert_eq!(err(json!({"card":"nope"})), "unknown card \"nope\"");
        assert_eq!(
            err(json!({"card":"terminal","exitCode":"3"})),
            "exitCode: expected integer, got string"
        );
        assert_eq!(
            err(json!({"card":"diff","diffs":[{"path":1}]})),
            "diffs[0].path: expected string, got number"
        );
        assert_eq!(
            err(json!({"card":"search","shape":"tree"})),
            "unknown search shape \"tree\""
        );
        assert_eq!(
            err(json!({"card":"web","kind":"video"})),
            "unknown web kind \"video\""
        );
        assert!(
            err(json!({"card":"read","path":"a","lines":[{"number":"1","text":""}]}))
                .starts_with("lines[0].number")
        );
        assert!(err(json!(["card"])).contains("not an object"));
        assert!(err(json!({"title":"x"})).contains("card"));
    }

    #[test]
    fn other_blocks_are_kept_as_placeholders() {
        let v = View::parse(&json!({"card":"generic","content":[{"type":"image","data":"…"}]}))
            .unwrap();
        let View::Generic(g) = v else { panic!() };
        assert_eq!(
            g.content.unwrap()[0],
            Block::Other {
                kind: "image".into()
            }
        );
    }
}
