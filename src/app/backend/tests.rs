use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use ratatui::backend::CrosstermBackend;
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::*;
use crate::app::paint::put;
use crate::text::Line;

/// Bytes written, shared with the test.
#[derive(Clone, Default)]
struct Capture(Rc<RefCell<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const W: u16 = 40;
const H: u16 = 6;

fn lines(from: usize) -> Vec<Line> {
    let parts = ["👨‍👩‍👧 family", "👍🏽 up", "🇵🇹 pt", "नमस्ते", "cafe\u{301}", "plain"];
    (from..from + H as usize)
        .map(|i| Line::plain(format!("{i} {} {}", parts[i % 6], parts[(i + 2) % 6])))
        .collect()
}

fn frame(term: &mut Terminal<impl Backend>, rows: &[Line]) {
    term.draw(|f| {
        let buf = f.buffer_mut();
        for (y, l) in rows.iter().enumerate() {
            put(buf, 0, y as u16, W, l);
        }
    })
    .map(|_| ())
    .unwrap_or_else(|_| panic!("draw"));
}

/// The screen a per-code-point terminal (vt100: a ZWJ family is six
/// columns there) shows after the bytes, blank cells as spaces.
fn screen(bytes: &[u8]) -> Vec<String> {
    let mut p = vt100::Parser::new(H, W, 0);
    p.process(bytes);
    (0..H)
        .map(|r| {
            (0..W)
                .map(|c| {
                    let s = p.screen().cell(r, c).map(|x| x.contents().to_string());
                    match s.as_deref() {
                        None | Some("") => " ".to_string(),
                        Some(s) => s.to_string(),
                    }
                })
                .collect()
        })
        .collect()
}

fn terminal<B: Backend>(b: B) -> Terminal<B> {
    Terminal::with_options(
        b,
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, W, H)),
        },
    )
    .unwrap_or_else(|_| panic!("terminal"))
}

/// Draw the frames one after the other, as scrolling does; the bytes.
fn scrolled(safe: bool, starts: &[usize]) -> Vec<u8> {
    let cap = Capture::default();
    if safe {
        let mut t = terminal(ClusterSafe::new(CrosstermBackend::new(cap.clone())));
        for &s in starts {
            frame(&mut t, &lines(s));
        }
    } else {
        let mut t = terminal(CrosstermBackend::new(cap.clone()));
        for &s in starts {
            frame(&mut t, &lines(s));
        }
    }
    cap.0.take()
}

#[test]
fn scrolled_rows_show_what_a_full_redraw_shows() {
    let steps = [0, 1, 2, 5, 3, 4];
    let expected = screen(&scrolled(true, &[4]));
    assert_eq!(screen(&scrolled(true, &steps)), expected);
    // Without it, the emulator keeps fragments of earlier frames (the
    // reason this backend exists; if ratatui ever fixes it, this fails and
    // the wrapper can go).
    assert_ne!(screen(&scrolled(false, &steps)), expected);
}

#[test]
fn plain_rows_are_sent_as_ratatui_diffs() {
    let cap = Capture::default();
    let mut t = terminal(ClusterSafe::new(CrosstermBackend::new(cap.clone())));
    let a: Vec<Line> = (0..H).map(|i| Line::plain(format!("row {i} abc"))).collect();
    frame(&mut t, &a);
    cap.0.borrow_mut().clear();
    let mut b = a.clone();
    b[2] = Line::plain("row 2 abd");
    frame(&mut t, &b);
    let out = String::from_utf8_lossy(&cap.0.borrow()).into_owned();
    // One changed cell: no erased line, no other row.
    assert!(!out.contains("\u{1b}[2K"), "{out:?}");
    assert!(out.contains('d') && !out.contains("row"), "{out:?}");
}

#[test]
fn which_clusters_are_disputed() {
    for s in ["a", "é", "日", "😀", "│", "·"] {
        assert!(!disputed(s), "{s}");
    }
    for s in ["e\u{301}", "👨‍👩‍👧", "🇵🇹", "👍🏽", "कि", "\u{301}", "\u{200b}"] {
        assert!(disputed(s), "{s}");
    }
}

#[test]
fn a_cluster_split_over_spans_is_one_cell() {
    use ratatui::style::{Color, Style};
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    let l = Line::from_spans(vec![
        crate::text::Span::new("cafe", Style::default().bg(Color::Yellow)),
        crate::text::Span::plain("\u{301}👍"),
        crate::text::Span::plain("🏽!"),
    ]);
    put(&mut buf, 0, 0, 10, &l);
    let cells: Vec<&str> = (0..8).map(|x| buf[(x, 0)].symbol()).collect();
    assert_eq!(cells, ["c", "a", "f", "e\u{301}", "👍🏽", " ", "!", " "]);
    assert_eq!(buf[(3, 0)].bg, Color::Yellow);
}

/// A recording's screen has its own size: the terminal's is never asked
/// (crossterm would run `tput` for it when the output is not a terminal)
/// and does not change what is drawn.
#[test]
fn a_fixed_screen_is_its_own_size() {
    use ratatui::backend::TestBackend;
    let mut b = ClusterSafe::fixed(TestBackend::new(200, 50), W, H);
    assert_eq!(b.size().ok(), Some(Size::new(W, H)));
    assert_eq!(b.window_size().ok().map(|s| s.columns_rows), Some(Size::new(W, H)));
    // Drawn over terminals of two sizes: the same screen.
    let drawn = |term_w: u16, term_h: u16| {
        let mut t = terminal(ClusterSafe::fixed(TestBackend::new(term_w, term_h), W, H));
        for s in [0, 2, 1] {
            frame(&mut t, &lines(s));
        }
        t.backend().inner().buffer().clone()
    };
    let small = drawn(W, H);
    let big = drawn(200, 50);
    for y in 0..H {
        for x in 0..W {
            assert_eq!(small[(x, y)].symbol(), big[(x, y)].symbol(), "{x},{y}");
        }
    }
}
