//! deck's hot paths, one criterion bench each, through the library's public
//! API: decoding frame lines, folding records into a transcript, laying out
//! each card kind, syntax highlighting and line diffs per 1k lines, ANSI
//! output, and drawing the viewport.
//!
//! Inputs are the real tour capture (`demo-sessions/tour.frames.jsonl`) and
//! deterministic generated sessions (`support`).
//!
//! `cargo bench --bench hot` (about two minutes), `-- --quick` for a fast
//! pass, or a filter: `cargo bench --bench hot -- 'card/'`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod support;

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use deck::app::{App, Msg};
use deck::cards::{self, Ctx, Density};
use deck::headless::{Format, write_lines};
use deck::load::decode::decode_line;
use deck::session::{ToolCard, Transcript};
use deck::text::highlight::{Highlighter, highlight};
use deck::theme::Theme;
use deck::view::list::{Anchor, ListOptions, TranscriptList};
use deck::wire::{Frame, Origin, Record, View};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use serde_json::{Value, json};

/// The tour capture's frame log, in the repo.
fn tour_path() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("demo-sessions/tour.frames.jsonl");
    p.to_string_lossy().into_owned()
}

fn tour_transcript(path: &str) -> Transcript {
    let l = deck::source::load_path(path).expect("tour loads");
    let s = &l.sessions[0];
    Transcript::from_records(s.id.clone(), &s.records, deck::stock())
}

fn fold_one(records: &[Record]) -> Arc<ToolCard> {
    let t = Transcript::from_records(None, records.iter(), deck::stock());
    t.cards()[0].clone()
}

/// One terminal result line as the host sends it: `n` lines of ANSI output.
fn terminal_line(n: usize) -> String {
    let output: String = (0..n)
        .map(|i| format!("\u{1b}[32mtest\u{1b}[0m case_{i} ... ok\n"))
        .collect();
    json!({"type": "server-request", "rpcId": "r1", "method": "session/event", "payload": {
        "type": "session/event", "sessionId": "bench", "event": {"type": "tool/result", "seq": 9, "time": 1,
        "data": {"turn": 1, "step": 1, "message": {"content": [{"type": "tool-result", "toolCallId": "c1",
        "content": [{"type": "text", "text": output.clone()}], "isError": false}]}}},
        "view": {"for": "result", "view": {"card": "terminal", "output": output, "exitCode": 0}}}})
    .to_string()
}

fn chunk_line() -> String {
    json!({"type": "server-request", "rpcId": "r2", "method": "session/event", "payload": {
        "type": "session/event", "sessionId": "bench", "event": {"type": "assistant/chunk", "seq": 10, "time": 2,
        "data": {"turn": 1, "step": 1, "chunk": {"type": "text-delta", "index": 0, "text": "the parser reads each "}}}}})
    .to_string()
}

fn parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse");
    let one = |g: &mut criterion::BenchmarkGroup<_>, name: &str, line: &str| {
        g.throughput(Throughput::Bytes(line.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| decode_line(black_box(line.as_bytes()), Origin::default(), false))
        });
    };
    one(&mut g, "decode_line chunk", &chunk_line());
    one(&mut g, "decode_line terminal 60 lines", &terminal_line(60));
    // serde_json alone, for the share of decode_line that is JSON parsing.
    let term = terminal_line(60);
    g.throughput(Throughput::Bytes(term.len() as u64));
    g.bench_function("serde_json Value terminal 60 lines", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&term)).unwrap())
    });
    g.bench_function("Frame::from_owned terminal 60 lines", |b| {
        let v: Value = serde_json::from_str(&term).unwrap();
        let payload = v["payload"].clone();
        b.iter_batched(
            || payload.clone(),
            |p| Frame::from_owned(p).unwrap(),
            criterion::BatchSize::SmallInput,
        )
    });
    let path = tour_path();
    let bytes = std::fs::read(&path).unwrap();
    let lines: Vec<&[u8]> = bytes
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function(format!("decode_line tour ({} lines)", lines.len()), |b| {
        b.iter(|| {
            for l in &lines {
                black_box(decode_line(l, Origin::default(), false));
            }
        })
    });
    g.bench_function("load_bytes tour", |b| {
        b.iter(|| deck::source::load_bytes("tour", black_box(&bytes)).unwrap())
    });
    g.finish();
}

fn fold(c: &mut Criterion) {
    let mut g = c.benchmark_group("fold");
    // Tens of ms per iteration: flat sampling keeps the run short.
    g.sampling_mode(SamplingMode::Flat);
    let records = support::records(3_000);
    g.throughput(Throughput::Elements(records.len() as u64));
    g.bench_function(format!("from_records {} events", records.len()), |b| {
        b.iter(|| Transcript::from_records(None, records.iter(), deck::stock()).events())
    });
    let path = tour_path();
    let l = deck::source::load_path(&path).unwrap();
    let s = &l.sessions[0];
    g.throughput(Throughput::Elements(s.records.len() as u64));
    g.bench_function("from_records tour", |b| {
        b.iter(|| Transcript::from_records(s.id.clone(), s.records.iter(), deck::stock()).events())
    });
    g.finish();
}

/// Cards of each kind: the tour's first card of each view tag, and big
/// generated read / diff / terminal cards.
fn card_layout(c: &mut Criterion) {
    let theme = Theme::dark();
    let ctx = Ctx::new(100, &theme, Density::Full);
    let mut g = c.benchmark_group("card");
    // Tens of ms per iteration: flat sampling keeps the run short.
    g.sampling_mode(SamplingMode::Flat);
    let path = tour_path();
    let t = tour_transcript(&path);
    for tag in deck::wire::view::CARD_TAGS {
        let card = t
            .cards()
            .iter()
            .filter(|c| cards::resolve(c).view.tag() == *tag)
            .max_by_key(|c| cards::render(c, &ctx).len());
        let Some(card) = card else {
            eprintln!("hot: the tour has no {tag} card");
            continue;
        };
        g.bench_with_input(BenchmarkId::new("tour", tag), card, |b, card| {
            b.iter(|| cards::render(card, &ctx))
        });
    }
    let rust = support::rust_lines(1_000);
    let lines: Vec<Value> = rust
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"number": i + 1, "text": t}))
        .collect();
    let read = fold_one(&support::call_records(
        json!({"card": "generic", "title": "Read src/big.rs", "kind": "read"}),
        json!({"card": "read", "path": "src/big.rs", "offset": 1, "lines": lines, "totalLines": 1000, "lang": "rust"}),
    ));
    g.throughput(Throughput::Elements(1_000));
    g.bench_function("read 1k lines", |b| b.iter(|| cards::render(&read, &ctx)));

    let old = rust.join("\n") + "\n";
    let new = support::edited(&rust).join("\n") + "\n";
    let diff = fold_one(&support::call_records(
        json!({"card": "generic", "title": "Edit src/big.rs", "kind": "edit"}),
        json!({"card": "diff", "diffs": [{"path": "src/big.rs", "oldText": old, "newText": new}]}),
    ));
    g.bench_function("diff 1k lines", |b| b.iter(|| cards::render(&diff, &ctx)));

    let output: String = (0..1_000)
        .map(|i| format!("\u{1b}[32mtest\u{1b}[0m case_{i} ... \u{1b}[1mok\u{1b}[0m\n"))
        .collect();
    let term = fold_one(&support::call_records(
        json!({"card": "terminal", "title": "cargo test"}),
        json!({"card": "terminal", "output": output, "exitCode": 0}),
    ));
    g.bench_function("terminal 1k lines", |b| {
        b.iter(|| cards::render(&term, &ctx))
    });
    let preview = Ctx::new(100, &theme, Density::Preview);
    g.bench_function("terminal 1k lines preview", |b| {
        b.iter(|| cards::render(&term, &preview))
    });
    g.finish();
}

fn highlighting(c: &mut Criterion) {
    let theme = Theme::dark();
    let rust = support::rust_lines(1_000);
    let text = rust.join("\n") + "\n";
    let mut g = c.benchmark_group("highlight");
    // Tens of ms per iteration: flat sampling keeps the run short.
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Elements(1_000));
    g.bench_function("rust 1k lines", |b| {
        b.iter(|| highlight(black_box(&text), Some("rust"), &theme, Style::default()))
    });
    g.bench_function("Highlighter::new rust", |b| {
        b.iter(|| black_box(Highlighter::new(Some("rust"), &theme, Style::default())))
    });
    g.bench_function("plain (no language) 1k lines", |b| {
        b.iter(|| highlight(black_box(&text), None, &theme, Style::default()))
    });
    g.finish();
}

fn diffing(c: &mut Criterion) {
    let theme = Theme::dark();
    let rust = support::rust_lines(1_000);
    // Views are built as the host sends them: from their JSON.
    let View::Diff(view) = View::parse(&json!({
        "card": "diff",
        "diffs": [{
            "path": "src/big.rs",
            "oldText": rust.join("\n") + "\n",
            "newText": support::edited(&rust).join("\n") + "\n",
        }],
    }))
    .unwrap() else {
        unreachable!("a diff view")
    };
    let mut g = c.benchmark_group("diff");
    // Tens of ms per iteration: flat sampling keeps the run short.
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Elements(1_000));
    // `outcome` computes the model (line diff, hunks, counts) and nothing else.
    g.bench_function("model 1k lines (outcome)", |b| {
        b.iter(|| cards::diff::outcome(black_box(&view)))
    });
    for width in [100, 200] {
        let ctx = Ctx::new(width, &theme, Density::Full);
        g.bench_function(BenchmarkId::new("body 1k lines", width), |b| {
            b.iter(|| cards::diff::body(black_box(&view), &ctx).lines.len())
        });
    }
    g.finish();
}

fn output(c: &mut Criterion) {
    let theme = Theme::dark();
    let ctx = Ctx::new(100, &theme, Density::Full);
    let rust = support::rust_lines(1_000);
    let lines: Vec<Value> = rust
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"number": i + 1, "text": t}))
        .collect();
    let read = fold_one(&support::call_records(
        json!({"card": "generic", "title": "Read src/big.rs", "kind": "read"}),
        json!({"card": "read", "path": "src/big.rs", "offset": 1, "lines": lines, "totalLines": 1000, "lang": "rust"}),
    ));
    let laid = cards::render(&read, &ctx);
    let mut g = c.benchmark_group("write");
    g.throughput(Throughput::Elements(laid.len() as u64));
    g.bench_function("ansi read card 1k lines", |b| {
        b.iter(|| write_lines(black_box(&laid), Format::Ansi).len())
    });
    g.finish();
}

fn viewport(c: &mut Criterion) {
    let theme = Theme::dark();
    let records = support::records(3_000);
    let t = Transcript::from_records(Some("bench".into()), records.iter(), deck::stock());
    let mut g = c.benchmark_group("viewport");

    // Cold: a fresh list laid out at a pseudo-random place each time.
    let opts = ListOptions {
        width: 200,
        density: Density::Preview,
        show_reasoning: true,
        hide_tools: false,
        now_ms: None,
        tick: 0,
    };
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    g.bench_function("list visible 60 rows cold (3k cards)", |b| {
        b.iter(|| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut list = TranscriptList::new();
            list.sync(&t, &opts);
            list.follow = false;
            list.anchor = Anchor {
                entry: (x % list.entries.len() as u64) as usize,
                row: 0,
            };
            list.visible(&t, &theme, &opts, 60).len()
        })
    });

    // The app's own draw into a 200×60 buffer: the same screen (cached
    // layouts), and after a page down each time.
    let mut app = App::viewer("bench".into(), t.clone(), vec![Theme::dark()]);
    app.update(Msg::Resize(200, 60));
    let mut buf = Buffer::empty(Rect::new(0, 0, 200, 60));
    deck::app::draw::frame(&mut app, &mut buf);
    g.bench_function("app draw 200x60 same screen", |b| {
        b.iter(|| {
            buf.reset();
            deck::app::draw::frame(&mut app, &mut buf);
        })
    });
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    g.bench_function("app draw 200x60 after page down", |b| {
        b.iter(|| {
            app.update(Msg::Key(KeyEvent::new(
                KeyCode::PageDown,
                KeyModifiers::NONE,
            )));
            if app.list().anchor.entry + 20 >= app.list().entries.len() {
                app.update(Msg::Key(KeyEvent::new(KeyCode::Home, KeyModifiers::NONE)));
            }
            buf.reset();
            deck::app::draw::frame(&mut app, &mut buf);
        })
    });
    // deck connect with a 60 KB paste in the message field: a key that
    // moves the cursor, then the draw (the field is wrapped once per change,
    // not on every look at the list's height).
    let mut app = App::live("bench".into(), Some("bench".into()), vec![Theme::dark()]);
    app.enable_driving(Vec::new());
    app.update(Msg::Resize(200, 60));
    app.update(Msg::Records(records.clone()));
    let paste: String = (0..2000)
        .map(|i| format!("line {i} with a few words\n"))
        .collect();
    app.update(Msg::Paste(paste));
    g.bench_function("connect key + draw with a 60 KB message", |b| {
        b.iter(|| {
            app.update(Msg::Key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)));
            buf.reset();
            deck::app::draw::frame(&mut app, &mut buf);
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = parse, fold, card_layout, highlighting, diffing, output, viewport
}
criterion_main!(benches);
