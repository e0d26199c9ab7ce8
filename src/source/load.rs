//! The loader.
