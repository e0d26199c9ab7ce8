//! A view attached to a card's slot ([`AttachedView`]): the host's, kept
//! as the record's JSON text; a presenter's, kept as its text when small,
//! else drawn again from the result when looked at ([`Again`]), so that a
//! result's text is held once, not again in its view. What a look at a view
//! finds (its tag, a read view's shape, a terminal command's failure) is
//! noted once.

use std::sync::Arc;

use serde_json::Value;

use super::presenter::{Presented, SharedPresenters, settled};
use crate::wire::view::Kind;
use crate::wire::{RawJson, View, WireError};

/// Where a card's view came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSource {
    /// Sent by the host with the frame.
    Wire,
    /// Derived by deck's built-in presenters (logs, old hosts).
    Presenter,
}

/// A view attached to a card slot, as JSON text. It is typed when a card
/// is drawn (and the drawing cached), not kept typed: a session's views
/// would otherwise be held twice. A big view one of deck's presenters drew
/// from a result is not kept at all: it is drawn again from the result
/// when it is looked at ([`Again`]) — the result's text is kept once.
/// Equal views are equal wherever they were read (`origin` and the cache
/// are not compared).
#[derive(Debug, Clone)]
pub struct AttachedView {
    /// Who made it: the host, or deck's presenters.
    pub source: ViewSource,
    /// The view's JSON text, or how to draw it again.
    body: Body,
    /// Where the record that brought the view was read (line 0: not from a file).
    pub origin: crate::wire::Origin,
    /// What a look at the view found (shared by clones, so the layout
    /// thread's or the loader's look serves the next reader).
    memo: std::sync::Arc<Memo>,
}

/// What an attached view keeps.
#[derive(Debug, Clone)]
enum Body {
    Text(RawJson),
    Again(Arc<Again>),
}

impl PartialEq for AttachedView {
    fn eq(&self, other: &AttachedView) -> bool {
        self.source == other.source && self.raw() == other.raw()
    }
}

/// A presenter's view of a result, drawn again when asked: presenters are
/// pure functions of (arguments, result), so it is the view the fold drew.
#[derive(Debug)]
pub struct Again {
    presenters: SharedPresenters,
    tool: String,
    arguments: Arc<str>,
    /// The result's data (the card's result shares it).
    data: RawJson,
    is_error: bool,
}

impl Again {
    /// The result `data` (`is_error`) of a call of `tool` with `arguments`,
    /// to be drawn by `presenters`.
    pub fn new(
        presenters: SharedPresenters,
        tool: &str,
        arguments: Arc<str>,
        data: RawJson,
        is_error: bool,
    ) -> Again {
        Again {
            presenters,
            tool: tool.to_string(),
            arguments,
            data,
            is_error,
        }
    }

    fn draw(&self) -> Option<Presented> {
        let mut data = self.data.parse();
        settled(&self.tool, &self.arguments, self.is_error, &mut data, |s| {
            self.presenters.result_view(s)
        })
    }
}

/// A presented view smaller than this is kept as its text (drawing it again
/// would save little). The crate's own tests draw every view again that
/// can be: each card they draw is drawn from a view drawn again.
#[cfg(not(test))]
const KEEP: usize = 4 << 10;
#[cfg(test)]
const KEEP: usize = 2;

/// What is learnt of a view on first use.
#[derive(Debug, Default)]
struct Memo {
    /// See [`AttachedView::typed_head`]; `None` inside: not a read view
    /// with lines.
    shape: std::sync::OnceLock<Option<crate::wire::read_prefix::Shape>>,
    /// The `card` tag and the struct the text decodes into.
    kind: std::sync::OnceLock<Kind>,
    /// A terminal view whose command failed (see [`AttachedView::failed`]).
    failed: std::sync::OnceLock<bool>,
}

impl AttachedView {
    /// A view from `source`, given as a tree.
    pub fn new(source: ViewSource, raw: Value) -> AttachedView {
        // Its tag is known from the tree: no scan of its text for it.
        let memo = Memo::default();
        if raw.is_object() {
            let tag = raw.get("card").and_then(Value::as_str).map(str::to_string);
            let _ = memo.kind.set(Kind::card_only(tag));
        }
        AttachedView {
            source,
            body: Body::Text(RawJson::from_value(&raw)),
            origin: crate::wire::Origin::default(),
            memo: std::sync::Arc::new(memo),
        }
    }

    /// A view one of deck's presenters drew, typed: its tag, and for a
    /// terminal view whether its command failed, are read off the type, not
    /// found again in its text. (Tested on every fixture by
    /// `presented_views_know_what_their_text_says`.)
    pub fn presented(view: &View) -> AttachedView {
        let attached =
            AttachedView::from_text(ViewSource::Presenter, RawJson::from_text(view.to_json()));
        let _ = attached.memo.kind.set(Kind::of_view(view));
        if let View::Terminal(t) = view {
            let failed = t.exit_code.is_some_and(|c| c != 0) || t.signal.is_some();
            let _ = attached.memo.failed.set(failed);
        }
        attached
    }

    /// A view a presenter wrote straight as JSON text, of card `tag`.
    pub fn presented_text(raw: RawJson, tag: &str) -> AttachedView {
        let view = AttachedView::from_text(ViewSource::Presenter, raw);
        let _ = view.memo.kind.set(Kind::card_only(Some(tag.to_string())));
        view
    }

    /// A view a presenter drew of a result of a call whose arguments are
    /// `arguments` bytes, which `again` draws again: what it is (its tag, a
    /// terminal command's failure) noted now, its text kept only when small
    /// or when drawing it again would keep more (the arguments bigger than
    /// the view) — then `again` is not made (no copy of the arguments for
    /// the views kept, most of them).
    pub fn presented_again(
        view: Presented,
        arguments: usize,
        again: impl FnOnce() -> Again,
    ) -> AttachedView {
        let len = match &view {
            Presented::View(v) => v.json_len(),
            Presented::Text(t, _) => t.len(),
        };
        if len <= KEEP || arguments * 4 > len {
            return view.attach();
        }
        let again = again();
        let (memo, text) = match view {
            // What it is, read off its type: its text is not written.
            Presented::View(v) => {
                let memo = Memo::default();
                let _ = memo.kind.set(Kind::of_view(&v));
                if let View::Terminal(t) = &v {
                    let _ = memo
                        .failed
                        .set(t.exit_code.is_some_and(|c| c != 0) || t.signal.is_some());
                }
                if !matches!(v, View::Read(_)) {
                    let _ = memo.shape.set(None);
                }
                (memo, None)
            }
            Presented::Text(t, tag) => {
                let memo = Memo::default();
                let _ = memo.kind.set(Kind::card_only(Some(tag.to_string())));
                (memo, Some(t))
            }
        };
        let attached = AttachedView {
            source: ViewSource::Presenter,
            body: Body::Again(Arc::new(again)),
            origin: crate::wire::Origin::default(),
            memo: Arc::new(memo),
        };
        // A read view's shape, learnt now from its text (not by drawing it
        // again); a typed read view's when it is first looked at.
        if let Some(t) = text {
            let shape = crate::wire::read_prefix::read_prefix(t.as_str(), 1, None).map(|(_, s)| s);
            let _ = attached.memo.shape.set(shape);
        }
        attached.warm();
        attached
    }

    /// The view's JSON text: kept, or drawn again.
    pub fn raw(&self) -> RawJson {
        match &self.body {
            Body::Text(t) => t.clone(),
            Body::Again(a) => match a.draw() {
                Some(Presented::Text(t, _)) => t,
                Some(Presented::View(v)) => RawJson::from_text(v.to_json()),
                None => RawJson::from_text("null".to_string()),
            },
        }
    }

    /// The view's text when it is kept (not drawn again).
    pub fn kept_text(&self) -> Option<&RawJson> {
        match &self.body {
            Body::Text(t) => Some(t),
            Body::Again(_) => None,
        }
    }

    /// Bytes of the view's text, or of the result it is drawn from.
    pub fn size(&self) -> usize {
        match &self.body {
            Body::Text(t) => t.len(),
            Body::Again(a) => a.data.len(),
        }
    }

    /// Whether the view is drawn again when looked at (not kept).
    pub fn is_drawn_again(&self) -> bool {
        matches!(self.body, Body::Again(_))
    }

    /// A view as JSON text (a presenter's, written straight as text).
    pub fn from_text(source: ViewSource, raw: RawJson) -> AttachedView {
        AttachedView {
            source,
            body: Body::Text(raw),
            origin: crate::wire::Origin::default(),
            memo: std::sync::Arc::default(),
        }
    }

    /// A view sent by the host (shares the record's text).
    pub fn from_wire(env: &crate::wire::ViewEnvelope) -> AttachedView {
        AttachedView {
            source: ViewSource::Wire,
            body: Body::Text(env.view.clone()),
            origin: crate::wire::Origin::default(),
            memo: std::sync::Arc::default(),
        }
    }

    /// The same view, read at `origin`.
    pub fn at(self, origin: crate::wire::Origin) -> AttachedView {
        AttachedView { origin, ..self }
    }

    /// `call view` / `result view` and where it was read, for messages.
    pub fn place(&self, slot: &str) -> String {
        if self.origin.line == 0 {
            format!("{slot} view")
        } else {
            format!(
                "{slot} view (line {}, byte {})",
                self.origin.line, self.origin.offset
            )
        }
    }

    /// The typed view, or why it did not type.
    pub fn typed(&self) -> Result<View, WireError> {
        match &self.body {
            Body::Text(t) => View::from_json_as(t.as_str(), self.kind()),
            Body::Again(a) => match a.draw() {
                Some(Presented::View(v)) => Ok(v),
                Some(Presented::Text(t, _)) => View::from_json(t.as_str()),
                None => Err(WireError::Unreadable(
                    "its presenter drew no view again".into(),
                )),
            },
        }
    }

    /// The view typed only as far as `lines` lines of a `read` view (see
    /// [`crate::wire::read_prefix`]); other views are typed whole. The
    /// view's shape is found once (one pass over the text); after that a
    /// scan stops after its lines.
    pub fn typed_head(&self, lines: usize) -> Result<View, WireError> {
        use crate::wire::read_prefix::read_prefix;
        let text = self.raw();
        let head = self
            .shape()
            .and_then(|s| read_prefix(text.as_str(), lines, Some(s)));
        match head {
            Some((v, _)) => Ok(View::Read(v)),
            None => self.typed(),
        }
    }

    /// Find a read view's shape now, so that a later
    /// [`typed_head`](Self::typed_head) reads only its head: for the layout
    /// thread, ahead of the pager.
    pub fn warm_head(&self) {
        self.shape();
    }

    /// The read view's shape, found on first use; `None`: not a read view
    /// with lines.
    fn shape(&self) -> Option<&crate::wire::read_prefix::Shape> {
        self.memo
            .shape
            .get_or_init(|| {
                // A view known to be of another card has no read shape: no
                // scan of its text for one.
                if self
                    .memo
                    .kind
                    .get()
                    .and_then(Kind::card)
                    .is_some_and(|t| t != "read")
                {
                    return None;
                }
                crate::wire::read_prefix::read_prefix(self.raw().as_str(), 1, None).map(|(_, s)| s)
            })
            .as_ref()
    }

    /// Whether the view's `card` tag is `card` (no copy of the tag made).
    pub fn is(&self, card: &str) -> bool {
        self.kind().card() == Some(card)
    }

    /// The view's `card` tag, read without typing the view (once).
    pub fn tag(&self) -> Option<String> {
        self.kind().card().map(str::to_string)
    }

    /// What the view is switched on, read once.
    fn kind(&self) -> &Kind {
        self.memo
            .kind
            .get_or_init(|| View::kind_of(self.raw().as_str()))
    }

    /// A terminal view of a command that failed: a non-zero exit code or
    /// a signal (typed once).
    pub fn failed(&self) -> bool {
        *self.memo.failed.get_or_init(|| {
            self.is("terminal")
                && matches!(self.typed(), Ok(View::Terminal(t))
                    if t.exit_code.is_some_and(|c| c != 0) || t.signal.is_some())
        })
    }

    /// Take every look the fold will take (tag, shape, outcome) now: for
    /// the loader's threads, ahead of the fold.
    pub fn warm(&self) {
        self.tag();
        self.shape();
        self.failed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A view made from a tree knows its tag from the tree: the tag its
    /// text would give, whatever `card` holds.
    #[test]
    fn a_tree_view_tags_as_its_text_would() {
        for v in [
            json!({"card": "terminal", "output": "x"}),
            json!({"output": "x", "card": "read"}),
            json!({"card": 5}),
            json!({"card": null}),
            json!({"title": "no card"}),
            json!([1, 2]),
            json!("text"),
        ] {
            let from_tree = AttachedView::new(ViewSource::Presenter, v.clone());
            assert_eq!(from_tree.tag(), View::tag_of(&v.to_string()), "{v}");
            // `is` says what `tag` says.
            for card in ["terminal", "read", "5", ""] {
                assert_eq!(
                    from_tree.is(card),
                    from_tree.tag().as_deref() == Some(card),
                    "{v}"
                );
            }
        }
    }
}

#[cfg(test)]
mod again_tests {
    use crate::session::Transcript;
    use crate::wire::View;

    /// Every agent fixture folded (here every presented result view that
    /// can be is drawn again: `KEEP` is 2 bytes): a view drawn again keeps no
    /// text, types as its text reads, and what was noted of it when it was
    /// first drawn (its tag, a terminal command's failure) is what it says.
    #[test]
    fn a_view_drawn_again_is_the_view_first_drawn() {
        let mut again = 0;
        for f in crate::load::tests::fixture_files() {
            let Ok(loaded) = crate::load::load_path(&f.to_string_lossy()) else {
                continue;
            };
            for s in &loaded.sessions {
                let t = Transcript::from_records(None, &s.records, crate::agents::stock());
                for card in t.cards() {
                    let Some(v) = card.result_view.as_ref().filter(|v| v.is_drawn_again()) else {
                        continue;
                    };
                    again += 1;
                    let name = format!("{} {}", f.display(), card.call_id);
                    assert!(v.kept_text().is_none(), "{name}");
                    let text = v.raw();
                    assert_eq!(
                        v.typed().ok(),
                        View::from_json(text.as_str()).ok(),
                        "{name}"
                    );
                    let fresh = super::AttachedView::from_text(super::ViewSource::Presenter, text);
                    assert_eq!(
                        (v.tag(), v.failed()),
                        (fresh.tag(), fresh.failed()),
                        "{name}"
                    );
                    assert_eq!(v, &fresh, "{name}");
                    // It is drawn again from the card's own result.
                    assert_eq!(
                        v.size(),
                        card.result.as_ref().map_or(0, |r| r.size()),
                        "{name}"
                    );
                }
            }
        }
        assert!(again > 50, "views drawn again: {again}");
    }
}
