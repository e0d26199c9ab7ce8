//! Tool cards as deck draws them: snapshots of every card kind (generic,
//! read, search, web, terminal, diff, approvals and questions, a call of
//! unknown outcome) at 40, 80 and 120 columns in the dark and light themes;
//! prompts drawn on the card of the call they gated; paths as cards show
//! them; and that a card's text is true (`truthful`).

mod generic_read_search_web;
mod paths;
mod prompt;
mod prompts_on_calls;
mod terminal_diff;
mod truthful;
mod unknown_outcome;
