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
