//! What keys do: the transcript, pager and player actions, search and
//! copy. Part of [`App`]'s pure update (see `state.rs`): no I/O here.

use super::keymap::Action;
use super::player::Player;
use super::state::{App, Effect, Overlay, PromptFor};
use crate::cards::Density;
use crate::session::{Item, Transcript};
use crate::view::list::Anchor;
use crate::view::pager::Pager;
use crate::view::search::{self, Match};
use crate::view::status;
use crate::view::transcript::item_text;

impl App {
    pub(super) fn run_search(&mut self, target: PromptFor, text: &str) {
        match target {
            PromptFor::PagerSearch => {
                let rows = (self.height as usize).saturating_sub(1);
                self.build_pager();
                if let Overlay::Pager(p) = &mut self.overlay {
                    p.set_query(text);
                    if !p.next_match(true, rows) {
                        self.message = Some(format!("no match for {text:?}"));
                    }
                }
            }
            PromptFor::Search => {
                self.query = text.to_string();
                self.start_search(true);
            }
        }
    }

    /// Search the list for `self.query`: at once, or on a thread with the
    /// matches taken in as they come (see [`App::poll_search`]).
    fn start_search(&mut self, jump: bool) {
        self.matches.clear();
        self.current_match = None;
        self.search = None;
        let query = self.query.clone();
        if self.background_search {
            let (t, list, theme, opts, _) = self.parts();
            let job = search::Search::spawn(
                t.clone(),
                list.entries.clone(),
                theme.clone(),
                opts.width,
                opts.show_reasoning,
                query,
            );
            self.search = Some((job, jump));
            self.poll_search();
            return;
        }
        let (t, list, theme, opts, _) = self.parts();
        let matches = search::find(
            t,
            &list.entries,
            theme,
            opts.width,
            opts.show_reasoning,
            &query,
        );
        self.matches = matches;
        if !jump {
            return;
        }
        if self.matches.is_empty() {
            self.message = Some(format!("no match for {query:?}"));
        } else {
            self.goto_match(true);
        }
    }

    /// True while a search runs on its thread.
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// Take the matches a running search found: go to the first one at or
    /// after the focus as soon as there is one (or when the search ends,
    /// to the first of all), and say how far it got.
    pub(super) fn poll_search(&mut self) {
        let Some((job, jump)) = self.search.as_mut() else {
            return;
        };
        let found = job.poll();
        let (done, scanned, total, jump) = (job.done, job.scanned(), job.total, *jump);
        self.matches.extend(found);
        if done {
            self.search = None;
        }
        if !jump {
            return;
        }
        let focus = self.list.focus;
        let ahead = self.matches.iter().any(|m| m.entry >= focus);
        if self.current_match.is_none() && !self.matches.is_empty() && (ahead || done) {
            self.goto_match(true);
        }
        if !done {
            if self.current_match.is_none() {
                self.message = Some(format!(
                    "searching {scanned}/{total} · {} match{} for {:?}",
                    self.matches.len(),
                    if self.matches.len() == 1 { "" } else { "es" },
                    self.query
                ));
            }
        } else if self.matches.is_empty() {
            self.message = Some(format!("no match for {:?}", self.query));
        }
    }

    pub(super) fn goto_match(&mut self, forward: bool) {
        // A replay that seeked back may have fewer entries than when searched.
        let n = self.list.entries.len();
        self.matches.retain(|m| m.entry < n);
        if self.current_match.is_some_and(|c| c >= self.matches.len()) {
            self.current_match = None;
        }
        if self.matches.is_empty() {
            self.message = Some(if self.query.is_empty() {
                "no search".into()
            } else {
                format!("no match for {:?}", self.query)
            });
            return;
        }
        let n = self.matches.len();
        let here = Match {
            entry: self.list.focus,
            row: 0,
        };
        let i = match (self.current_match, forward) {
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
            (None, true) => self
                .matches
                .iter()
                .position(|m| (m.entry, m.row) >= (here.entry, here.row))
                .unwrap_or(0),
            (None, false) => self
                .matches
                .iter()
                .rposition(|m| m.entry < here.entry)
                .unwrap_or(n - 1),
        };
        self.current_match = Some(i);
        let m = self.matches[i];
        if let Some(&item) = self.list.entries.get(m.entry) {
            // The match may be in a collapsed part: show the card in full.
            self.list.overrides.insert(item, Density::Full);
        }
        self.list.follow = false;
        self.list.focus = m.entry;
        let rows = self.list_rows();
        self.list.anchor = Anchor {
            entry: m.entry,
            row: m.row.saturating_sub(rows / 3),
        };
        self.message = Some(format!("match {}/{} for {:?}", i + 1, n, self.query));
    }

    pub(super) fn toggle_card(&mut self) {
        let Some(item) = self.focused_item() else {
            return;
        };
        let cur = self.list.density_of(item, self.density);
        let next = if cur == Density::Full {
            Density::Preview
        } else {
            Density::Full
        };
        self.list.overrides.insert(item, next);
        self.reveal();
    }

    pub(super) fn jump_to(
        &mut self,
        forward: bool,
        pred: impl Fn(&Transcript, &Item) -> bool,
    ) -> bool {
        let t = self.transcript();
        let n = self.list.entries.len();
        let found = if forward {
            (self.list.focus + 1..n).find(|&e| pred(t, &t.items[self.list.entries[e]]))
        } else {
            (0..self.list.focus)
                .rev()
                .find(|&e| pred(t, &t.items[self.list.entries[e]]))
        };
        match found {
            Some(e) => {
                self.set_focus(e);
                self.list.anchor = Anchor { entry: e, row: 0 };
                true
            }
            None => false,
        }
    }

    pub(super) fn copy(&mut self, target: bool) -> Vec<Effect> {
        let Some(item) = self.focused_item() else {
            return Vec::new();
        };
        let t = self.transcript();
        let Some(it) = t.items.get(item) else {
            return Vec::new();
        };
        let text = if target {
            match it {
                Item::Tool(i) => t.cards.get(*i).and_then(|c| crate::cards::plain::target(c)),
                _ => None,
            }
        } else {
            Some(item_text(t, it))
        };
        match text {
            Some(s) if !s.is_empty() => {
                self.message = Some(format!("copied {} bytes", s.len()));
                vec![Effect::Copy(s)]
            }
            _ => {
                self.message = Some("nothing to copy".into());
                Vec::new()
            }
        }
    }

    /// Perform a transcript action.
    pub fn act(&mut self, a: Action) -> Vec<Effect> {
        let rows = self.list_rows() as isize;
        match a {
            Action::Quit => return vec![Effect::Quit],
            Action::Back => {
                self.matches.clear();
                self.query.clear();
                self.search = None;
            }
            Action::Next => self.move_focus(1),
            Action::Prev => self.move_focus(-1),
            Action::HalfPageDown => self.scroll(rows / 2),
            Action::HalfPageUp => self.scroll(-rows / 2),
            Action::PageDown => self.scroll(rows),
            Action::PageUp => self.scroll(-rows),
            Action::Top => {
                self.list.follow = false;
                self.list.focus = 0;
                self.list.anchor = Anchor::default();
            }
            Action::Bottom => {
                self.list.follow = true;
                self.list.focus = self.list.entries.len().saturating_sub(1);
                self.unseen = 0;
            }
            Action::ToggleCard => self.toggle_card(),
            Action::CycleDensity => {
                self.density = match self.density {
                    Density::Line => Density::Preview,
                    Density::Preview => Density::Full,
                    Density::Full => Density::Line,
                };
                self.list.overrides.clear();
                self.message = Some(format!("all cards: {:?}", self.density).to_lowercase());
                self.reveal();
            }
            Action::ToggleTools => {
                self.hide_tools = !self.hide_tools;
                self.sync();
                self.refresh_matches();
                self.message = Some(if self.hide_tools {
                    "tool cards hidden".into()
                } else {
                    "tool cards shown".into()
                });
            }
            Action::ToggleReasoning => {
                self.show_reasoning = !self.show_reasoning;
                self.sync();
                self.refresh_matches();
                self.message = Some(if self.show_reasoning {
                    "reasoning shown".into()
                } else {
                    "reasoning hidden".into()
                });
            }
            Action::OpenPager => {
                if let Some(item) = self.focused_item() {
                    self.overlay = Overlay::Pager(Box::new(Pager::new(item)));
                    self.build_pager();
                }
            }
            Action::StartSearch => self.prompt = Some((PromptFor::Search, String::new())),
            Action::NextMatch => self.goto_match(true),
            Action::PrevMatch => self.goto_match(false),
            Action::NextError | Action::PrevError => {
                let forward = a == Action::NextError;
                let bad = |t: &Transcript, it: &Item| matches!(it, Item::Tool(i) if t.cards[*i].status.is_bad());
                if !self.jump_to(forward, bad) {
                    self.message = Some("no more failed cards".into());
                }
            }
            Action::NextTurn | Action::PrevTurn => {
                let forward = a == Action::NextTurn;
                let turn =
                    |_: &Transcript, it: &Item| matches!(it, Item::Turn(m) if m.end.is_none());
                if !self.jump_to(forward, turn) {
                    self.message = Some("no more turns".into());
                }
            }
            Action::Copy => return self.copy(false),
            Action::CopyTarget => return self.copy(true),
            Action::CycleTheme => {
                self.theme_idx = (self.theme_idx + 1) % self.themes.len();
                self.message = Some(format!("theme {}", self.theme().name));
            }
            Action::Help => self.overlay = Overlay::Help,
            Action::Sessions => {
                // Connected, an empty list still offers `n` (a new session).
                if self.book.is_empty() && self.drive.is_none() {
                    self.message =
                        Some("no session list: S switches sessions in `deck connect`".into());
                } else {
                    self.open_picker();
                }
            }
            Action::PlayPause
            | Action::Faster
            | Action::Slower
            | Action::SeekBack
            | Action::SeekForward
            | Action::SeekBackFar
            | Action::SeekForwardFar
            | Action::Jump(_)
            | Action::StepForward
            | Action::StepBack => self.player_action(a),
            Action::ToggleWrap | Action::ScrollLeft | Action::ScrollRight => {}
        }
        Vec::new()
    }

    pub(super) fn player_action(&mut self, a: Action) {
        let Some(p) = self.player.as_mut() else {
            self.message = Some("not a replay: player keys need `deck replay`".into());
            return;
        };
        let before = p.position();
        let dur = p.duration_ms() as i64;
        match a {
            Action::PlayPause => p.toggle(),
            Action::Faster => p.faster(),
            Action::Slower => p.slower(),
            Action::SeekForward => p.seek_by_ms(5_000),
            Action::SeekBack => p.seek_by_ms(-5_000),
            Action::SeekForwardFar => p.seek_by_ms(dur / 10),
            Action::SeekBackFar => p.seek_by_ms(-dur / 10),
            Action::Jump(d) => p.seek_fraction(f64::from(d) / 10.0),
            Action::StepForward => p.step_forward(),
            Action::StepBack => p.step_back(),
            _ => {}
        }
        let after = p.position();
        let speed = p.speed();
        if matches!(a, Action::Faster | Action::Slower) {
            self.message = Some(format!("speed {}", status::speed(speed)));
        }
        if after < before {
            self.resync_after_seek();
        } else if after > before {
            self.sync();
        }
    }

    /// Lay the pager's card out at the current width (cached): keys typed
    /// before the pager is first drawn must find its lines.
    pub(super) fn build_pager(&mut self) {
        let width = self.width as usize;
        let t = self.player.as_ref().map_or(&self.own, Player::transcript);
        let theme = &self.themes[self.theme_idx.min(self.themes.len() - 1)];
        if let Overlay::Pager(p) = &mut self.overlay {
            p.build(t, theme, width);
        }
    }

    /// Matches are list positions: find them again after the list was
    /// rebuilt by a filter (tool cards or reasoning hidden or shown).
    pub(super) fn refresh_matches(&mut self) {
        if self.matches.is_empty() && self.search.is_none() {
            return;
        }
        // Found again quietly: no jump.
        self.start_search(false);
    }

    pub(super) fn pager_action(&mut self, a: Action) -> Vec<Effect> {
        if a == Action::Help {
            if let Overlay::Pager(p) = std::mem::replace(&mut self.overlay, Overlay::Help) {
                self.pager_under_help = Some(p);
            }
            return Vec::new();
        }
        self.build_pager();
        let rows = (self.height as usize).saturating_sub(1);
        let r = rows as isize;
        let Overlay::Pager(p) = &mut self.overlay else {
            return Vec::new();
        };
        match a {
            Action::Quit => return vec![Effect::Quit],
            Action::Back => self.overlay = Overlay::None,
            Action::Next => p.scroll_by(1, rows),
            Action::Prev => p.scroll_by(-1, rows),
            Action::HalfPageDown => p.scroll_by(r / 2, rows),
            Action::HalfPageUp => p.scroll_by(-r / 2, rows),
            Action::PageDown => p.scroll_by(r, rows),
            Action::PageUp => p.scroll_by(-r, rows),
            Action::Top => p.scroll = 0,
            Action::Bottom => p.scroll_by(isize::MAX / 2, rows),
            Action::ToggleWrap => {
                p.toggle_wrap();
                self.message = Some(if p.wrap {
                    "wrap on".into()
                } else {
                    "wrap off: h/l scroll sideways".into()
                });
            }
            Action::ScrollLeft => p.scroll_sideways(-8),
            Action::ScrollRight => p.scroll_sideways(8),
            Action::StartSearch => self.prompt = Some((PromptFor::PagerSearch, String::new())),
            Action::NextMatch | Action::PrevMatch
                if !p.next_match(a == Action::NextMatch, rows) =>
            {
                self.message = Some("no match".into());
            }
            Action::Copy | Action::CopyTarget => return self.copy(a == Action::CopyTarget),
            Action::CycleTheme => {
                self.theme_idx = (self.theme_idx + 1) % self.themes.len();
                self.message = Some(format!("theme {}", self.theme().name));
            }
            _ => {}
        }
        Vec::new()
    }
}
