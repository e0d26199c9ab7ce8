//! `deck listen` served through the loader's line pipeline: each
//! connection a [`LineStream`] of its own, one session shown for all of
//! them. (Binding and accepting are bytes-in: `source::listen`.)

use std::sync::Arc;

use super::stream::{LineStream, Selection};
use crate::source::feed::MakeLines;
use crate::source::listen::{Bound, ListenError};
use crate::source::live::{LiveTx, Tap};

impl Bound {
    /// Serve until the input ends (stdin) or the consumer goes away: the
    /// session `session` shown (else the first named), every line tapped
    /// into `tap`.
    pub async fn serve(
        self,
        session: Option<String>,
        tap: Tap,
        tx: LiveTx,
    ) -> Result<(), ListenError> {
        let selection = Selection::new(session);
        let lines: MakeLines = Arc::new(move |label| {
            Box::new(LineStream::new(label, selection.clone(), tap.clone()))
        });
        self.serve_with(lines, tx).await
    }
}
