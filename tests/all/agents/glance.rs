//! The "every agent at a glance" table of `docs/agents.md` says what is
//! so: every agent of the registry has its row; a row that says a kit ran a
//! version names a kit that installs that version; a row read from the
//! documented format has fixtures whose notes say they were not verified
//! against a run.

use std::path::Path;

use deck::agents::ALL;

/// The first cell of an agent's row.
fn row_name(agent: &str) -> &'static str {
    match agent {
        "dsh" => "DSH",
        "claude-code" => "Claude Code",
        "codex" => "Codex CLI",
        "gemini-cli" => "Gemini CLI",
        "qwen-code" => "Qwen Code",
        "opencode" => "OpenCode",
        "copilot-cli" => "GitHub Copilot CLI",
        "pi" => "pi",
        "cline" => "Cline CLI",
        "cline-tasks" => "Cline, Roo Code, Kilo Code (VS Code)",
        "aider" => "aider",
        "mini-swe-agent" => "mini-swe-agent",
        "cursor" => "Cursor",
        "grok" => "Grok Build",
        "atif" => "Harbor ATIF",
        "kimi" => "Kimi Code",
        "acp" => "ACP recordings",
        other => panic!("no row of the table is known for {other}"),
    }
}

/// Where a row's kit lives, by its name.
fn kit_dir(row: &str) -> &'static str {
    match row {
        "DSH" => "tests/e2e/kit",
        "Claude Code" => "tests/e2e/agents/claude-code",
        "Codex CLI" => "tests/e2e/agents/codex",
        "Gemini CLI" => "tests/e2e/agents/gemini-cli",
        "Qwen Code" => "tests/e2e/agents/qwen-code",
        "OpenCode" => "tests/e2e/agents/opencode",
        "GitHub Copilot CLI" => "tests/e2e/agents/copilot-cli",
        "pi" => "tests/e2e/agents/pi",
        "Cline CLI" => "tests/e2e/agents/cline",
        "aider" => "tests/e2e/agents/aider",
        "mini-swe-agent" => "tests/e2e/agents/mini-swe-agent",
        "Kimi Code" => "tests/e2e/agents/kimi",
        "ACP recordings" => "tests/e2e/agents/acp",
        other => panic!("the table says {other} has a kit: none is known"),
    }
}

/// Where a format-only row's fixtures live.
fn fixture_dir(row: &str) -> &'static str {
    match row {
        "SWE-agent" => "tests/fixtures/agents/mini-swe-agent/swe-agent",
        "Cursor" => "tests/fixtures/agents/cursor/tour",
        "Grok Build" => "tests/fixtures/agents/grok/tour",
        "Harbor ATIF" => "tests/fixtures/agents/atif/tour",
        "Kimi Code" => "tests/fixtures/agents/kimi/tour",
        "Cline, Roo Code, Kilo Code (VS Code)" => "tests/fixtures/agents/cline-tasks/tour",
        other => panic!("the table says {other} is read from its format: no fixtures are known"),
    }
}

/// The table's rows: (agent, tested).
fn rows() -> Vec<(String, String)> {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/agents.md"))
            .unwrap();
    let start = docs
        .find("\n## Every agent at a glance\n")
        .expect("docs/agents.md has the table");
    let rest = &docs[start + 1..];
    let rest = &rest[..rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3)];
    rest.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| agent |"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            (
                cells[0].trim_start_matches("| ").to_string(),
                cells[1].to_string(),
            )
        })
        .collect()
}

/// Every file under `dir`, read as text where it is text.
fn texts_under(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            texts_under(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push_str(&text);
        }
    }
}

#[test]
fn every_agent_has_a_row() {
    let rows = rows();
    for agent in ALL {
        let name = row_name(agent.name());
        assert!(
            rows.iter().any(|(row, _)| row == name),
            "docs/agents.md's table has no row {name:?} for {}",
            agent.name()
        );
    }
}

#[test]
fn every_kit_row_names_a_kit_of_that_version_and_every_format_row_says_so() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (row, tested) in rows() {
        if let Some(rest) = tested.strip_prefix("kit") {
            let dir = root.join(kit_dir(&row));
            assert!(
                dir.join("run.sh").exists() || dir.join("lib.sh").exists(),
                "{row}: {dir:?}"
            );
            let version = rest.split_whitespace().next().unwrap_or("");
            if version.starts_with(|c: char| c.is_ascii_digit()) {
                let mut text = String::new();
                texts_under(&dir, &mut text);
                assert!(
                    text.contains(version),
                    "{row}: the table says kit {version}, {dir:?} does not name it"
                );
            }
        } else {
            assert!(tested.starts_with("format"), "{row}: {tested:?}");
            let mut text = String::new();
            texts_under(&root.join(fixture_dir(&row)), &mut text);
            assert!(
                text.contains("not verified against a run"),
                "{row}: its fixtures' notes do not say they are from the documented format"
            );
        }
    }
}
