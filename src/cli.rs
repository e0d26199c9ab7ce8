//! Command-line interface (clap derive types).
