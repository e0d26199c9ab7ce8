//! Tests of the lint: see tests/all/lint.rs for the CLI.
