//! The kit for tool authors, through the binary: `deck card` (one view drawn
//! as deck draws it), `deck lint` (hostile views, warnings, exit codes) and
//! `deck schema` (the JSON Schema of views, held to deck's decoder).

mod card;
mod lint;
mod schema;
