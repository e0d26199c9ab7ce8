//! Search state: the line being typed (a [`Prompt`], over the transcript or
//! in the pager) and what a search over all cards found ([`Found`]): the
//! query, its matches as list positions, the one gone to, and the search
//! still running on its thread. What searching does to the list is in
//! `finding.rs`.

use crossterm::event::KeyEvent;

use super::keys::{self, Action, Part};
use super::outcome::Outcome;
use crate::view::search::{Match, Search};

/// A search line being typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prompt {
    pub text: String,
}

impl Prompt {
    /// A key typed into the line: Enter asks the app to search
    /// (`Outcome::App(Submit)`), Esc and Ctrl-c close it.
    pub fn handle(&mut self, key: KeyEvent) -> Outcome {
        match keys::action(Part::Prompt, key) {
            Some(Action::Back) => Outcome::Close(Vec::new()),
            Some(Action::Submit) => Outcome::App(Action::Submit),
            Some(Action::DeleteBack) => {
                self.text.pop();
                Outcome::Stay
            }
            Some(Action::Insert(c)) => {
                self.text.push(c);
                Outcome::Stay
            }
            _ => Outcome::Stay,
        }
    }

    /// Pasted text: its first line.
    pub fn paste(&mut self, text: &str) {
        self.text
            .push_str(&super::composer::clean(text.lines().next().unwrap_or("")));
    }
}

/// What a search over all cards found.
#[derive(Default)]
pub struct Found {
    pub query: String,
    pub matches: Vec<Match>,
    /// The match gone to last.
    pub current: Option<usize>,
    /// Search on a thread of its own (the interactive app: keys are
    /// answered while a long search runs); off, a search is done at once.
    pub background: bool,
    /// The search running, its matches coming into `matches`, and whether
    /// to go to the first one (a new query) or not (found again after a
    /// filter changed).
    pub running: Option<(Search, bool)>,
}

impl Found {
    /// Forget the query and its matches (Esc).
    pub fn clear(&mut self) {
        self.matches.clear();
        self.query.clear();
        self.running = None;
    }
}
