//! What a part of the screen that has the keys (help, the pager, the
//! session picker, a search line) answers a key with: the app decides what
//! follows — close the part, open help over it, quit, or act itself.

use super::keys::Action;
use super::msg::Effect;

/// The answer of a part to a key.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The part stays open (whatever the key did, it did to the part).
    Stay,
    /// Close the part, back to what was under it; then these effects.
    Close(Vec<Effect>),
    /// Open help over the part.
    Help,
    Quit,
    /// An action the app owns (copy, theme, a new session, a search); the
    /// part stays open.
    App(Action),
}
