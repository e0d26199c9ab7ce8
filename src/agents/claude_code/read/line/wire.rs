//! The wire shapes of a Claude Code line, read in one pass: every field
//! kept as its JSON text (typed later, leniently), the message and its
//! blocks typed as they are met ([`Obj`], [`Content`]) rather than read
//! again from their text.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor, value::MapAccessDeserializer};
use serde_json::value::RawValue;

/// A field as its JSON text, whatever its type (absent: `None`).
pub(super) type Raw<'a> = Option<&'a RawValue>;

#[derive(Deserialize)]
pub(super) struct WireLine<'a> {
    #[serde(rename = "type", borrow, default)]
    pub(super) kind: Raw<'a>,
    #[serde(rename = "sessionId", borrow, default)]
    pub(super) session_id: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) uuid: Raw<'a>,
    #[serde(rename = "leafUuid", borrow, default)]
    pub(super) leaf_uuid: Raw<'a>,
    #[serde(rename = "messageId", borrow, default)]
    pub(super) message_id: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) snapshot: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) seq: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) event: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) seq0: Raw<'a>,
    /// Qwen Code's lines have Claude Code's `uuid` and `sessionId`, and this.
    #[serde(borrow, default)]
    pub(super) provenance: Raw<'a>,
    #[serde(rename = "isSidechain", borrow, default)]
    pub(super) sidechain: Raw<'a>,
    #[serde(rename = "isMeta", borrow, default)]
    pub(super) is_meta: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) cwd: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) version: Raw<'a>,
    #[serde(rename = "gitBranch", borrow, default)]
    pub(super) git_branch: Raw<'a>,
    #[serde(rename = "agentId", borrow, default)]
    pub(super) agent_id: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) timestamp: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) message: Obj<WireMessage<'a>>,
    #[serde(rename = "toolUseResult", borrow, default)]
    pub(super) tool_use_result: Raw<'a>,
    #[serde(rename = "toolDenialKind", borrow, default)]
    pub(super) tool_denial_kind: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) summary: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) subtype: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) content: Raw<'a>,
    #[serde(rename = "compactMetadata", borrow, default)]
    pub(super) compact_metadata: Raw<'a>,
    #[serde(rename = "isCompactSummary", borrow, default)]
    pub(super) is_compact_summary: Raw<'a>,
    #[serde(rename = "isApiErrorMessage", borrow, default)]
    pub(super) is_api_error: Raw<'a>,
    /// A `progress` line's payload, and the call it reports on.
    #[serde(borrow, default)]
    pub(super) data: Raw<'a>,
    #[serde(rename = "parentToolUseID", borrow, default)]
    pub(super) parent_tool_use_id: Raw<'a>,
}

#[derive(Deserialize)]
pub(super) struct WireMessage<'a> {
    #[serde(borrow, default)]
    pub(super) id: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) model: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) content: Content<'a>,
    #[serde(borrow, default)]
    pub(super) usage: Raw<'a>,
}

/// A message's `content`, read in the line's one pass.
#[derive(Default)]
pub(super) enum Content<'a> {
    /// Absent, or neither a string nor an array.
    #[default]
    None,
    Text(String),
    Blocks(Vec<Obj<WireBlock<'a>>>),
}

#[derive(Default, Deserialize)]
pub(super) struct WireBlock<'a> {
    #[serde(rename = "type", borrow, default)]
    pub(super) kind: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) text: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) thinking: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) id: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) name: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) input: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) tool_use_id: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) content: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) is_error: Raw<'a>,
}

#[derive(Deserialize)]
pub(super) struct WireTasks<'a> {
    #[serde(borrow, default)]
    pub(super) tasks: Raw<'a>,
    #[serde(borrow, default)]
    pub(super) task: Raw<'a>,
    #[serde(rename = "taskId", borrow, default)]
    pub(super) task_id: Raw<'a>,
    #[serde(rename = "statusChange", borrow, default)]
    pub(super) status_change: Raw<'a>,
}

/// An object read as `T` in the line's one pass; any other JSON value is
/// as good as absent (read past, not an error).
pub(super) struct Obj<T>(pub(super) Option<T>);

impl<T> Default for Obj<T> {
    fn default() -> Self {
        Obj(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(|t| Obj(Some(t)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Obj<T>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Obj(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Obj<T>, E> {
                Ok(Obj(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Obj<T>, E> {
                Ok(Obj(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Obj<T>, E> {
                Ok(Obj(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Obj<T>, E> {
                Ok(Obj(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Obj<T>, E> {
                Ok(Obj(None))
            }
            fn visit_unit<E>(self) -> Result<Obj<T>, E> {
                Ok(Obj(None))
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Content<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, s: &str) -> Result<Content<'a>, E> {
                Ok(Content::Text(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Content<'a>, E> {
                Ok(Content::Text(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'a>, A::Error> {
                let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(1));
                while let Some(b) = seq.next_element::<Obj<WireBlock<'a>>>()? {
                    list.push(b);
                }
                Ok(Content::Blocks(list))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content<'a>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content::None)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Content<'a>, E> {
                Ok(Content::None)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Content<'a>, E> {
                Ok(Content::None)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Content<'a>, E> {
                Ok(Content::None)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Content<'a>, E> {
                Ok(Content::None)
            }
            fn visit_unit<E>(self) -> Result<Content<'a>, E> {
                Ok(Content::None)
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}
