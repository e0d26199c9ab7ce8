//! Bytes into the loader (format detection, zstd, frame and session log
//! lines, history documents), then the fold of every session it found.
#![no_main]

use deck::session::Transcript;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(Ok(loaded)) = deck::source::load::load_reader("fuzz", data) else {
        return;
    };
    for s in &loaded.sessions {
        let t = Transcript::from_records(s.id.clone(), &s.records);
        let _ = t.error_count();
    }
});
