//! Syntax highlighting with syntect on the Oniguruma engine, using bat's
//! syntax and theme collections from two-face. Input lines are sanitized
//! *before* highlighting, so control characters become visible glyphs and can
//! never reach the terminal; output is one [`Line`] per input line.

use std::sync::OnceLock;

use ratatui::style::{Color, Modifier, Style};
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, Theme as SynTheme};
use syntect::parsing::{SyntaxReference, SyntaxSet};

use super::line::{Line, Span};
use super::sanitize;
use crate::theme::Theme;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(two_face::syntax::extra_newlines)
}

fn themes() -> &'static two_face::theme::EmbeddedLazyThemeSet {
    static SET: OnceLock<two_face::theme::EmbeddedLazyThemeSet> = OnceLock::new();
    SET.get_or_init(two_face::theme::extra)
}

fn syn_theme(name: &str) -> Option<&'static SynTheme> {
    two_face::theme::EmbeddedLazyThemeSet::theme_names()
        .iter()
        .find(|n| n.as_name().eq_ignore_ascii_case(name))
        .map(|n| themes().get(*n))
}

/// Find a syntax by a language token (`rs`, `py`, `rust`, `sh`, `json`, …).
pub fn find_syntax(lang: &str) -> Option<&'static SyntaxReference> {
    let set = syntaxes();
    let lang = lang.trim().trim_start_matches('.');
    if lang.is_empty() {
        return None;
    }
    set.find_syntax_by_token(lang)
        .or_else(|| set.find_syntax_by_extension(&lang.to_ascii_lowercase()))
        .or_else(|| set.find_syntax_by_name(lang))
}

/// The language token for a file path: its extension, or a well-known file name.
pub fn lang_for_path(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let special = match name {
        "Makefile" | "makefile" | "GNUmakefile" => Some("make"),
        "Dockerfile" => Some("dockerfile"),
        "CMakeLists.txt" => Some("cmake"),
        ".bashrc" | ".zshrc" | ".profile" => Some("sh"),
        _ => None,
    };
    if let Some(s) = special {
        return Some(s.to_string());
    }
    let (stem, ext) = name.rsplit_once('.')?;
    if stem.is_empty() && !ext.is_empty() {
        // A dotfile such as `.gitignore`.
        return Some(ext.to_string());
    }
    Some(ext.to_string())
}

/// bat's `ansi` themes encode palette colours with the alpha channel:
/// `a == 0` means palette index `r`, `a == 1` the terminal's default colour.
fn to_color(c: syntect::highlighting::Color) -> Option<Color> {
    match c.a {
        0 => Some(match c.r {
            0 => Color::Black,
            1 => Color::Red,
            2 => Color::Green,
            3 => Color::Yellow,
            4 => Color::Blue,
            5 => Color::Magenta,
            6 => Color::Cyan,
            7 => Color::Gray,
            n => Color::Indexed(n),
        }),
        1 => None,
        _ => Some(Color::Rgb(c.r, c.g, c.b)),
    }
}

fn span_style(st: syntect::highlighting::Style) -> Style {
    let mut style = Style::default();
    if let Some(fg) = to_color(st.foreground) {
        style = style.fg(fg);
    }
    if st.font_style.contains(FontStyle::BOLD) {
        style = style.add_modifier(Modifier::BOLD);
    }
    if st.font_style.contains(FontStyle::ITALIC) {
        style = style.add_modifier(Modifier::ITALIC);
    }
    if st.font_style.contains(FontStyle::UNDERLINE) {
        style = style.add_modifier(Modifier::UNDERLINED);
    }
    style
}

/// The syntax and syntax theme for `lang` in `theme`; `None` when the theme
/// has no syntax colours or the language is unknown.
fn grammar(
    lang: Option<&str>,
    theme: &Theme,
) -> Option<(&'static SyntaxReference, &'static SynTheme)> {
    Some((find_syntax(lang?)?, syn_theme(theme.syntax.as_deref()?)?))
}

/// True when code in `lang` gets colours in `theme`.
pub fn colours(lang: Option<&str>, theme: &Theme) -> bool {
    grammar(lang, theme).is_some()
}

/// A stateful highlighter for one block of code, fed line by line.
pub struct Highlighter {
    inner: Option<HighlightLines<'static>>,
    /// The syntax theme, to rebuild `inner` from a [`Checkpoint`].
    syn_theme: Option<&'static SynTheme>,
    base: Style,
    /// Lines still to colour; after them lines come out plain.
    left: usize,
}

impl Highlighter {
    /// A highlighter for `lang` in `theme`; plain (in `base`) when the theme
    /// has no syntax colours or the language is unknown.
    pub fn new(lang: Option<&str>, theme: &Theme, base: Style) -> Highlighter {
        let g = grammar(lang, theme);
        Highlighter {
            inner: g.map(|(syntax, st)| HighlightLines::new(syntax, st)),
            syn_theme: g.map(|(_, st)| st),
            base,
            left: usize::MAX,
        }
    }

    /// Colour only the first `lines` lines (the rest come out plain, in `base`).
    pub fn limit(mut self, lines: usize) -> Highlighter {
        self.left = lines;
        self
    }

    /// From now on, lines come out plain (they will not be shown in colour).
    pub fn stop(&mut self) {
        self.left = 0;
    }

    /// The state reached so far, to [`resume`](Self::resume) from later
    /// (e.g. the two sides of a changed block both start where the context
    /// before it left off).
    pub fn checkpoint(&mut self) -> Checkpoint {
        let (Some(h), Some(st)) = (self.inner.take(), self.syn_theme) else {
            return Checkpoint(None);
        };
        let (hs, ps) = h.state();
        self.inner = Some(HighlightLines::from_state(st, hs.clone(), ps.clone()));
        Checkpoint(Some((hs, ps)))
    }

    /// Go back to a state saved by [`checkpoint`](Self::checkpoint).
    pub fn resume(&mut self, at: &Checkpoint) {
        if let (Some((hs, ps)), Some(st)) = (&at.0, self.syn_theme) {
            self.inner = Some(HighlightLines::from_state(st, hs.clone(), ps.clone()));
        }
    }

    /// Highlight the next line (without its newline). Controls are sanitized.
    /// A line longer than [`MAX_LINE_BYTES`] comes out plain and leaves the
    /// parser where it was (a minified file, a data blob: colours would
    /// cost seconds and show nothing).
    pub fn line(&mut self, raw: &str) -> Line {
        let clean = sanitize::line(raw);
        let Some(h) = self
            .inner
            .as_mut()
            .filter(|_| self.left > 0 && raw.len() <= MAX_LINE_BYTES)
        else {
            return Line::styled(clean.into_owned(), self.base);
        };
        self.left -= 1;
        let with_nl = format!("{clean}\n");
        match h.highlight_line(&with_nl, syntaxes()) {
            Ok(ranges) => {
                let mut line = Line::new();
                for (st, text) in ranges {
                    let text = text.strip_suffix('\n').unwrap_or(text);
                    if !text.is_empty() {
                        line.push(Span::new(text, self.base.patch(span_style(st))));
                    }
                }
                line
            }
            Err(_) => Line::styled(clean.into_owned(), self.base),
        }
    }
}

/// Lines longer than this (bytes) are not highlighted.
pub const MAX_LINE_BYTES: usize = 16 * 1024;

/// A saved highlighter state (see [`Highlighter::checkpoint`]); the
/// default is the start of a text.
#[derive(Default)]
pub struct Checkpoint(Option<State>);

/// Lines below which [`highlight_lines`] stays on one thread.
const PARALLEL_MIN: usize = 2_000;

type State = (
    syntect::highlighting::HighlightState,
    syntect::parsing::ParseState,
);

#[cfg(any(test, feature = "internals"))]
/// Highlight many lines of one text (a file, one side of a diff), using
/// every core for long texts; the first `limit` lines get colours, the rest
/// come out plain. Same result as feeding them one by one to a
/// [`Highlighter`].
///
/// syntect is stateful, so a text cannot simply be cut in pieces. Each
/// piece after the first starts at a line at the left margin after a blank
/// one (where most languages are back at their top level) from the top-level state, in
/// parallel; then, in order, a piece is kept only if the state the text
/// really reached at its start is that top-level state — otherwise it is
/// highlighted again from the real state. Correct always, faster whenever
/// the guess holds (which, for code, is nearly always).
pub fn highlight_lines(
    lines: &[&str],
    lang: Option<&str>,
    theme: &Theme,
    base: Style,
    limit: usize,
) -> Vec<Line> {
    highlight_lines_from(lines, lang, theme, base, limit, &mut Checkpoint(None))
}

/// [`highlight_lines`] going on from `at` (where the lines before these
/// left the parser; `Checkpoint(None)`: the start), and leaving in `at`
/// where these lines left it: a long text is highlighted window by window,
/// each on every core, the same as all at once.
pub fn highlight_lines_from(
    lines: &[&str],
    lang: Option<&str>,
    theme: &Theme,
    base: Style,
    limit: usize,
    at: &mut Checkpoint,
) -> Vec<Line> {
    let n = lines.len().min(limit);
    let setup = grammar(lang, theme);
    let threads = crate::par::threads();
    let plain = |l: &&str| Line::styled(sanitize::line(l).into_owned(), base);
    let Some((syntax, st)) = setup.filter(|_| n >= PARALLEL_MIN && threads > 1) else {
        let mut h = Highlighter::new(lang, theme, base).limit(limit);
        h.resume(at);
        let out = lines.iter().map(|l| h.line(l)).collect();
        *at = h.checkpoint();
        return out;
    };
    let from = at.0.take();
    // Piece starts: near each k·n/threads, the next likely top-level line.
    let mut starts = vec![0];
    for k in 1..threads {
        let target = (k * n / threads).max(starts[starts.len() - 1] + 1);
        if let Some(i) = (target..(target + 2_000).min(n)).find(|&i| top_level(lines, i)) {
            starts.push(i);
        }
    }
    starts.push(n);
    // syntect's states hold Oniguruma match data and stay on their thread:
    // each thread makes its own top-level state and says whether its piece
    // ended back there.
    let run = |from: Option<State>, piece: &[&str]| -> (Vec<Line>, State) {
        let inner = match from {
            Some((hs, ps)) => HighlightLines::from_state(st, hs, ps),
            None => HighlightLines::new(syntax, st),
        };
        let mut h = Highlighter {
            inner: Some(inner),
            syn_theme: Some(st),
            base,
            left: usize::MAX,
        };
        let out = piece.iter().map(|l| h.line(l)).collect();
        // `inner` is set above; a fresh state stands in for the impossible.
        let state = h.inner.take().map_or_else(
            || HighlightLines::new(syntax, st).state(),
            HighlightLines::state,
        );
        (out, state)
    };
    // The top-level state as a piece after the first sees it: past a first line.
    let top = || run(None, &[""]).1;
    // The pieces after the first on rayon's pool (states made and kept
    // on the thread that runs them); the first, from the real start, here
    // meanwhile.
    // A piece's lines, and whether it ended back at the top level.
    type Slot = std::sync::Mutex<Option<(Vec<Line>, bool)>>;
    let later: Vec<Slot> = starts
        .windows(2)
        .skip(1)
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    let (first, end) = rayon::in_place_scope(|s| {
        for (w, slot) in starts.windows(2).skip(1).zip(&later) {
            let piece = &lines[w[0]..w[1]];
            s.spawn(move |_| {
                let top = top();
                let (out, end) = run(Some(top.clone()), piece);
                if let Ok(mut slot) = slot.lock() {
                    *slot = Some((out, end == top));
                }
            });
        }
        run(from, &lines[starts[0]..starts[1]])
    });
    // Every slot is filled when the scope ends (a panic there went on).
    let pieces: Vec<(Vec<Line>, bool)> = later
        .into_iter()
        .filter_map(|m| m.into_inner().ok().flatten())
        .collect();
    enum Carry {
        Top,
        Known(State),
        /// The end of piece k run from the top level (not computed yet).
        EndOf(usize),
    }
    let top_here = top();
    let mut out = Vec::with_capacity(lines.len());
    out.extend(first);
    let mut carry = if end == top_here {
        Carry::Top
    } else {
        Carry::Known(end)
    };
    for (j, (piece_lines, ends_at_top)) in pieces.into_iter().enumerate() {
        let k = j + 1;
        let piece = &lines[starts[k]..starts[k + 1]];
        let from = match carry {
            Carry::Top => {
                out.extend(piece_lines);
                carry = if ends_at_top {
                    Carry::Top
                } else {
                    Carry::EndOf(k)
                };
                continue;
            }
            Carry::Known(state) => state,
            Carry::EndOf(prev) => {
                run(
                    Some(top_here.clone()),
                    &lines[starts[prev]..starts[prev + 1]],
                )
                .1
            }
        };
        // The guess was wrong here: again, from where the text really was.
        let (again, end) = run(Some(from), piece);
        out.extend(again);
        carry = Carry::Known(end);
    }
    // Where the coloured lines left the parser, for the next window.
    *at = Checkpoint(Some(match carry {
        Carry::Top => top_here,
        Carry::Known(state) => state,
        // The last piece, taken as it was run from the top level.
        Carry::EndOf(k) => run(Some(top_here.clone()), &lines[starts[k]..starts[k + 1]]).1,
    }));
    out.extend(lines[n..].iter().map(plain));
    out
}

/// Whether line `i` of `lines` is likely the start of a top-level item: at
/// the left margin after a blank line, not closing anything (in most
/// languages the parser is back at its top level there).
fn top_level(lines: &[&str], i: usize) -> bool {
    i > 0
        && lines[i - 1].trim().is_empty()
        && lines[i]
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace() && !matches!(c, '}' | ')' | ']'))
}

/// `lines` cut into windows of about `size` lines to highlight one after
/// the other ([`highlight_lines_from`]), each cut at a likely top-level line
/// when one comes within a quarter of `size` (else at `size`): where a
/// window ends the parser is then most often back at its top level, so
/// the end of the window's last piece, run from there on another core,
/// is known without running it again.
pub fn windows(lines: &[&str], size: usize) -> Vec<std::ops::Range<usize>> {
    let size = size.max(1);
    let mut out = Vec::with_capacity(lines.len() / size + 1);
    let mut start = 0;
    while start < lines.len() {
        let target = start + size;
        if target >= lines.len() {
            out.push(start..lines.len());
            break;
        }
        let reach = (target + size / 4).min(lines.len());
        let end = (target..reach).find(|&i| top_level(lines, i)).unwrap_or(target);
        out.push(start..end);
        start = end;
    }
    out
}

#[cfg(any(test, feature = "internals"))]
/// Highlight a whole text: one [`Line`] per source line.
pub fn highlight(text: &str, lang: Option<&str>, theme: &Theme, base: Style) -> Vec<Line> {
    highlight_first(text, lang, theme, base, usize::MAX)
}

#[cfg(any(test, feature = "internals"))]
/// [`highlight`] colouring only the first `lines` lines.
pub fn highlight_first(
    text: &str,
    lang: Option<&str>,
    theme: &Theme,
    base: Style,
    lines: usize,
) -> Vec<Line> {
    let mut h = Highlighter::new(lang, theme, base).limit(lines);
    let mut out: Vec<Line> = text
        .split('\n')
        .map(|l| h.line(l.strip_suffix('\r').unwrap_or(l)))
        .collect();
    if text.ends_with('\n') && out.len() > 1 {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests;
