//! Views over a transcript: laying items out into lines at a width
//! (shared by the headless renderer and, later, the TUI).

pub mod transcript;
