//! Where deck keeps its files, by the XDG base directories (`etcetera`):
//! the configuration (`$XDG_CONFIG_HOME/deck`), its state — the prompt
//! history, the log — (`$XDG_STATE_HOME/deck`) and its caches
//! (`$XDG_CACHE_HOME/deck`). Unset or relative variables fall back to
//! `~/.config`, `~/.local/state` and `~/.cache`.

use std::path::PathBuf;

use etcetera::base_strategy::{BaseStrategy, Xdg};

/// `$XDG_CONFIG_HOME/deck`; `None` without a home directory.
pub fn config() -> Option<PathBuf> {
    Xdg::new().ok().map(|x| x.config_dir().join("deck"))
}

/// `$XDG_STATE_HOME/deck`.
pub fn state() -> Option<PathBuf> {
    Xdg::new()
        .ok()
        .and_then(|x| x.state_dir())
        .map(|d| d.join("deck"))
}

/// `$XDG_CACHE_HOME/deck` (the session library's index).
pub fn cache() -> Option<PathBuf> {
    Xdg::new().ok().map(|x| x.cache_dir().join("deck"))
}
