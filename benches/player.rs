//! The replay player on a 100k-event session: folding, and seeking to
//! random places (backwards and far ahead) once the background fold has
//! kept its snapshots. Target: a seek fits in one frame (16 ms).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod support;

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use deck::app::player::Player;
use deck::session::Transcript;

fn bench(c: &mut Criterion) {
    // 34k cards ≈ 100k events.
    let records = Arc::new(support::records(34_000));
    assert!(records.len() >= 100_000, "{}", records.len());
    c.bench_function("fold 100k events", |b| {
        b.iter(|| Transcript::from_records(None, records.iter(), deck::stock()).events())
    });

    let mut player = Player::new(records.clone(), None, None, 1.0);
    while !player.snapshots_complete() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    c.bench_function("seek anywhere in 100k events", |b| {
        b.iter(|| {
            // xorshift: deterministic pseudo-random targets
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            player.seek_records((x % records.len() as u64) as usize);
            player.position()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
