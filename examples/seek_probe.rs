use std::sync::Arc;
use std::time::Instant;
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
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
    let recs = Arc::new(s.records.clone());
    let mut p = deck::app::player::Player::new(recs, None, None, 1.0);
    let t0 = Instant::now();
    while !p.snapshots_complete() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    println!(
        "background snapshots {:?} ({})",
        t0.elapsed(),
        p.snapshot_count()
    );
    for f in [0.9, 0.5, 0.1, 0.95, 0.3, 1.0, 0.0, 0.77] {
        let t0 = Instant::now();
        p.seek_fraction(f);
        println!("seek {f} {:?}", t0.elapsed());
    }
    // Draw timing
    let mut app = deck::app::App::viewer("x".into(), t, vec![deck::theme::Theme::dark()]);
    let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 200, 60));
    app.update(deck::app::Msg::Resize(200, 60));
    let mut times = vec![];
    for i in 0..300 {
        let key = if i % 3 == 0 {
            'j'
        } else if i % 7 == 0 {
            'G'
        } else if i % 11 == 0 {
            'g'
        } else {
            'j'
        };
        let k = crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char(key),
            crossterm::event::KeyModifiers::NONE,
        );
        app.update(deck::app::Msg::Key(k));
        let t0 = Instant::now();
        deck::app::draw::draw(&mut app, &mut buf);
        times.push(t0.elapsed().as_micros());
    }
    times.sort();
    println!(
        "draw p50 {}us p99 {}us max {}us",
        times[150], times[297], times[299]
    );
}
