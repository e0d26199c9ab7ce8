//! Bytes in: files (plain or zstd), stdin; format detection and splitting
//! into records for the reducer.

pub mod load;
