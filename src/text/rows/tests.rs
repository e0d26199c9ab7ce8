use super::*;

fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(Line::text).collect()
}

fn numbered(n: usize) -> impl Iterator<Item = Line> {
    (0..n).map(|i| Line::plain(i.to_string()))
}

#[test]
fn the_preview_keeps_pinned_rows_and_a_capped_head_or_tail() {
    let mut r = Rows::capped(5, Keep::Head);
    r.pin(Line::plain("p"));
    r.extend(numbered(20));
    assert!(!r.showing());
    assert_eq!(
        texts(&r.finish(Style::default())),
        ["p", "0", "1", "2", "… 17 more lines"]
    );
    let mut r = Rows::capped(5, Keep::Tail);
    r.extend(numbered(20));
    assert!(r.showing());
    assert_eq!(
        texts(&r.finish(Style::default())),
        ["… 16 more lines", "16", "17", "18", "19"]
    );
    // Short enough: everything, no marker.
    let mut r = Rows::capped(5, Keep::Head);
    r.extend(numbered(5));
    assert_eq!(r.finish(Style::default()).len(), 5);
    // Many pinned rows still leave three for the rest.
    let mut r = Rows::capped(2, Keep::Head);
    r.pin_all(numbered(4));
    r.extend(numbered(10));
    assert_eq!(r.finish(Style::default()).len(), 4 + 3);
}

#[test]
fn a_pin_after_an_ordinary_row_is_an_ordinary_row() {
    let mut r = Rows::all();
    r.pin(Line::plain("a"));
    r.push(Line::plain("b"));
    r.pin(Line::plain("c"));
    assert_eq!((r.len(), r.pinned()), (3, 1));
    assert_eq!(texts(&r.finish(Style::default())), ["a", "b", "c"]);
}

#[test]
fn rows_handed_on_are_not_kept() {
    let mut seen = Vec::new();
    let mut f = |l: Line| seen.push(l.text());
    let mut r = Rows::each(&mut f);
    r.extend(numbered(3));
    assert!(r.finish(Style::default()).is_empty());
    assert_eq!(seen, ["0", "1", "2"]);
}

#[test]
fn copies_stop_where_the_preview_stops_showing() {
    let lines: Vec<Line> = numbered(50).collect();
    let mut one = Rows::capped(5, Keep::Head);
    one.extend_from_slice(&lines);
    let mut two = Rows::capped(5, Keep::Head);
    two.extend(lines.iter().cloned());
    assert_eq!(one.len(), 50);
    assert_eq!(one.finish(Style::default()), two.finish(Style::default()));
}

#[test]
fn shared_rows_are_kept_in_pieces_and_read_back_in_order() {
    let a: Arc<Vec<Line>> = Arc::new(numbered(3).collect());
    let b: Arc<Vec<Line>> = Arc::new(numbered(2).collect());
    let mut r = Rows::all();
    r.push(Line::plain("x"));
    r.share(&a);
    r.share(&Arc::new(Vec::new()));
    r.share(&b);
    r.push(Line::plain("y"));
    assert_eq!(r.len(), 7);
    let laid = r.finish_laid(Style::default());
    let got: Vec<String> = (0..laid.len())
        .map(|i| laid.get(i).unwrap().text())
        .collect();
    assert_eq!(got, ["x", "0", "1", "2", "0", "1", "y"]);
    assert!(laid.get(7).is_none());
    assert_eq!(texts(&laid.clone().into_vec()), got);
    assert_eq!(laid, Laid::from(laid.clone().into_vec()));
    // A preview copies what it shows and counts the rest.
    let mut p = Rows::capped(3, Keep::Head);
    p.share(&a);
    p.share(&b);
    assert_eq!(
        texts(&p.finish(Style::default())),
        ["0", "1", "… 3 more lines"]
    );
}

#[test]
fn a_million_rows_in_preview_hold_only_what_shows() {
    let mut r = Rows::capped(12, Keep::Tail);
    r.extend(numbered(1_000_000));
    let out = r.finish(Style::default());
    assert_eq!(out.len(), 12);
    assert_eq!(out[0].text(), "… 999989 more lines");
}

/// A row kept laid out holds no more than it has: its spans and their
/// texts in allocations of their size, whatever they grew into.
#[test]
fn kept_rows_hold_only_what_they_have() {
    let mut grown = Line::new();
    for i in 0..5 {
        grown.push_str(format!("part {i}"), Style::default());
    }
    grown.push_str("a long part ".repeat(10), Style::default());
    grown.spans[0].text.reserve(1000);
    grown.spans[5].text.reserve(1000);
    let want = grown.clone();
    assert!(grown.spans.capacity() > grown.spans.len());
    let mut r = Rows::all();
    r.push(grown);
    let laid = r.finish_laid(Style::default());
    let kept = laid.get(0).unwrap();
    assert_eq!(kept, &want);
    assert_eq!(kept.spans.capacity(), kept.spans.len());
    // A short text is held in the span itself, a long one in an
    // allocation of its size.
    assert!(
        kept.spans
            .iter()
            .all(|s| !s.text.is_heap_allocated() || s.text.capacity() == s.text.len())
    );
    assert!(kept.spans[0].text.capacity() < 100);
    assert!(kept.spans[5].text.is_heap_allocated());
}

#[test]
fn a_window_holds_its_rows_and_counts_the_others() {
    let mut r = Rows::window(Window::Range(5, 8));
    r.extend(numbered(20));
    let laid = r.finish_laid(Style::default());
    assert_eq!((laid.len(), laid.held()), (20, 3));
    assert_eq!(laid.get(4), None);
    assert_eq!(laid.get(5).map(Line::text).as_deref(), Some("5"));
    assert_eq!(laid.get(7).map(Line::text).as_deref(), Some("7"));
    assert_eq!(laid.get(8), None);
    assert!(laid.holds(5, 8) && laid.holds(6, 7) && laid.holds(30, 40));
    assert!(!laid.holds(4, 8) && !laid.holds(5, 9));
    assert_eq!(laid.window_start(), Some(5));
    // A window past the end holds what there is; a whole layout has no start.
    let mut r = Rows::window(Window::Range(15, 30));
    r.extend(numbered(20));
    let laid = r.finish_laid(Style::default());
    assert_eq!((laid.len(), laid.held()), (20, 5));
    assert!(laid.holds(15, 40));
    let mut r = Rows::window(Window::Range(0, 30));
    r.extend(numbered(20));
    assert_eq!(r.finish_laid(Style::default()).window_start(), None);
}

#[test]
fn a_window_of_the_last_rows_is_bounded_as_it_goes() {
    let mut r = Rows::window(Window::Last(3));
    r.extend(numbered(1000));
    let laid = r.finish_laid(Style::default());
    assert_eq!((laid.len(), laid.held()), (1000, 3));
    assert_eq!(texts(&laid.into_vec()), ["997", "998", "999"]);
}

#[test]
fn a_window_copies_only_its_rows_of_shared_pieces_and_counts_skipped_ones() {
    let piece = Arc::new(numbered(10).collect::<Vec<_>>());
    let mut r = Rows::window(Window::Range(8, 13));
    r.share(&piece); // rows 0..10: 8 and 9 held
    r.share(&piece); // rows 10..20: 10, 11 and 12 held
    assert!(!r.showing(), "nothing past the window shows");
    r.skip(7, 7);
    let laid = r.finish_laid(Style::default());
    assert_eq!((laid.len(), laid.held()), (27, 5));
    assert_eq!(
        texts(&laid.into_vec()),
        ["8", "9", "0", "1", "2"],
        "rows 8..13"
    );
    let mut r = Rows::window(Window::Last(4));
    r.push(Line::plain("a"));
    r.share(&piece);
    let laid = r.finish_laid(Style::default());
    assert_eq!((laid.len(), laid.held()), (11, 4));
    assert_eq!(texts(&laid.into_vec()), ["6", "7", "8", "9"]);
}
