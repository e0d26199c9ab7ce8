//! An agent's session written as one JSON document (Cline's, a Cline task's
//! history, an ATIF trajectory, a mini-swe-agent trajectory, Gemini CLI's
//! older chats) read as a stream: the whole text is checked first (a broken
//! document is not half read), its members but the entries' list are
//! parsed (its shape: the lists emptied), the agent whose document it is
//! says where the entries are ([`Agent::document_entries`]), and each entry
//! is parsed as the list is read and handed to the reader alone. The
//! document is never one tree (about four times its text): what is held is
//! its text and the records made so far.
//!
//! [`Agent::document_entries`]: crate::agents::Agent::document_entries

use serde::de::{MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{Summary, push_out};
use super::group::Sessions;
use crate::agents::read::Out;
use crate::agents::Entries;
use crate::wire::{Diagnostic, Origin, Record};

/// A document's members in order, each value as its text.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for Members<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Members<'de>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Members<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = m.next_entry::<String, &'de RawValue>()? {
                    out.push(entry);
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// What the document is, read once as text.
enum Doc<'a> {
    Object(Members<'a>),
    List(Vec<&'a RawValue>),
}

impl<'a> Doc<'a> {
    fn read(text: &'a str) -> Option<Doc<'a>> {
        match text.trim_start().as_bytes().first()? {
            b'{' => serde_json::from_str(text).ok().map(Doc::Object),
            b'[' => serde_json::from_str(text).ok().map(Doc::List),
            _ => None,
        }
    }

    /// The document with its top-level lists emptied (a list: its first
    /// element alone), for its agent to recognise.
    fn shape(&self) -> Option<Value> {
        Some(match self {
            Doc::Object(members) => {
                let mut map = Map::new();
                for (k, v) in &members.0 {
                    let v = match v.get().starts_with('[') {
                        true => Value::Array(Vec::new()),
                        false => tree(v)?,
                    };
                    map.insert(k.clone(), v);
                }
                Value::Object(map)
            }
            Doc::List(items) => Value::Array(items.first().map(|v| tree(v)).into_iter().collect::<Option<_>>()?),
        })
    }
}

fn tree(v: &RawValue) -> Option<Value> {
    serde_json::from_str(v.get()).ok()
}

/// A list read element by element, each handed on as it is parsed.
struct Each<'f, F: FnMut(Value)>(&'f mut F);

impl<'de, F: FnMut(Value)> Visitor<'de> for Each<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON list")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(v) = seq.next_element::<Value>()? {
            (self.0)(v);
        }
        Ok(())
    }
}

/// The document `text`, when an agent reads it as a stream: its members
/// then each entry to that agent's reader, the records to `sessions`.
/// `None`: no agent does (nothing was taken; `pre` is left).
pub(super) fn load(
    text: &[u8],
    compressed: bool,
    pre: &mut Vec<Diagnostic>,
    sessions: &mut Sessions<'_>,
) -> Option<Summary> {
    let text = std::str::from_utf8(text).ok()?;
    let doc = Doc::read(text)?;
    let shape = doc.shape()?;
    let (agent, entries) = crate::agents::ALL
        .iter()
        .find_map(|a| a.document_entries(&shape).map(|e| (*a, e)))?;
    let mut reader = agent.reader()?;
    sessions.set_format(agent.format());
    for d in pre.drain(..) {
        sessions.push(None, Record::Diagnostic(d));
    }
    let origin = Origin::default();
    let mut out = Out::new();
    let (root, list, items) = match (doc, entries) {
        (Doc::List(items), _) => (None, None, items),
        (Doc::Object(members), entries) => {
            // Its other members as one line (the last of a name stands, as
            // in a tree), then the list's entries.
            let key = match entries {
                Entries::Member(key) => Some(key),
                Entries::Whole => None,
            };
            let mut root = Map::new();
            let mut list = None;
            for (k, v) in members.0 {
                if Some(k.as_str()) == key {
                    list = Some(v);
                } else if let Some(v) = tree(v) {
                    root.insert(k, v);
                }
            }
            (Some(root), list, Vec::new())
        }
    };
    if let Some(root) = root {
        reader.line(&Value::Object(root), origin, &mut out);
        push_out(sessions, &mut out);
    }
    let mut each = |v: Value| {
        reader.entry(v, origin, &mut out);
        push_out(sessions, &mut out);
    };
    items.into_iter().filter_map(tree).for_each(&mut each);
    // A member's entries parsed as its list is read, in one pass (the text
    // was checked once already).
    let mut broken = None;
    if let Some(list) = list.filter(|l| l.get().starts_with('[')) {
        let mut de = serde_json::Deserializer::from_str(list.get());
        if let Err(e) = serde::Deserializer::deserialize_seq(&mut de, Each(&mut each)) {
            broken = Some(e);
        }
    }
    // Not for want of checking: a tree deeper than serde's limit, say.
    if let Some(e) = broken {
        let reason = format!("an entry of the {} document could not be read, nor those after it: {e}", agent.name());
        sessions.push(None, Record::Diagnostic(Diagnostic::new(origin, reason, String::new())));
    }
    reader.finish(&mut out);
    push_out(sessions, &mut out);
    Some(Summary {
        format: agent.format(),
        compressed,
        lines: 1,
    })
}

#[cfg(test)]
mod tests;
