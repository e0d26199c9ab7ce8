//! deck's cards in your own snapshot tests.
//!
//! A DSH tool tells clients how its calls look with *views*: small JSON
//! objects tagged by `card` (`generic`, `terminal`, `diff`, `read`,
//! `search`, `web`). This module draws them exactly as deck draws them —
//! the same reducer, card renderers and layout as `deck render` and the
//! TUI — so a tool author can pin their tool's cards in a snapshot test
//! (with [insta](https://insta.rs) or plain `assert_eq!`):
//!
//! - [`render_view`]: one view, alone, as the card of a finished call;
//! - [`ToolCard`]: a whole call — tool name, arguments, the call's and the
//!   result's views, the output — folded from the frames a DSH host would
//!   stream for it (see [`ToolCard::frames`]);
//! - [`Screen`]: the full-screen viewer over a session, driven by keys.
//!
//! A view deck cannot read is drawn as deck draws it: the generic fallback
//! card, whose first line says why; [`Rendered::problems`] lists the same
//! reasons, so a test can also assert there are none.
//!
//! Everything is deterministic: no clock, no terminal, no environment.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::{Value, json};

pub use crate::cards::Density;

use crate::app::{App, Msg};
use crate::headless::{self, Format};
use crate::session::Transcript;
use crate::source;
use crate::theme::Theme;
use crate::view::transcript::{LayoutOptions, layout};

/// What went wrong before anything could be drawn. (A view that is JSON but
/// not a view deck reads is not an error: it draws the fallback card.)
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The text given as JSON is not JSON.
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// No built-in theme has this name.
    #[error("no theme named {0:?} (built in: {names})", names = theme_names())]
    Theme(String),
    /// The frames or log given could not be read.
    #[error("{0}")]
    Load(String),
    /// A key name in [`Screen::press`] that deck does not know.
    #[error(
        "unknown key {0:?} (use a character or <Enter>, <Esc>, <Tab>, <Up>, <Down>, <Left>, <Right>, <PageUp>, <PageDown>, <Home>, <End>, <Space>, <C-x>)"
    )]
    Key(String),
}

fn theme_names() -> String {
    crate::theme::BUILTIN
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

fn theme(name: &str) -> Result<Theme, Error> {
    Theme::builtin(name).ok_or_else(|| Error::Theme(name.to_string()))
}

/// A card (or a transcript) drawn at one width, in one theme and density.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rendered {
    /// The rows as plain text, one per line, each ending in `\n`.
    pub text: String,
    /// The rows as text, each followed by its styled runs
    /// (`    @0-3 fg=green bold`): the format of `deck render --format styled`,
    /// made for diffs in review.
    pub styled: String,
    /// The rows with SGR colours, as `deck render --format ansi` writes them.
    pub ansi: String,
    /// Rows drawn.
    pub height: usize,
    /// Why a view was not used (empty when every view was read): the same
    /// texts the fallback card shows.
    pub problems: Vec<String>,
}

/// Draw `view` (a view's JSON text: `{"card": "terminal", …}`) as the card
/// of a finished call (one that claims no duration: nobody timed it),
/// `width` columns wide, in a built-in theme (`"dark"`,
/// `"light"` …) at `density`.
///
/// ```
/// use deck::testing::{render_view, Density};
///
/// let view = r#"{"card": "terminal", "title": "cargo test",
///                "output": "test result: ok. 3 passed", "exitCode": 0}"#;
/// let card = render_view(view, 60, "dark", Density::Full).unwrap();
/// assert!(card.text.contains("cargo test"));
/// assert!(card.text.contains("test result: ok. 3 passed"));
/// assert!(card.problems.is_empty());
/// assert_eq!(card.height, card.text.lines().count());
/// ```
///
/// A view deck cannot read draws the fallback card, and says why:
///
/// ```
/// use deck::testing::{render_view, Density};
///
/// let card = render_view(r#"{"card": "search", "query": "x"}"#, 60, "dark", Density::Full)
///     .unwrap();
/// assert_eq!(card.problems.len(), 1);
/// assert!(card.problems[0].ends_with(r#"search view without a string "shape""#));
/// assert!(card.text.contains("fallback: result view"));
/// ```
pub fn render_view(
    view: &str,
    width: usize,
    theme: &str,
    density: Density,
) -> Result<Rendered, Error> {
    let view: Value = serde_json::from_str(view)?;
    render_view_in(view, width, &self::theme(theme)?, density)
}

/// [`render_view`] in any theme (`deck card`, whose `--theme` also takes a
/// user's theme or a `.toml` file).
pub(crate) fn render_view_in(
    view: Value,
    width: usize,
    theme: &Theme,
    density: Density,
) -> Result<Rendered, Error> {
    ToolCard::new("tool")
        .result_view(view)
        .untimed()
        .render_in(width, theme, density)
}

/// One tool call as a host streams it, to draw as a card.
///
/// ```
/// use deck::testing::{Density, ToolCard};
/// use serde_json::json;
///
/// let card = ToolCard::new("find_text")
///     .arguments(json!({"pattern": "fn main"}))
///     .result_view(json!({
///         "card": "search", "query": "fn main", "shape": "matches",
///         "files": [{"path": "src/main.rs",
///                    "matches": [{"lineNumber": 1, "line": "fn main() {}"}]}],
///     }))
///     .output("src/main.rs:1: fn main() {}")
///     .render(72, "light", Density::Full)
///     .unwrap();
/// assert!(card.text.contains("src/main.rs"), "{}", card.text);
/// assert!(card.problems.is_empty(), "{:?}", card.problems);
/// ```
///
/// A tool that declares no views gets the generic card: the tool's name as
/// the title, its arguments as the input.
///
/// ```
/// use deck::testing::{Density, ToolCard};
/// use serde_json::json;
///
/// let card = ToolCard::new("deploy")
///     .arguments(json!({"env": "staging"}))
///     .output("deployed")
///     .render(60, "dark", Density::Full)
///     .unwrap();
/// assert!(card.text.contains("deploy"));
/// assert!(card.text.contains("\"env\": \"staging\""), "{}", card.text);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCard {
    tool: String,
    arguments: Value,
    call_view: Option<Value>,
    result_view: Option<Value>,
    result: Option<(String, bool)>,
    error_info: Option<(String, String)>,
    /// `None`: the events carry no time (the card shows no duration).
    duration_ms: Option<i64>,
    /// The result's `outcome` (`unknown`).
    outcome: Option<&'static str>,
}

/// The time of every call made by [`ToolCard`] (epoch ms), so that a card
/// draws the same on every run.
const CALLED_AT: i64 = 1_796_069_109_719;

impl ToolCard {
    /// A call of `tool` with no arguments, finished in 200 ms with no output.
    pub fn new(tool: &str) -> ToolCard {
        ToolCard {
            tool: tool.to_string(),
            arguments: json!({}),
            call_view: None,
            result_view: None,
            result: Some((String::new(), false)),
            error_info: None,
            duration_ms: Some(200),
            outcome: None,
        }
    }

    /// The call's arguments (the JSON the model sent).
    pub fn arguments(mut self, arguments: Value) -> ToolCard {
        self.arguments = arguments;
        self
    }

    /// The view the host sent with the call (`presentCall`).
    pub fn call_view(mut self, view: Value) -> ToolCard {
        self.call_view = Some(view);
        self
    }

    /// The view the host sent with the result (`presentResult`).
    pub fn result_view(mut self, view: Value) -> ToolCard {
        self.result_view = Some(view);
        self
    }

    /// The result's text, as the model sees it.
    pub fn output(mut self, text: &str) -> ToolCard {
        self.result = Some((text.to_string(), false));
        self
    }

    /// The result is an error (`isError`), with this text.
    pub fn error(mut self, text: &str) -> ToolCard {
        self.result = Some((text.to_string(), true));
        self
    }

    /// The result is an error with this text, and the host's `error:
    /// {name, code}` (`"AbortError", "ABORTED"`: a cancelled call).
    pub fn error_named(mut self, text: &str, name: &str, code: &str) -> ToolCard {
        self.result = Some((text.to_string(), true));
        self.error_info = Some((name.to_string(), code.to_string()));
        self
    }

    /// The call ended and nothing says how (`outcome: "unknown"` on its
    /// result, as deck's readers of other agents' logs write it): the card
    /// claims neither success nor failure.
    pub fn outcome_unknown(mut self) -> ToolCard {
        self.outcome = Some("unknown");
        self
    }

    /// No result yet: the call is still running.
    pub fn running(mut self) -> ToolCard {
        self.result = None;
        self
    }

    /// How long the call took (the header shows it).
    pub fn took_ms(mut self, ms: u64) -> ToolCard {
        self.duration_ms = Some(i64::try_from(ms).unwrap_or(i64::MAX));
        self
    }

    /// Events without times: the card claims no duration (a view drawn
    /// alone, by `deck card`, took no time anyone measured).
    pub(crate) fn untimed(mut self) -> ToolCard {
        self.duration_ms = None;
        self
    }

    /// The frames a DSH host streams for this call (`session/event` with the
    /// `tool/call`, then the `tool/result`, each with its view), one JSON
    /// object per line: a frame log `deck` reads (`deck render FILE`).
    pub fn frames(&self) -> String {
        let args = match &self.arguments {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let mut call = json!({
            "type": "tool/call", "seq": 1, "time": CALLED_AT,
            "data": {"callId": "call_1", "name": self.tool, "arguments": args,
                     "turn": 1, "step": 1},
        });
        if self.duration_ms.is_none() {
            call.as_object_mut().map(|c| c.remove("time"));
        }
        let mut out = frame(call, "call", self.call_view.as_ref());
        if let Some((text, is_error)) = &self.result {
            let mut result = json!({
                "type": "tool/result", "seq": 2,
                "data": {"turn": 1, "step": 1, "message": {"content": [{
                    "type": "tool-result", "toolCallId": "call_1", "isError": is_error,
                    "content": [{"type": "text", "text": text}],
                }]}},
            });
            if let Some(ms) = self.duration_ms {
                result["time"] = json!(CALLED_AT.saturating_add(ms));
            }
            if let Some((name, code)) = &self.error_info {
                result["data"]["error"] = json!({"name": name, "code": code});
            }
            if let Some(outcome) = self.outcome {
                result["data"]["outcome"] = json!(outcome);
            }
            out.push_str(&frame(result, "result", self.result_view.as_ref()));
        }
        out
    }

    /// Draw the card `width` columns wide, in a built-in theme, at `density`.
    pub fn render(&self, width: usize, theme: &str, density: Density) -> Result<Rendered, Error> {
        self.render_in(width, &self::theme(theme)?, density)
    }

    fn render_in(&self, width: usize, theme: &Theme, density: Density) -> Result<Rendered, Error> {
        let t = fold(&self.frames())?;
        Ok(draw(&t, width.max(1), theme, density))
    }
}

/// One `session/event` frame line, with `view` for `phase` when given.
fn frame(event: Value, phase: &str, view: Option<&Value>) -> String {
    let mut f = json!({"type": "session/event", "sessionId": "s", "event": event});
    if let Some(view) = view {
        f["view"] = json!({"for": phase, "view": view});
    }
    let mut line = f.to_string();
    line.push('\n');
    line
}

/// The first session of a log, folded.
fn fold(log: &str) -> Result<Transcript, Error> {
    let loaded =
        source::load_bytes("test", log.as_bytes()).map_err(|e| Error::Load(e.to_string()))?;
    let Some(s) = loaded.sessions.into_iter().next() else {
        return Err(Error::Load("no session in the input".into()));
    };
    Ok(Transcript::from_records(
        s.id,
        &s.records,
        crate::agents::stock(),
    ))
}

/// A whole transcript drawn as `deck render` draws it.
fn draw(t: &Transcript, width: usize, theme: &Theme, density: Density) -> Rendered {
    let lines = layout(t, theme, &LayoutOptions::new(width, density));
    let problems = t
        .cards()
        .iter()
        .flat_map(|c| crate::cards::view_problems(c))
        .map(|d| d.reason)
        .collect();
    Rendered {
        text: headless::write_lines(&lines, Format::Text),
        styled: headless::write_lines(&lines, Format::Styled),
        ansi: headless::write_lines(&lines, Format::Ansi),
        height: lines.len(),
        problems,
    }
}

/// The full-screen viewer over a session, in memory: press keys, read the
/// screen. Keys are those of `deck view` (`j`/`k`, `Enter` opens the pager,
/// `/` searches …).
///
/// ```
/// use deck::testing::{Screen, ToolCard};
/// use serde_json::json;
///
/// let log = ToolCard::new("run_command")
///     .result_view(json!({"card": "terminal", "title": "ls", "output": "Cargo.toml\nsrc",
///                         "exitCode": 0}))
///     .frames();
/// let mut screen = Screen::open(&log, 60, 12, "dark").unwrap();
/// assert!(screen.text().contains("$ ls"), "{}", screen.text());
/// screen.press("<Enter>").unwrap(); // the focused card in the pager
/// assert!(screen.text().contains("Cargo.toml"), "{}", screen.text());
/// ```
pub struct Screen {
    app: App,
}

impl Screen {
    /// The viewer over the first session of `log` (any format deck reads:
    /// a frame log such as [`ToolCard::frames`], a DSH session log …),
    /// `width`×`height` cells, in a built-in theme.
    pub fn open(log: &str, width: u16, height: u16, theme: &str) -> Result<Screen, Error> {
        let theme = self::theme(theme)?;
        let mut app = App::viewer("test".into(), fold(log)?, vec![theme]);
        app.update(Msg::Resize(width.max(1), height.max(1)));
        app.update(Msg::Tick {
            real_ms: 0.0,
            now_ms: CALLED_AT,
        });
        Ok(Screen { app })
    }

    /// Press keys: characters as typed, and named keys in angle brackets
    /// (`"jj<Enter>"`, `"<C-d>"`, `"/error<Enter>"`).
    pub fn press(&mut self, keys: &str) -> Result<(), Error> {
        for key in parse_keys(keys)? {
            self.app.update(Msg::Key(key));
        }
        Ok(())
    }

    fn buffer(&mut self) -> Buffer {
        let area = Rect::new(0, 0, self.app.width(), self.app.height());
        let mut buf = Buffer::empty(area);
        crate::app::draw::frame(&mut self.app, &mut buf);
        buf
    }

    /// The screen as text: one line per row, trailing blanks trimmed.
    pub fn text(&mut self) -> String {
        let buf = self.buffer();
        let mut out = String::new();
        for y in 0..buf.area.height {
            let row: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
            out.push_str(row.trim_end());
            out.push('\n');
        }
        out
    }

    /// The screen as text, each row followed by its styled runs, as
    /// [`Rendered::styled`].
    pub fn styled(&mut self) -> String {
        let buf = self.buffer();
        let lines: Vec<crate::text::Line> = (0..buf.area.height)
            .map(|y| {
                let spans = (0..buf.area.width)
                    .map(|x| {
                        let cell = &buf[(x, y)];
                        crate::text::Span::new(cell.symbol().to_string(), plain(cell.style()))
                    })
                    .collect::<Vec<_>>();
                crate::text::Line::from_spans(spans)
            })
            .collect();
        headless::write_lines(&lines, Format::Styled)
    }
}

/// A cell's style with the terminal's default colours as no colour.
fn plain(mut style: ratatui::style::Style) -> ratatui::style::Style {
    use ratatui::style::Color;
    if style.fg == Some(Color::Reset) {
        style.fg = None;
    }
    if style.bg == Some(Color::Reset) {
        style.bg = None;
    }
    style
}

/// `"ab<Enter><C-d>"` as key events.
fn parse_keys(keys: &str) -> Result<Vec<KeyEvent>, Error> {
    let mut out = Vec::new();
    let mut rest = keys;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
            && end > 1
        {
            out.push(named_key(&rest[1..end])?);
            rest = &rest[end + 1..];
            continue;
        }
        let m = if c.is_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        out.push(KeyEvent::new(KeyCode::Char(c), m));
        rest = &rest[c.len_utf8()..];
    }
    Ok(out)
}

fn named_key(name: &str) -> Result<KeyEvent, Error> {
    let plain = |code| Ok(KeyEvent::new(code, KeyModifiers::NONE));
    match name.to_ascii_lowercase().as_str() {
        "enter" | "cr" => plain(KeyCode::Enter),
        "esc" => plain(KeyCode::Esc),
        "tab" => plain(KeyCode::Tab),
        "up" => plain(KeyCode::Up),
        "down" => plain(KeyCode::Down),
        "left" => plain(KeyCode::Left),
        "right" => plain(KeyCode::Right),
        "pageup" => plain(KeyCode::PageUp),
        "pagedown" => plain(KeyCode::PageDown),
        "home" => plain(KeyCode::Home),
        "end" => plain(KeyCode::End),
        "space" => plain(KeyCode::Char(' ')),
        "bs" | "backspace" => plain(KeyCode::Backspace),
        lower => {
            let mut chars = lower.strip_prefix("c-").map(str::chars);
            match chars.as_mut().and_then(|c| Some((c.next()?, c.next()))) {
                Some((c, None)) => Ok(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
                _ => Err(Error::Key(name.to_string())),
            }
        }
    }
}

#[cfg(test)]
mod tests;
