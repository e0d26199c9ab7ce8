//! The `deck` binary from the command line: `render` and `inspect` over
//! real captures and broken inputs, their exit codes and messages
//! (`render_inspect`), the edges a user walks into (`edges`), deck's own log
//! (`logging`) and the modes of what it writes (`private`).

mod edges;
mod logging;
mod private;
mod render_inspect;
