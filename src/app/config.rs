//! User configuration: `$XDG_CONFIG_HOME/deck/config.toml` (defaults for
//! theme, density, speed and idle limit) and user themes from
//! `$XDG_CONFIG_HOME/deck/themes/*.toml`. An invalid file is an error that
//! names the file and the line.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::theme::{Theme, ThemeError};

/// `config.toml`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// A theme name, a path, or `auto`.
    pub theme: Option<String>,
    /// line | preview | full
    pub density: Option<String>,
    pub speed: Option<f64>,
    /// Seconds; idle gaps in replays are capped to this.
    pub idle_limit: Option<f64>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
    #[error(transparent)]
    Theme(#[from] ThemeError),
}

/// `$XDG_CONFIG_HOME/deck`, else `~/.config/deck`.
pub fn config_dir() -> Option<PathBuf> {
    super::dirs::config()
}

/// Parse config text; errors name `path` and carry the parser's line/column.
pub fn parse(text: &str, path: &str) -> Result<Config, ConfigError> {
    let cfg: Config = toml::from_str(text).map_err(|e| ConfigError::Invalid {
        path: path.to_string(),
        message: e.to_string().trim().replace('\n', " "),
    })?;
    if let Some(d) = &cfg.density
        && crate::cards::Density::parse(d).is_none()
    {
        return Err(ConfigError::Invalid {
            path: path.into(),
            message: format!("density {d:?}: expected line, preview or full"),
        });
    }
    Ok(cfg)
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
    if let Ok(v) = std::env::var("COLORFGBG")
        && let Some(bg) = v.rsplit(';').next().and_then(|s| s.parse::<u8>().ok())
    {
        return if matches!(bg, 7 | 15) {
            "light"
        } else {
            "dark"
        };
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
        assert!(
            err.starts_with("/home/u/.config/deck/config.toml:"),
            "{err}"
        );
        assert!(err.contains("line 2"), "{err}");
        let err = parse("colour = 1\n", "c.toml").unwrap_err().to_string();
        assert!(err.contains("colour"), "{err}");
        let err = parse("density = \"huge\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("density"), "{err}");
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
        assert!(themes.iter().any(|t| t.name == "mine"));
        assert!(themes.iter().any(|t| t.name == "dark"));
    }
}
