//! The DSH host client.

pub mod stitch;
