//! Tests of the virtualised list: progressive layout (plain, then
//! coloured, same rows) and heavy cards laid out off-thread.

use super::*;
use crate::source::{demo, load_bytes};

fn showcase() -> Transcript {
    let l = load_bytes("demo", demo::SHOWCASE).unwrap();
    let s = &l.sessions[0];
    Transcript::from_records(s.id.clone(), &s.records, crate::agents::stock())
}

/// 100 columns, preview, reasoning shown, tools shown.
fn options() -> ListOptions {
    ListOptions::new(100, Density::Preview)
}

fn coloured(lines: &Laid) -> usize {
    let mut fgs = std::collections::HashSet::new();
    for l in lines.iter() {
        for s in &l.spans {
            fgs.insert(format!("{:?}", s.style.fg));
        }
    }
    fgs.len()
}

#[test]
fn progressive_layout_is_plain_first_then_coloured_with_the_same_rows() {
    let t = showcase();
    let theme = Theme::dark();
    let opts = options();
    let read_item = t
        .items()
        .iter()
        .position(|it| {
            matches!(it, Item::Tool(i) if t.cards()[*i].result_view.as_ref().and_then(|v| v.tag()).as_deref() == Some("read"))
        })
        .expect("the showcase has a read card");
    let mut final_list = TranscriptList::new();
    final_list.sync(&t, &opts);
    let entry = final_list
        .entries
        .iter()
        .position(|&i| i == read_item)
        .unwrap();
    let direct = final_list.lines(&t, &theme, &opts, entry);

    let mut list = TranscriptList::new();
    list.progressive = true;
    list.sync(&t, &opts);
    let first = list.lines(&t, &theme, &opts, entry);
    let text = |ls: &Laid| ls.iter().map(Line::text).collect::<Vec<_>>();
    assert_eq!(text(&first), text(&direct), "same text, same rows");
    assert!(
        coloured(&first) < coloured(&direct),
        "the first layout has no syntax colours"
    );
    assert!(list.layouts_pending());
    let start = std::time::Instant::now();
    while !list.poll_layouts() {
        assert!(
            start.elapsed().as_secs() < 30,
            "the coloured layout never came"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let later = list.lines(&t, &theme, &opts, entry);
    assert_eq!(*later, *direct);
    assert!(!list.layouts_pending());
}

fn heavy() -> Transcript {
    let output = "x".repeat(worker::HEAVY_BYTES + 10);
    let lines = [
        serde_json::json!({"type":"tool/call","seq":1,"time":1,"data":{"callId":"c","name":"t","arguments":"{}"}}),
        serde_json::json!({"type":"tool/result","seq":2,"time":2,"data":{"message":{"content":[
            {"type":"tool-result","toolCallId":"c","content":[{"type":"text","text":output}]}]}}}),
    ];
    let records: Vec<crate::wire::Record> = lines
        .iter()
        .map(|v| {
            let f = crate::wire::Frame::from_value(v).unwrap();
            crate::wire::Record::from_frame(f, crate::wire::Origin::default())
        })
        .collect();
    Transcript::from_records(None, &records, crate::agents::stock())
}

fn wait_for_layouts(list: &mut TranscriptList) {
    let start = std::time::Instant::now();
    while !list.poll_layouts() {
        assert!(start.elapsed().as_secs() < 30, "the layout never came");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn a_heavy_card_shows_a_placeholder_until_its_layout_arrives() {
    let t = heavy();
    let theme = Theme::dark();
    let opts = ListOptions::new(80, Density::Full);
    let mut list = TranscriptList::new();
    list.sync(&t, &opts);
    let first = list.lines(&t, &theme, &opts, 0);
    assert!(first.iter().any(|l| l.text().contains("laying out")));
    // Asked again while waiting: the same stand-in, no second job.
    assert!(Arc::ptr_eq(&first, &list.lines(&t, &theme, &opts, 0)));
    wait_for_layouts(&mut list);
    let done = list.lines(&t, &theme, &opts, 0);
    let direct = render_item_tick(
        &t,
        &t.items()[0],
        &theme,
        &LayoutOptions::new(80 - MARGIN, Density::Full),
        0,
    );
    assert_eq!(*done, Laid::from(direct));
    assert!(!list.layouts_pending());
}

#[test]
fn an_item_merged_away_rebuilds_the_entries_and_keeps_the_view_where_it_was() {
    let l = load_bytes("demo", demo::SHOWCASE).unwrap();
    let records = &l.sessions[0].records;
    let resolved = records
        .iter()
        .position(|r| matches!(r, crate::wire::Record::Frame { kind, .. } if kind == "approval/resolved"))
        .expect("the showcase answers an approval");
    let mut t = Transcript::from_records(
        None,
        &records[..resolved],
        crate::agents::stock(),
    );
    let opts = options();
    let mut list = TranscriptList::new();
    list.sync(&t, &opts);
    let waiting = t
        .items()
        .iter()
        .position(|i| matches!(i, Item::Prompt(p) if p.answerable()))
        .expect("the approval waits for an answer");
    let call = t
        .items()
        .iter()
        .position(|i| matches!(i, Item::Tool(c) if t.cards()[*c].call_id == "sc_deploy"))
        .unwrap();
    assert!(list.entries.contains(&waiting) && !list.entries.contains(&call));
    // The view somewhere above, not following.
    list.follow = false;
    list.focus = 4;
    list.anchor = Anchor { entry: 3, row: 2 };
    let (focus_item, anchor_item) = (list.entries[4], list.entries[3]);
    t.apply(&records[resolved]);
    list.sync(&t, &opts);
    assert!(!list.entries.contains(&waiting) && list.entries.contains(&call));
    assert_eq!(list.entries[list.focus], focus_item);
    assert_eq!(list.entries[list.anchor.entry], anchor_item);
    assert_eq!(list.anchor.row, 2);
}

#[test]
fn a_focus_far_below_ends_where_stepping_down_to_it_ends_and_lays_out_only_near_it() {
    let t = showcase();
    let theme = Theme::dark();
    let rows = 12;
    for opts in [options(), ListOptions::new(40, Density::Full)] {
        let fresh = || {
            let mut l = TranscriptList::new();
            l.follow = false;
            l.sync(&t, &opts);
            l
        };
        let last = fresh().entries.len() - 1;
        assert!(last > rows, "the showcase is longer than a screen");
        for target in [rows + 1, last / 2, last] {
            // One entry at a time: each reveal walks the entries it passes.
            let mut s = fresh();
            for f in 1..=target {
                s.focus = f;
                s.reveal_focus(&t, &theme, &opts, rows);
            }
            // At once, from the top.
            let mut jumped = fresh();
            jumped.focus = target;
            jumped.reveal_focus(&t, &theme, &opts, rows);
            assert_eq!(
                (jumped.anchor.entry, jumped.anchor.row),
                (s.anchor.entry, s.anchor.row),
                "focus {target}, width {}",
                opts.width
            );
            // Only the entries on the screen were laid out.
            assert!(jumped.cache.len() <= rows + 1, "{}", jumped.cache.len());
        }
    }
}

/// Layouts the list lets go of (trimmed away, a stand-in replaced) are
/// sent to the layout thread to be dropped, and dropped: none is kept.
#[test]
fn layouts_let_go_of_are_dropped_on_the_layout_thread() {
    let t = showcase();
    let theme = Theme::dark();
    let opts = options();
    let mut list = TranscriptList::new();
    list.progressive = true;
    list.follow = false;
    list.sync(&t, &opts);
    let n = list.entries.len();
    let held: Vec<Arc<Laid>> = (0..n).map(|e| list.lines(&t, &theme, &opts, e)).collect();
    assert!(list.cache.worker.is_some(), "cards went to the layout thread");
    // Coloured layouts replace the plain ones; then everything but the
    // first entry is trimmed away.
    let start = std::time::Instant::now();
    while list.layouts_pending() {
        list.poll_layouts();
        assert!(start.elapsed().as_secs() < 30, "the layouts never came");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    list.anchor = Anchor::default();
    list.trim_cache(0);
    assert!(list.cache.gone.is_empty(), "sent to be dropped");
    assert!(list.cache.len() < n);
    // Only this test holds what the cache let go of, once the thread has
    // dropped its share.
    let kept: std::collections::HashSet<*const Laid> =
        list.cache.map.values().map(|v| Arc::as_ptr(&v.1)).collect();
    let start = std::time::Instant::now();
    for laid in held.iter().filter(|l| !kept.contains(&Arc::as_ptr(l))) {
        while Arc::strong_count(laid) > 1 {
            assert!(start.elapsed().as_secs() < 30, "a layout let go of was never dropped");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// A session whose one answer is a markdown list of `items` items.
fn giant_answer(items: usize) -> Transcript {
    let text: String = (0..items)
        .map(|i| format!("- item number {i} with a few words of text\n"))
        .collect();
    let lines = [
        serde_json::json!({"type": "session", "id": "s", "version": 1}),
        serde_json::json!({"type": "turn/start", "seq": 1, "time": 1, "data": {"turn": 1}}),
        serde_json::json!({"type": "assistant/message", "seq": 2, "time": 2, "data": {
            "turn": 1, "message": {"content": [{"type": "text", "text": text}]}}}),
        serde_json::json!({"type": "turn/end", "seq": 3, "time": 3, "data": {"turn": 1, "reason": "completed"}}),
    ];
    let bytes: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let l = load_bytes("giant", bytes.as_bytes()).unwrap();
    let s = &l.sessions[0];
    Transcript::from_records(s.id.clone(), &s.records, crate::agents::stock())
}

/// A giant answer's rows are held a window at a time: anywhere the screen
/// goes (start, middle, end; from the top or following the end) it shows
/// the rows a whole layout has, and the list never holds more than a
/// window of them.
#[test]
fn a_giant_answer_is_held_a_window_at_a_time_and_drawn_as_a_whole() {
    let t = giant_answer(15_000);
    let theme = Theme::dark();
    let opts = options();
    let (item, answer) = t
        .items()
        .iter()
        .enumerate()
        .find(|(_, i)| matches!(i, Item::Assistant(_)))
        .unwrap();
    assert!(crate::view::transcript::item_weight(&t, answer) >= window::GIANT);
    let whole = render_item_laid(&t, answer, &theme, &opts.layout(opts.density), 0, None);
    assert!(whole.len() > 3 * window::WINDOW, "{} rows", whole.len());
    let text_of = |rows: &[Shown]| -> Vec<String> {
        rows.iter().map(|r| r.line().map(Line::text).unwrap_or_default()).collect()
    };
    let mut list = TranscriptList::new();
    list.follow = false;
    list.sync(&t, &opts);
    let entry = list.entries.iter().position(|&i| i == item).unwrap();
    let held = |list: &TranscriptList| list.cache.map.get(&item).map(|e| e.1.held());
    for at in [0, 5_000, whole.len() / 2, 1_000, whole.len() - 20] {
        list.anchor = Anchor { entry, row: at };
        let shown = list.visible(&t, &theme, &opts, 40);
        let want: Vec<String> = (at..at + 40)
            .map_while(|r| whole.get(r).map(Line::text))
            .collect();
        assert_eq!(text_of(&shown[..want.len()]), want, "rows from {at}");
        assert!(held(&list).unwrap() <= window::WINDOW, "held {:?}", held(&list));
        assert_eq!(list.lines(&t, &theme, &opts, entry).len(), whole.len());
    }
    // Following the end: its last rows, held a window at a time.
    let mut list = TranscriptList::new();
    list.sync(&t, &opts);
    assert!(list.follow);
    let shown = list.visible(&t, &theme, &opts, 40);
    let on_answer: Vec<&Shown> = shown.iter().filter(|r| r.entry == entry).collect();
    assert!(!on_answer.is_empty());
    for r in on_answer {
        assert_eq!(r.line().map(Line::text), whole.get(r.row).map(Line::text));
    }
    assert!(held(&list).unwrap() <= window::WINDOW);
}
