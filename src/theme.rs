//! Semantic styles. Call sites ask for a meaning ([`Role`]) and get a ratatui
//! [`Style`]; only this module and `themes/*.toml` name colours.
//!
//! A theme file is TOML:
//! ```toml
//! name = "dark"
//! syntax = "Monokai Extended"   # a syntect/two-face theme name, or "none"
//! background = "#1e1e2e"        # optional: the screen colour the theme is for
//! foreground = "#cdd6f4"        # optional: the text colour on it
//! [styles]
//! diff_added = { fg = "#a6e3a1", bg = "#1e3a24", bold = false }
//! ```
//! Unknown role names are an error naming the key; missing roles are
//! unstyled text. A theme with a `background` has it painted under every
//! cell of the TUI's screen (and as the HTML export's page); one without
//! (the `ansi-*` themes, `no-color`, older user themes) uses the
//! terminal's own background.

use std::collections::BTreeMap;
use std::path::Path;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

macro_rules! roles {
    ($($(#[$doc:meta])* $variant:ident => $key:literal),* $(,)?) => {
        /// Every meaning a style can have.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Role { $($(#[$doc])* $variant),* }

        impl Role {
            /// Every role, in order.
            pub const ALL: &'static [Role] = &[$(Role::$variant),*];
            /// Its key in a theme file's `[styles]`.
            pub fn key(self) -> &'static str {
                match self { $(Role::$variant => $key),* }
            }
            /// The role of a theme file's key.
            pub fn from_key(key: &str) -> Option<Role> {
                match key { $($key => Some(Role::$variant),)* _ => None }
            }
        }
    };
}

roles! {
    /// Plain text.
    Text => "text",
    /// What is said quietly: counts, hints, timings, markers.
    Muted => "muted",
    /// A card's, a list's or a box's title.
    Title => "title",
    /// Rules and borders: a card's gutter, a table's lines, a box's edge.
    Border => "border",
    /// What is selected or asks for attention: the selected row, a label, a key.
    Focus => "focus",
    /// A running call: its status glyph, and what shares its colour.
    StatusPending => "status_pending",
    /// A call that succeeded: its glyph, and what shares its colour.
    StatusOk => "status_ok",
    /// A call whose result is an error: its glyph, and what shares its colour.
    StatusError => "status_error",
    /// A call whose command failed: its glyph, and what shares its colour.
    StatusFailed => "status_failed",
    /// A call interrupted, cancelled or rejected: its glyph, and what shares
    /// its colour.
    StatusInterrupted => "status_interrupted",
    /// A pill of good news (read from theme files; nothing is drawn in it now).
    PillOk => "pill_ok",
    /// A pill of bad news (read from theme files; nothing is drawn in it now).
    PillBad => "pill_bad",
    /// An added line of a diff.
    DiffAdded => "diff_added",
    /// A removed line of a diff.
    DiffRemoved => "diff_removed",
    /// The words that changed in an added line.
    DiffAddedEmph => "diff_added_emph",
    /// The words that changed in a removed line.
    DiffRemovedEmph => "diff_removed_emph",
    /// An unchanged line of a diff.
    DiffContext => "diff_context",
    /// A diff's hunk header, and the separator between hunks.
    DiffHunk => "diff_hunk",
    /// A diff's file header.
    DiffFile => "diff_file",
    /// Line numbers beside code and diffs.
    Gutter => "gutter",
    /// A file path.
    Path => "path",
    /// A link.
    Link => "link",
    /// A command line (a terminal card's title), and the keys in the help.
    Command => "command",
    /// A command's standard error.
    Stderr => "stderr",
    /// A search match.
    Match => "match",
    /// A warning.
    Warning => "warning",
    /// A diagnostic: input skipped or repaired.
    Diagnostic => "diagnostic",
    /// The user's messages.
    User => "user",
    /// The assistant's messages.
    Assistant => "assistant",
    /// The assistant's reasoning.
    Reasoning => "reasoning",
    /// The rule between turns.
    TurnRule => "turn_rule",
    /// A heading: markdown's, the help's sections.
    Heading => "md_heading",
    /// Markdown emphasis.
    Emphasis => "md_emphasis",
    /// Markdown strong emphasis.
    Strong => "md_strong",
    /// Markdown inline code.
    InlineCode => "md_code",
    /// A markdown block quote.
    Quote => "md_quote",
    /// A markdown list's markers.
    ListMarker => "md_list",
    /// A todo done (a markdown task's box too).
    TodoDone => "todo_done",
    /// A todo in progress.
    TodoActive => "todo_active",
    /// A todo not started (a markdown task's box too).
    TodoPending => "todo_pending",
    /// The status bar.
    StatusBar => "status_bar",
}

/// A loaded theme: one style per role plus the syntax theme to highlight with.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Theme {
    /// Its name: the file's `name`, else where it came from (a built-in's
    /// name, a path).
    pub name: String,
    /// syntect theme name; `None` disables syntax colours.
    pub syntax: Option<String>,
    styles: BTreeMap<Role, Style>,
    /// True when the theme emits no colours at all.
    pub monochrome: bool,
    /// The screen colour the theme's colours were chosen for; `None`: the
    /// terminal's own.
    pub background: Option<Color>,
    /// The text colour on [`background`](Self::background); `None`: the
    /// terminal's own.
    pub foreground: Option<Color>,
}

/// Built-in themes compiled into the binary.
pub const BUILTIN: &[(&str, &str)] = &[
    ("dark", include_str!("../themes/dark.toml")),
    ("light", include_str!("../themes/light.toml")),
    ("no-color", include_str!("../themes/no-color.toml")),
    ("ansi-dark", include_str!("../themes/ansi-dark.toml")),
    ("ansi-light", include_str!("../themes/ansi-light.toml")),
    (
        "high-contrast",
        include_str!("../themes/high-contrast.toml"),
    ),
];

/// Why a theme did not load.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ThemeError {
    /// No built-in theme of that name, and no such file (the name asked for).
    #[error(
        "theme {0:?} not found (built-in: dark, light, no-color, ansi-dark, ansi-light, high-contrast; or a path to a .toml file)"
    )]
    NotFound(String),
    /// The file is not a theme deck reads.
    #[error("{path}: {message}")]
    Invalid {
        /// Where it came from (a path, or a built-in's name).
        path: String,
        /// What is wrong in it, and where (`styles.title: …`).
        message: String,
    },
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: Option<String>,
    syntax: Option<String>,
    #[serde(default)]
    monochrome: bool,
    background: Option<String>,
    foreground: Option<String>,
    #[serde(default)]
    styles: BTreeMap<String, StyleSpec>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    fg: Option<String>,
    bg: Option<String>,
    #[serde(default)]
    bold: bool,
    #[serde(default)]
    dim: bool,
    #[serde(default)]
    italic: bool,
    #[serde(default)]
    underline: bool,
    #[serde(default)]
    reversed: bool,
}

fn parse_color(s: &str) -> Result<Color, String> {
    s.parse::<Color>()
        .map_err(|_| format!("invalid colour {s:?}"))
}

impl StyleSpec {
    fn to_style(&self) -> Result<Style, String> {
        let mut st = Style::default();
        if let Some(fg) = &self.fg {
            st = st.fg(parse_color(fg)?);
        }
        if let Some(bg) = &self.bg {
            st = st.bg(parse_color(bg)?);
        }
        let mods = [
            (self.bold, Modifier::BOLD),
            (self.dim, Modifier::DIM),
            (self.italic, Modifier::ITALIC),
            (self.underline, Modifier::UNDERLINED),
            (self.reversed, Modifier::REVERSED),
        ];
        for (on, m) in mods {
            if on {
                st = st.add_modifier(m);
            }
        }
        Ok(st)
    }
}

impl Theme {
    /// Parse a theme from TOML text. `origin` names the file in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Theme, ThemeError> {
        let invalid = |message: String| ThemeError::Invalid {
            path: origin.to_string(),
            message,
        };
        let file: ThemeFile = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        let mut styles = BTreeMap::new();
        for (key, spec) in &file.styles {
            let role =
                Role::from_key(key).ok_or_else(|| invalid(format!("unknown style {key:?}")))?;
            let style = spec
                .to_style()
                .map_err(|m| invalid(format!("styles.{key}: {m}")))?;
            styles.insert(role, style);
        }
        let syntax = file.syntax.filter(|s| s != "none");
        let colour = |key: &str, value: &Option<String>| -> Result<Option<Color>, ThemeError> {
            let Some(v) = value else { return Ok(None) };
            if file.monochrome {
                return Err(invalid(format!("{key}: a monochrome theme has no colours")));
            }
            parse_color(v)
                .map(Some)
                .map_err(|m| invalid(format!("{key}: {m}")))
        };
        let background = colour("background", &file.background)?;
        let foreground = colour("foreground", &file.foreground)?;
        Ok(Theme {
            name: file.name.unwrap_or_else(|| origin.to_string()),
            syntax,
            styles,
            monochrome: file.monochrome,
            background,
            foreground,
        })
    }

    /// A built-in theme by name.
    pub fn builtin(name: &str) -> Option<Theme> {
        BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(n, text)| Theme::from_toml(text, n).ok())
    }

    /// `dark`, the default.
    pub fn dark() -> Theme {
        Theme::builtin("dark").unwrap_or_else(Theme::plain)
    }

    /// No styles at all: what `no-color` is, when even built-in themes
    /// could not be read (they are tested to parse).
    pub(crate) fn plain() -> Theme {
        Theme {
            name: "no-color".into(),
            syntax: None,
            styles: Default::default(),
            monochrome: true,
            background: None,
            foreground: None,
        }
    }

    /// Resolve `--theme NAME|PATH`, honouring `NO_COLOR` (which forces `no-color`).
    pub fn resolve(spec: Option<&str>) -> Result<Theme, ThemeError> {
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return Ok(Theme::builtin("no-color").unwrap_or_else(Theme::plain));
        }
        Theme::load(spec.unwrap_or("dark"))
    }

    /// Load a theme by built-in name or from a `.toml` path.
    pub fn load(spec: &str) -> Result<Theme, ThemeError> {
        if let Some(t) = Theme::builtin(spec) {
            return Ok(t);
        }
        let path = Path::new(spec);
        if path.extension().is_some_and(|e| e == "toml") || path.exists() {
            let text = std::fs::read_to_string(path).map_err(|source| ThemeError::Io {
                path: spec.to_string(),
                source,
            })?;
            return Theme::from_toml(&text, spec);
        }
        Err(ThemeError::NotFound(spec.to_string()))
    }

    /// The screen's own style, painted under every cell: the declared
    /// background and foreground; `None` when the theme declares no
    /// background (it uses the terminal's).
    pub fn screen(&self) -> Option<Style> {
        let bg = self.background?;
        let st = Style::default().bg(bg);
        Some(self.foreground.map_or(st, |fg| st.fg(fg)))
    }

    /// The style for a meaning.
    pub fn style(&self, role: Role) -> Style {
        if let Some(s) = self.styles.get(&role) {
            return *s;
        }
        Style::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse_and_cover_every_role() {
        for (name, _) in BUILTIN {
            let t = Theme::builtin(name).unwrap();
            if *name != "no-color" {
                for role in Role::ALL {
                    assert!(t.styles.contains_key(role), "{name} lacks {}", role.key());
                }
            }
        }
    }

    #[test]
    fn ansi_themes_use_only_the_palette() {
        for name in ["ansi-dark", "ansi-light"] {
            let t = Theme::builtin(name).unwrap();
            for role in Role::ALL {
                let s = t.style(*role);
                for c in [s.fg, s.bg].into_iter().flatten() {
                    assert!(
                        !matches!(c, Color::Rgb(..) | Color::Indexed(_)),
                        "{name} {} uses {c:?}",
                        role.key()
                    );
                }
            }
        }
    }

    #[test]
    fn no_color_has_no_colours() {
        let t = Theme::builtin("no-color").unwrap();
        assert!(t.syntax.is_none());
        for role in Role::ALL {
            let s = t.style(*role);
            assert!(s.fg.is_none() && s.bg.is_none(), "{}", role.key());
        }
    }

    #[test]
    fn unknown_role_is_an_error_naming_it() {
        let err = Theme::from_toml("[styles]\nbogus = { fg = \"red\" }", "x.toml").unwrap_err();
        assert!(err.to_string().contains("bogus"), "{err}");
        let err =
            Theme::from_toml("[styles]\ntext = { fg = \"notacolour\" }", "x.toml").unwrap_err();
        assert!(err.to_string().contains("styles.text"), "{err}");
    }

    #[test]
    fn themes_with_fixed_colours_declare_their_screen() {
        for name in ["dark", "light", "high-contrast"] {
            let t = Theme::builtin(name).unwrap();
            let screen = t
                .screen()
                .unwrap_or_else(|| panic!("{name} has no background"));
            assert!(matches!(screen.bg, Some(Color::Rgb(..))), "{name}");
            assert!(matches!(screen.fg, Some(Color::Rgb(..))), "{name}");
        }
        assert_eq!(
            Theme::builtin("light").unwrap().background,
            Some(Color::Rgb(0xff, 0xff, 0xff))
        );
        // The palette themes and no-color keep the terminal's own.
        for name in ["ansi-dark", "ansi-light", "no-color"] {
            let t = Theme::builtin(name).unwrap();
            assert!(t.screen().is_none() && t.foreground.is_none(), "{name}");
        }
    }

    #[test]
    fn a_theme_without_a_background_still_loads() {
        let t = Theme::from_toml("[styles]\ntitle = { fg = \"#ff0000\" }", "old.toml").unwrap();
        assert_eq!((t.background, t.foreground), (None, None));
        assert!(t.screen().is_none());
        let t = Theme::from_toml("background = \"#101010\"", "x.toml").unwrap();
        assert_eq!(
            t.screen(),
            Some(Style::default().bg(Color::Rgb(16, 16, 16)))
        );
    }

    #[test]
    fn a_bad_background_is_an_error_naming_it() {
        let err = Theme::from_toml("background = \"nope\"", "x.toml").unwrap_err();
        assert!(err.to_string().contains("background"), "{err}");
        let err = Theme::from_toml("foreground = \"nope\"", "x.toml").unwrap_err();
        assert!(err.to_string().contains("foreground"), "{err}");
        let err =
            Theme::from_toml("monochrome = true\nbackground = \"#000000\"", "x.toml").unwrap_err();
        assert!(err.to_string().contains("monochrome"), "{err}");
    }

    #[test]
    fn unknown_name_is_not_found() {
        assert!(matches!(Theme::load("nope"), Err(ThemeError::NotFound(_))));
    }
}
