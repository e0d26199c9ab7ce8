//! Paths a user walks into on the command line: bad sizes, speeds the player
//! does not have, binary files, broken config files, the config file's
//! defaults in `render`, every theme in `--help`, the export format taken
//! from the output's name.

use std::path::{Path, PathBuf};

use deck::cli::PlayerArgs;
use deck::commands::replay::replay_app;

use crate::common::{self, deck, deck_cmd, stderr, stdout};

/// A fresh config folder (`XDG_CONFIG_HOME`) holding `deck/config.toml`.
fn config_home(name: &str, config: &str) -> PathBuf {
    let home = std::env::temp_dir().join(format!("deck-cli-edges-{}-{name}", std::process::id()));
    std::fs::create_dir_all(home.join("deck")).unwrap();
    std::fs::write(home.join("deck/config.toml"), config).unwrap();
    home
}

fn render_with(home: &Path, args: &[&str]) -> std::process::Output {
    deck_cmd()
        .env("XDG_CONFIG_HOME", home)
        .env_remove("COLORFGBG")
        .arg("render")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn zero_columns_or_rows_are_refused() {
    let tour = common::capture_str("tour", "frames.jsonl");
    for args in [
        vec!["render", &tour, "--width", "0"],
        vec!["render", &tour, "--height", "0"],
    ] {
        let o = deck(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains("must be at least 1"), "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    let o = deck(&[
        "export", &tour, "-o", "-", "--format", "cast", "--width", "3",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--width"), "{}", stderr(&o));
}

#[test]
fn a_speed_the_player_does_not_have_is_said() {
    let loaded = deck::source::load_path(&common::capture_str("tour", "frames.jsonl")).unwrap();
    let play = |speed: f64| {
        let args = PlayerArgs {
            speed: Some(speed),
            paused: true,
            ..Default::default()
        };
        replay_app("tour".into(), &loaded, None, &args, &Default::default())
    };
    let app = play(1000.0).unwrap();
    assert_eq!(
        app.message(),
        Some("--speed 1000: playing at 64× (speeds go 0.25× … 64×)")
    );
    assert_eq!(app.player().unwrap().speed(), 64.0);
    assert_eq!(play(4.0).unwrap().message(), None);
    let err = play(-1.0).err().unwrap().to_string();
    assert!(err.contains("must be a positive number"), "{err}");
}

#[test]
fn a_binary_file_is_not_a_session_log() {
    let dir = std::env::temp_dir().join(format!("deck-binary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = std::fs::read(env!("CARGO_BIN_EXE_deck")).unwrap();
    let path = dir.join("deck.bin");
    std::fs::write(&path, &exe[..64 * 1024]).unwrap();
    let o = deck(&["render", path.to_str().unwrap()]);
    assert!(!o.status.success());
    assert_eq!(
        stderr(&o).trim(),
        format!("deck: {}: not a session log (binary data)", path.display())
    );
    // Text that is not a log still says why it is not one.
    std::fs::write(&path, "hello\n").unwrap();
    let o = deck(&["render", path.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("unknown format: not JSON"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_broken_config_names_file_line_and_column() {
    let home = config_home("broken", "theme = \"light\"\ndensity = \"huge\"\n");
    let tour = common::capture_str("tour", "frames.jsonl");
    let o = render_with(&home, &[&tour]);
    assert!(!o.status.success());
    let file = home.join("deck/config.toml");
    assert_eq!(
        stderr(&o).trim(),
        format!(
            "deck: {}:2:11: unknown variant `huge`, expected one of `line`, `preview`, `full`",
            file.display()
        )
    );
}

#[test]
fn render_takes_theme_and_density_from_the_config_unless_flags_say() {
    let tour = common::capture_str("tour", "frames.jsonl");
    let home = config_home("render", "theme = \"light\"\ndensity = \"line\"\n");
    let empty = config_home("empty", "");
    let styled = |home: &Path, extra: &[&str]| {
        let mut args = vec![tour.as_str(), "--format", "styled", "--width", "80"];
        args.extend_from_slice(extra);
        let o = render_with(home, &args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let from_config = styled(&home, &[]);
    assert_eq!(
        from_config,
        styled(&empty, &["--theme", "light", "--density", "line"])
    );
    assert_ne!(from_config, styled(&empty, &[]));
    // Flags win over the file.
    assert_eq!(
        styled(&home, &["--theme", "dark", "--density", "full"]),
        styled(&empty, &["--density", "full"])
    );
}

#[test]
fn help_lists_every_theme() {
    for cmd in ["render", "view", "replay", "export"] {
        let help = stdout(&deck(&[cmd, "--help"]));
        for (name, _) in deck::theme::BUILTIN {
            assert!(
                help.contains(name),
                "deck {cmd} --help lacks {name}:\n{help}"
            );
        }
    }
}

#[test]
fn export_takes_its_format_from_the_output_name() {
    let tour = common::capture_str("tour", "frames.jsonl");
    let dir = std::env::temp_dir().join(format!("deck-export-name-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("tour.html");
    let o = deck(&["export", &tour, "-o", html.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&html)
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
    let cast = dir.join("tour.cast");
    let o = deck(&["export", &tour, "-o", cast.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = std::fs::read_to_string(&cast).unwrap();
    assert!(
        first.starts_with("{\"version\":2"),
        "{}",
        &first[..80.min(first.len())]
    );
    let o = deck(&["export", &tour, "-o", "-"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("add --format cast or --format html"),
        "{}",
        stderr(&o)
    );
}

/// Messages say `deck:` once, and a file with nothing to draw says so.
#[test]
fn messages_name_deck_once_and_an_empty_session_says_so() {
    let home = std::env::temp_dir().join(format!("deck-cli-edges-{}-nohome", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let o = deck_cmd()
        .env("HOME", &home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .args(["follow", "--latest", "claude"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.starts_with("deck: follow --latest: ") && !err.contains("deck: deck"),
        "{err}"
    );
    let file = home.join("subscribed.jsonl");
    std::fs::write(
        &file,
        "{\"type\":\"session/subscribed\",\"sessionId\":\"s\",\"lastSeq\":0}\n",
    )
    .unwrap();
    let o = deck(&["render", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains(&format!("deck: no events in {}", file.display())),
        "{}",
        stderr(&o)
    );
}
