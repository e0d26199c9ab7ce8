//! User configuration: `$XDG_CONFIG_HOME/deck/config.toml` (defaults for
//! theme, density, speed and idle limit; the session library's extra
//! folders) and user themes from
//! `$XDG_CONFIG_HOME/deck/themes/*.toml`. An invalid file is an error that
//! names the file and the line.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cards::Density;
use crate::theme::{Theme, ThemeError};

/// `config.toml`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// A theme name, a path, or `auto`.
    pub theme: Option<String>,
    /// line | preview | full
    pub density: Option<Density>,
    pub speed: Option<f64>,
    /// Seconds; idle gaps in replays are capped to this.
    pub idle_limit: Option<f64>,
    /// `[library]`: where `deck sessions` looks besides the agents' folders.
    pub library: Option<LibraryConfig>,
}

/// `config.toml`'s `[library]`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LibraryConfig {
    /// Folders of sessions of any agent (`~` is the home folder).
    #[serde(default)]
    pub dirs: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `path:line:column: message`, as compilers and editors write it.
    #[error("{path}:{line}:{column}: {message}")]
    Invalid {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error(transparent)]
    Theme(#[from] ThemeError),
}

/// `$XDG_CONFIG_HOME/deck`, else `~/.config/deck`.
pub fn config_dir() -> Option<PathBuf> {
    super::dirs::config()
}

/// Parse config text; an error names `path`, the line and column of the
/// fault (1-based) and the parser's message.
pub fn parse(text: &str, path: &str) -> Result<Config, ConfigError> {
    toml::from_str(text).map_err(|e| {
        let (line, column) = line_col(text, e.span().map_or(0, |s| s.start));
        ConfigError::Invalid {
            path: path.to_string(),
            line,
            column,
            message: e.message().trim().replace('\n', " "),
        }
    })
}

/// The 1-based line and column (in characters) of byte `at` of `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// Load the config file if there is one.
pub fn load() -> Result<Config, ConfigError> {
    let Some(dir) = config_dir() else {
        return Ok(Config::default());
    };
    let path = dir.join("config.toml");
    match std::fs::read_to_string(&path) {
        Ok(text) => parse(&text, &path.to_string_lossy()),
        Err(_) => Ok(Config::default()),
    }
}

/// Built-in themes, then the user's, in a stable order.
pub fn all_themes(dir: Option<&Path>) -> Result<Vec<Theme>, ThemeError> {
    let mut out: Vec<Theme> = crate::theme::BUILTIN
        .iter()
        .filter_map(|(n, _)| Theme::builtin(n))
        .collect();
    if let Some(dir) = dir
        && let Ok(rd) = std::fs::read_dir(dir.join("themes"))
    {
        let mut paths: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).map_err(|source| ThemeError::Io {
                path: p.to_string_lossy().into(),
                source,
            })?;
            let mut theme = Theme::from_toml(&text, &p.to_string_lossy())?;
            if theme.name == p.to_string_lossy() {
                theme.name = p
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
            }
            out.retain(|t| t.name != theme.name);
            out.push(theme);
        }
    }
    Ok(out)
}

/// Pick dark or light for `auto`: the terminal's background (OSC 11, short
/// timeout), else `COLORFGBG`, else dark.
pub fn detect_background() -> &'static str {
    if let Some(bg) = background_from_env() {
        return bg;
    }
    let mut opts = terminal_colorsaurus::QueryOptions::default();
    opts.timeout = std::time::Duration::from_millis(150);
    match terminal_colorsaurus::theme_mode(opts) {
        Ok(terminal_colorsaurus::ThemeMode::Light) => "light",
        _ => "dark",
    }
}

/// Resolve the theme list and the index of the starting theme.
/// `NO_COLOR` forces `no-color`; `auto` (the default) detects the background.
pub fn resolve_themes(
    spec: Option<&str>,
    cfg: &Config,
) -> Result<(Vec<Theme>, usize), ConfigError> {
    let dir = config_dir();
    let mut themes = all_themes(dir.as_deref())?;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let wanted = if no_color {
        "no-color".to_string()
    } else {
        spec.map(str::to_string)
            .or_else(|| cfg.theme.clone())
            .unwrap_or_else(|| "auto".into())
    };
    let wanted = if wanted == "auto" {
        detect_background().to_string()
    } else {
        wanted
    };
    if let Some(i) = themes.iter().position(|t| t.name == wanted) {
        return Ok((themes, i));
    }
    let t = Theme::load(&wanted)?;
    themes.push(t);
    Ok((themes.clone(), themes.len() - 1))
}

/// The one theme of a command that draws without a terminal (`render`,
/// `export`): `--theme`, else the config file's, else dark; `NO_COLOR`
/// forces `no-color`; `auto` reads `COLORFGBG` (there is no terminal to ask).
pub fn resolve_theme(spec: Option<&str>, cfg: &Config) -> Result<Theme, ConfigError> {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let wanted = match spec.or(cfg.theme.as_deref()) {
        _ if no_color => "no-color",
        Some("auto") => background_from_env().unwrap_or("dark"),
        Some(name) => name,
        None => "dark",
    };
    if let Some(t) = Theme::builtin(wanted) {
        return Ok(t);
    }
    let themes = all_themes(config_dir().as_deref())?;
    if let Some(t) = themes.into_iter().find(|t| t.name == wanted) {
        return Ok(t);
    }
    Ok(Theme::load(wanted)?)
}

/// dark or light from `COLORFGBG` (`fg;bg`), when it says.
fn background_from_env() -> Option<&'static str> {
    let v = std::env::var("COLORFGBG").ok()?;
    let bg = v.rsplit(';').next()?.parse::<u8>().ok()?;
    Some(if matches!(bg, 7 | 15) { "light" } else { "dark" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_config() {
        let c = parse(
            "theme = \"light\"\ndensity = \"full\"\nspeed = 2.0\nidle_limit = 1.5\n",
            "c.toml",
        )
        .unwrap();
        assert_eq!(c.theme.as_deref(), Some("light"));
        assert_eq!(c.speed, Some(2.0));
    }

    #[test]
    fn invalid_config_names_file_and_line() {
        let err = parse(
            "theme = \"light\"\nspeed = \"fast\"\n",
            "/home/u/.config/deck/config.toml",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            "/home/u/.config/deck/config.toml:2:9: invalid type: string \"fast\", expected f64"
        );
        let err = parse("colour = 1\n", "c.toml").unwrap_err().to_string();
        assert!(err.starts_with("c.toml:1:1: unknown field `colour`"), "{err}");
        let err = parse("theme = \"é\"\ndensity = \"huge\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "c.toml:2:11: unknown variant `huge`, expected one of `line`, `preview`, `full`"
        );
        let err = parse("theme = \"dark\n", "c.toml").unwrap_err().to_string();
        assert!(err.starts_with("c.toml:1:14: "), "{err}");
    }

    #[test]
    fn user_themes_are_added() {
        let dir = std::env::temp_dir().join(format!("deck-cfg-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("themes")).unwrap();
        std::fs::write(
            dir.join("themes/mine.toml"),
            "syntax = \"Nord\"\n[styles]\ntitle = { fg = \"#ff0000\" }\n",
        )
        .unwrap();
        let themes = all_themes(Some(&dir)).unwrap();
        // Written before themes had a background: loads, and keeps the terminal's.
        let mine = themes.iter().find(|t| t.name == "mine").unwrap();
        assert!(mine.background.is_none() && mine.screen().is_none());
        assert!(themes.iter().any(|t| t.name == "dark"));
    }
}
