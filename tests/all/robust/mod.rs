//! What any input does to deck (the README's "Broken input and faults",
//! "Security: untrusted text" and "Robustness"): a damaged log (`broken`),
//! inputs that once cost quadratic time or unbounded memory (`limits`),
//! hostile text that must never control the terminal (`untrusted`), random
//! sessions, views and text (`props`, its regressions in
//! `props.proptest-regressions` beside it), and what the fuzzers found
//! (`fuzz_regressions`).

mod broken;
mod fuzz_regressions;
mod limits;
mod props;
mod untrusted;
