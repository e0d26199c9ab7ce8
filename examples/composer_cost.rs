use deck::app::{App, Msg};
use deck::theme::Theme;
fn main() {
    let mut app = App::live("h".into(), Some("s".into()), vec![Theme::dark()]);
    app.enable_driving(vec![]);
    app.update(Msg::Resize(120, 40));
    let text: String = (0..2000)
        .map(|i| format!("line {i} with some words in it\n"))
        .collect();
    app.update(Msg::Paste(text.clone()));
    println!("{} bytes", text.len());
    let t = std::time::Instant::now();
    for _ in 0..100 {
        std::hint::black_box(app.list_rows());
    }
    println!("list_rows: {:?} each", t.elapsed() / 100);
}
