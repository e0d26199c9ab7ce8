fn main() {
    let p = std::env::args().nth(1).unwrap();
    let t0 = std::time::Instant::now();
    let bytes = std::fs::read(&p).unwrap();
    let t1 = t0.elapsed();
    let l = deck::source::load_bytes(&p, &bytes).unwrap();
    let t2 = t0.elapsed();
    let s = &l.sessions[0];
    let t = deck::session::Transcript::from_records(s.id.clone(), &s.records);
    let t3 = t0.elapsed();
    eprintln!("read {:?} load {:?} fold {:?} cards {}", t1, t2 - t1, t3 - t2, t.cards.len());
}
