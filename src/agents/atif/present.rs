//! Cards for ATIF trajectories. A trajectory's tools are those of whichever
//! agent Harbor ran (`agent.name`), and its results are text without a
//! status: every call is a generic card — its name, its arguments, the
//! result's text — whose outcome is unknown. No tool is named here.

use crate::text::markdown::fenced;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{GenericView, View};
use serde_json::Value;

/// The ATIF presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Atif;

impl Presenters for Atif {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        Some(
            GenericView {
                raw_input: (!args.is_empty()).then(|| Value::Object(args)),
                ..GenericView::new(call.tool, "other")
            }
            .into(),
        )
    }

    fn result_view(&self, s: &Settled<'_>) -> Option<Presented> {
        let args = parse(s.arguments);
        let text = crate::session::text_of(s.content);
        let mut view = GenericView {
            raw_input: (!args.is_empty()).then(|| Value::Object(args)),
            ..GenericView::new(s.tool, "other")
        };
        if !text.is_empty() {
            view = view.with_text(fenced(&text));
        }
        Some(Presented::View(view.into()))
    }
}


#[cfg(test)]
mod tests;
