//! Sharing another agent's session without secrets: a Claude Code session
//! whose tool calls carry secrets the way agents write them — a Write's
//! content, an Edit's old and new text, a Bash command with a double-quoted
//! password, a tool's output — shows none of them in `deck render --redact`
//! (at every width, wrapped or not), `deck export` (HTML and cast) or the
//! TUI with `R`, and shows them without redaction.

use crossterm::event::KeyCode;
use deck::app::App;
use deck::app::file_sessions::FileMode;
use deck::cards::Density;
use serde_json::{Value, json};

use crate::common::tui::{ch, key, screen, themes};
use crate::common::{deck_cmd, stderr, stdout};

const PASSWORD: &str = "Sup3r-Secret-Value-77";
const QUOTED: &str = "Qz8-wintermute-4";
const TOKEN: &str = "ghp_hViIMTloiODWAnnjzk19iMmmbApegA5uS0il";
const ENV: &str = "kX9!mQ2#pLvault";

fn line(kind: &str, uuid: &str, message: Value, extra: Value) -> String {
    let mut v = json!({"parentUuid": null, "isSidechain": false, "userType": "external",
        "cwd": "/workspace/demo", "sessionId": "5e1f0000-0000-4000-8000-00000000cafe",
        "version": "2.1.328", "type": kind, "uuid": uuid,
        "timestamp": format!("2026-12-01T12:00:{:02}.000Z", uuid.len()), "message": message});
    if let (Some(o), Value::Object(e)) = (v.as_object_mut(), extra) {
        o.extend(e);
    }
    v.to_string()
}

fn call(n: usize, name: &str, input: Value, output: &str) -> [String; 2] {
    let id = format!("toolu_{n:02}");
    [
        line(
            "assistant",
            &format!("a{n}"),
            json!({"id": format!("msg_{n}"), "role": "assistant", "model": "claude-sonnet-4",
                "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}),
            json!({}),
        ),
        line(
            "user",
            &format!("r{n}"),
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": output}]}),
            json!({"toolUseResult": {"stdout": output, "stderr": "", "interrupted": false}}),
        ),
    ]
}

/// The session: secrets in JSON text, commands, edits and output.
fn session() -> String {
    let config = format!("{{\n  \"user\": \"app\",\n  \"password\": \"{PASSWORD}\"\n}}\n");
    let mut out = vec![line(
        "user",
        "u0",
        json!({"role": "user", "content": "Set up the database config."}),
        json!({}),
    )];
    out.extend(call(
        1,
        "Write",
        json!({"file_path": "/workspace/demo/config.json", "content": config}),
        "File created successfully at: /workspace/demo/config.json",
    ));
    out.extend(call(
        2,
        "Edit",
        json!({"file_path": "/workspace/demo/.env", "old_string": format!("DB_PASSWORD={ENV}"),
            "new_string": format!("DB_PASSWORD={ENV}\nGITHUB_TOKEN={TOKEN}")}),
        "The file /workspace/demo/.env has been updated.",
    ));
    out.extend(call(
        3,
        "Bash",
        json!({"command": format!("mysql -u root --password=\"{QUOTED}\" app -e 'select 1'"),
            "description": "Check the database"}),
        &format!("connected with \"password\": \"{PASSWORD}\"\n1"),
    ));
    out.join("\n") + "\n"
}

fn survivors(text: &str) -> Vec<&'static str> {
    [PASSWORD, QUOTED, TOKEN, ENV]
        .into_iter()
        .filter(|s| text.contains(s) || text.contains(&s.replace('&', "&amp;")))
        .collect()
}

fn input() -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("redact-agents-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("5e1f0000-0000-4000-8000-00000000cafe.jsonl");
    std::fs::write(&p, session()).unwrap();
    p
}

#[test]
fn claude_code_secrets_are_gone_from_every_output() {
    let input = input();
    let path = input.to_str().unwrap();
    for width in ["160", "60", "30"] {
        let args = ["render", path, "--density", "full", "--width", width];
        let o = deck_cmd().args(args).arg("--redact").output().unwrap();
        assert!(o.status.success(), "{width}: {}", stderr(&o));
        assert_eq!(
            survivors(&stdout(&o)),
            Vec::<&str>::new(),
            "{width}: {}",
            stdout(&o)
        );
        // The fixture plants them: without --redact they show (whole
        // where nothing wraps them).
        if width == "160" {
            let plain = stdout(&deck_cmd().args(args).output().unwrap());
            assert_eq!(survivors(&plain).len(), 4, "{plain}");
        }
    }
    let dir = input.parent().unwrap();
    for (name, extra) in [
        ("s.html", &[][..]),
        ("s.cast", &["--width", "40", "--height", "20"][..]),
    ] {
        let out = dir.join(name);
        let o = deck_cmd()
            .args(["export", path, "-o", out.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let written = std::fs::read_to_string(&out).unwrap();
        assert_eq!(survivors(&written), Vec::<&str>::new(), "{name}");
    }
}

#[test]
fn r_hides_them_on_screen() {
    let text = session();
    let loaded = deck::source::load_bytes("claude.jsonl", text.as_bytes()).unwrap();
    let mut app = App::from_file("claude.jsonl".into(), loaded, None, FileMode::View).unwrap();
    app.set_themes(themes(), 0);
    app.set_density(Density::Full);
    app.update(deck::app::Msg::Resize(50, 200));
    app.update(key(KeyCode::Home));
    assert!(!survivors(&screen(&mut app)).is_empty());
    app.update(ch('R'));
    let on = screen(&mut app);
    assert_eq!(survivors(&on), Vec::<&str>::new(), "{on}");
}
