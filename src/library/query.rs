//! Searching the library: a query of words, `"phrases"` and filters —
//! `agent:codex`, `tool:bash`, `kind:diff`, `path:src/lib.rs`,
//! `error:true`, `after:2026-11-01`, `before:2026-12-01`, and tantivy's own
//! `AND`/`OR`/`-word` — over every entry's text; each hit names its
//! session, the entry it is in (the item the viewer opens at), and a
//! snippet with the matched words marked. Words all have to match (AND);
//! a query that does not parse is read leniently, never refused.

use std::ops::{Bound, Range};

use tantivy::collector::TopDocs;
use tantivy::query::{AllQuery, BooleanQuery, Occur, Query, QueryParser, RangeQuery};
use tantivy::schema::Value;
use tantivy::snippet::SnippetGenerator;
use tantivy::{TantivyDocument, Term};

use super::index::{Library, LibraryError};
use super::read::SessionRow;

/// One entry found.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The session it is in (its row: agent, id, path, title …).
    pub row: SessionRow,
    /// Its index among the session's entries.
    pub item: u64,
    /// The tool call, for a card.
    pub call: Option<String>,
    pub tool: Option<String>,
    /// `prompt`, `answer`, `note`, `error` (a turn's) or the card's tag.
    pub kind: String,
    /// What the match is in: `prompt`, `answer`, `thinking`, `tool input`,
    /// `tool output`, `error`, `note`.
    pub part: String,
    /// A piece of the entry's text around the best match, on one line,
    /// and the byte ranges of the matched words in it.
    pub snippet: String,
    pub marks: Vec<Range<usize>>,
    /// Epoch ms.
    pub time: Option<i64>,
}

/// A query taken apart: the text for tantivy's parser, the time bounds,
/// and what the viewer searches for once the session is open.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    pub text: String,
    pub after: Option<i64>,
    pub before: Option<i64>,
    /// The first phrase, else the first plain word.
    pub needle: Option<String>,
}

/// Split `q` into its parts.
pub fn parse(q: &str) -> Parsed {
    let mut out = Parsed::default();
    let mut kept = Vec::new();
    let mut phrase = None;
    let mut word = None;
    for tok in tokens(q) {
        let day = super::filter::parse_day;
        if let Some(d) = tok.strip_prefix("after:").and_then(day) {
            out.after = Some(d);
            continue;
        }
        if let Some(d) = tok.strip_prefix("before:").and_then(day) {
            out.before = Some(d);
            continue;
        }
        if phrase.is_none() && tok.len() > 2 && tok.starts_with('"') && tok.ends_with('"') {
            phrase = Some(tok[1..tok.len() - 1].to_string());
        } else if word.is_none()
            && !tok.contains(':')
            && !tok.starts_with('-')
            && !matches!(tok.as_str(), "AND" | "OR" | "NOT")
        {
            word = Some(tok.trim_matches(|c: char| !c.is_alphanumeric()).to_string())
                .filter(|w| !w.is_empty());
        }
        kept.push(tok);
    }
    out.text = kept.join(" ");
    out.needle = phrase.or(word);
    out
}

/// Whitespace-separated tokens, a quoted phrase (with its filter prefix,
/// `path:"a b"`) kept whole.
fn tokens(q: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in q.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// What a search found: its best hits, and how many there are in all.
#[derive(Debug, Clone, Default)]
pub struct Hits {
    /// Best first, at most the limit asked for.
    pub hits: Vec<Hit>,
    /// How many entries match, when known (not when the hits were filtered
    /// by their sessions' cwd or date after the search).
    pub total: Option<usize>,
    /// More match than were given (the limit cut them).
    pub more: bool,
}

impl Library {
    /// The best `limit` entries for `query`, best first.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<Hit>, LibraryError> {
        Ok(self.search_counted(query, limit)?.0)
    }

    /// [`Library::search`], and how many entries match in all.
    fn search_counted(&self, query: &str, limit: usize) -> Result<(Vec<Hit>, usize), LibraryError> {
        // What was searched for is logged only under its own target
        // (`settings::logging::QUERIES`), off unless named.
        tracing::debug!(target: "deck::queries", query, limit, "search");
        let parsed = parse(query);
        let f = self.fields;
        let mut parser = QueryParser::for_index(self.index(), vec![f.text]);
        parser.set_conjunction_by_default();
        let mut parts: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let text_query = if parsed.text.trim().is_empty() {
            None
        } else {
            let (q, errors) = parser.parse_query_lenient(&parsed.text);
            if !errors.is_empty() {
                // Its words only where the log is asked for them.
                tracing::debug!(errors = errors.len(), "query read leniently");
                tracing::debug!(target: "deck::queries", ?errors, query, "query read leniently");
            }
            Some(q)
        };
        if let Some(q) = &text_query {
            parts.push((Occur::Must, q.box_clone()));
        }
        if parsed.after.is_some() || parsed.before.is_some() {
            let bound = |t: Option<i64>, inclusive: bool| match t {
                Some(t) if inclusive => Bound::Included(Term::from_field_i64(f.time, t)),
                Some(t) => Bound::Excluded(Term::from_field_i64(f.time, t)),
                None => Bound::Unbounded,
            };
            parts.push((
                Occur::Must,
                Box::new(RangeQuery::new(
                    bound(parsed.after, true),
                    bound(parsed.before, false),
                )),
            ));
        }
        if parts.is_empty() {
            parts.push((Occur::Must, Box::new(AllQuery)));
        }
        let query: Box<dyn Query> = Box::new(BooleanQuery::new(parts));
        let searcher = self.searcher();
        let err = |e| LibraryError::Index {
            dir: self.dir().display().to_string(),
            source: e,
        };
        let (top, total) = searcher
            .search(
                &query,
                &(TopDocs::with_limit(limit.max(1)).order_by_score(), tantivy::collector::Count),
            )
            .map_err(err)?;
        let mut snippets = match &text_query {
            Some(q) => Some(SnippetGenerator::create(&searcher, q.as_ref(), f.text).map_err(err)?),
            None => None,
        };
        if let Some(s) = &mut snippets {
            s.set_max_num_chars(160);
        }
        let mut hits = Vec::with_capacity(top.len());
        for (_, addr) in top {
            let doc: TantivyDocument = searcher.doc(addr).map_err(err)?;
            let text = |field| doc.get_first(field).and_then(|v| v.as_str()).map(str::to_string);
            let Some(file) = text(f.file) else { continue };
            let session = text(f.session);
            let Some(row) = self.row(&file, session.as_deref()) else {
                continue;
            };
            let body = text(f.text).unwrap_or_default();
            let parts = text(f.parts).unwrap_or_default();
            let (snippet, marks, at) = match &snippets {
                Some(g) => {
                    let s = g.snippet(&body);
                    // Where the match is in the whole text: the piece
                    // most of its words are in.
                    let base = s.fragment_range().start;
                    let at = most_marked(&parts, s.highlighted().iter().map(|r| base + r.start));
                    let (line, marks) = one_line(s.fragment(), s.highlighted());
                    (line, marks, at)
                }
                None => (String::new(), Vec::new(), 0),
            };
            let (snippet, marks) = if snippet.trim().is_empty() {
                let first: String = body.lines().next().unwrap_or("").chars().take(160).collect();
                (first, Vec::new())
            } else {
                (snippet, marks)
            };
            hits.push(Hit {
                row,
                item: doc.get_first(f.item).and_then(|v| v.as_u64()).unwrap_or(0),
                call: text(f.call),
                tool: text(f.tool),
                kind: text(f.kind).unwrap_or_default(),
                part: part_at(&parts, at),
                snippet,
                marks,
                time: doc.get_first(f.time).and_then(|v| v.as_i64()),
            });
        }
        Ok((hits, total))
    }
}

impl Library {
    /// [`Library::search`] within what `filter` keeps: its agent as a
    /// filter of the query, its cwd and date on the hits' sessions (more
    /// hits asked for when those may drop some), at most `limit`; and how
    /// many match in all when that is known, whether more do.
    pub fn search_kept(
        &self,
        query: &str,
        filter: &super::Filter,
        limit: usize,
    ) -> Result<Hits, LibraryError> {
        let query = match filter.agent() {
            Some(a) => format!("{query} agent:{a}"),
            None => query.to_string(),
        };
        if filter.cwd.is_none() && filter.since.is_none() {
            let (hits, total) = self.search_counted(&query, limit)?;
            return Ok(Hits {
                more: total > hits.len(),
                hits,
                total: Some(total),
            });
        }
        let ask = limit.saturating_mul(10);
        let (found, total) = self.search_counted(&query, ask)?;
        let mut kept: Vec<Hit> = found.into_iter().filter(|h| filter.keeps(&h.row)).collect();
        // Kept beyond the limit, or some not looked at: more may match.
        let more = kept.len() > limit || total > ask;
        kept.truncate(limit);
        Ok(Hits {
            hits: kept,
            total: None,
            more,
        })
    }
}

/// Where in a text the piece most of `marks` are in starts (the first
/// such piece; 0 without marks).
fn most_marked(parts: &str, marks: impl Iterator<Item = usize>) -> usize {
    let starts: Vec<usize> = parts
        .lines()
        .filter_map(|l| l.split_once(' ')?.0.parse().ok())
        .collect();
    if starts.is_empty() {
        return 0;
    }
    let mut counts = vec![0usize; starts.len()];
    for m in marks {
        counts[starts.partition_point(|&s| s <= m).saturating_sub(1)] += 1;
    }
    let best = counts.iter().copied().max().unwrap_or(0);
    let piece = counts.iter().position(|&c| c == best).unwrap_or(0);
    starts[piece]
}

/// The label of the piece of a text that byte `at` is in, from its
/// `OFFSET LABEL` lines (the first piece's before any).
fn part_at(parts: &str, at: usize) -> String {
    let mut label = "";
    for line in parts.lines() {
        let Some((start, l)) = line.split_once(' ') else { continue };
        match start.parse::<usize>() {
            Ok(start) if start <= at || label.is_empty() => label = l,
            _ => break,
        }
    }
    label.to_string()
}

/// A fragment on one line (line breaks and tabs as spaces, the same byte
/// length so the marks still fit), its marks collapsed and in range.
fn one_line(fragment: &str, marks: &[Range<usize>]) -> (String, Vec<Range<usize>>) {
    let line: String = fragment
        .chars()
        .map(|c| if c.is_control() && c.len_utf8() == 1 { ' ' } else { c })
        .collect();
    let marks = marks
        .iter()
        .filter(|r| r.end <= line.len() && line.is_char_boundary(r.start) && line.is_char_boundary(r.end))
        .cloned()
        .collect();
    (line, marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_and_needles_are_taken_apart() {
        let p = parse(r#"websocket "reconnect loop" agent:codex after:2026-11-01 before:2026-12-01"#);
        assert_eq!(p.text, r#"websocket "reconnect loop" agent:codex"#);
        assert_eq!(p.after, crate::agents::read::epoch_ms("2026-11-01T00:00:00Z"));
        assert_eq!(p.before, crate::agents::read::epoch_ms("2026-12-01T00:00:00Z"));
        assert_eq!(p.needle.as_deref(), Some("reconnect loop"));
        let p = parse("tool:bash -rm cargo");
        assert_eq!(p.needle.as_deref(), Some("cargo"));
        // A date that is not one stays a word for the parser.
        assert_eq!(parse("after:soon").text, "after:soon");
        assert_eq!(tokens(r#"path:"a b" c"#), vec![r#"path:"a b""#, "c"]);
    }

    #[test]
    fn a_match_is_in_the_piece_most_of_its_words_are_in() {
        let parts = "0 tool input\n30 error\n56 tool input";
        // `Edit` in the title, `FS EDIT NOT FOUND` in the error.
        assert_eq!(most_marked(parts, [0, 38, 41, 46, 50].into_iter()), 30);
        assert_eq!(most_marked(parts, [60].into_iter()), 56);
        assert_eq!(most_marked(parts, std::iter::empty()), 0);
        assert_eq!(most_marked("", [5].into_iter()), 0);
    }

    #[test]
    fn a_byte_is_in_the_piece_that_starts_at_or_before_it() {
        let parts = "0 tool input\n12 tool output\n40 error";
        assert_eq!(part_at(parts, 0), "tool input");
        assert_eq!(part_at(parts, 11), "tool input");
        assert_eq!(part_at(parts, 12), "tool output");
        assert_eq!(part_at(parts, 99), "error");
        assert_eq!(part_at("", 5), "");
    }

    #[test]
    fn snippets_are_one_line_with_their_marks() {
        let (s, m) = one_line("a\nbc\tdé", &[2..4, 6..8, 7..9]);
        assert_eq!(s, "a bc dé");
        assert_eq!(m, vec![2..4, 6..8]);
    }
}
