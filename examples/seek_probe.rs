use std::sync::Arc;
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let t0 = Instant::now();
    let l = deck::source::load_path(&path).unwrap();
    println!("load {:?}", t0.elapsed());
    let s = &l.sessions[0];
    let t0 = Instant::now();
    let t = deck::session::Transcript::from_records(None, &s.records);
    println!(
        "fold {:?} items {} cards {}",
        t0.elapsed(),
        t.items.len(),
        t.cards.len()
    );
    let t0 = Instant::now();
    let c = t.clone();
    println!("clone {:?} {}", t0.elapsed(), c.items.len());
    let mut p = deck::app::player::Player::new(Arc::new(s.records.clone()), None, None, 1.0);
    let t0 = Instant::now();
    p.seek_records(s.records.len());
    println!("seek to end {:?}", t0.elapsed());
    for f in [0.9, 0.5, 0.1, 0.95, 0.3] {
        let t0 = Instant::now();
        p.seek_fraction(f);
        println!("seek {f} {:?}", t0.elapsed());
    }
}
