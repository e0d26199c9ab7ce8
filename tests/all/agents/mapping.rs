//! Each agent's mapping table (`Agent::mapping`, in its folder) is the one
//! `docs/agents.md` shows, and the one its presenters follow on its
//! fixtures: a tool listed as a card tag is drawn as that card (or as the
//! generic card an error or a call it cannot read falls back to); a tool
//! listed as the plan or a question has that role.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use deck::agents::{ALL, Agent};
use deck::session::{CallRole, Transcript};
use deck::source::load_path;

/// The heading of each agent's section in docs/agents.md.
fn heading(agent: &str) -> &'static str {
    match agent {
        "claude-code" => "## Claude Code",
        "codex" => "## Codex CLI",
        "gemini-cli" => "## Gemini CLI",
        "qwen-code" => "## Qwen Code",
        "opencode" => "## OpenCode",
        "copilot-cli" => "## GitHub Copilot CLI",
        "cursor" => "## Cursor",
        "kimi" => "## Kimi Code",
        "pi" => "## pi",
        "cline" => "## Cline",
        "cline-tasks" => "## Cline, Roo Code and Kilo Code (VS Code)",
        "grok" => "## Grok Build",
        "aider" => "## aider",
        "mini-swe-agent" => "## mini-swe-agent",
        other => panic!("no section of docs/agents.md is known for {other}"),
    }
}

/// A card cell of the docs' table, as a mapping's card.
fn card_of(cell: &str) -> &'static str {
    let cell = cell.trim();
    for (prefix, card) in [
        ("terminal", "terminal"),
        ("read", "read"),
        ("diff", "diff"),
        ("search", "search"),
        ("web", "web"),
        ("generic", "generic"),
        ("the plan checklist", "plan"),
        ("the question card", "question"),
    ] {
        if cell.starts_with(prefix) {
            return card;
        }
    }
    panic!("docs/agents.md: a card cell names no card: {cell:?}")
}

/// The (tool, card) rows of the `| tool | card |` table of `section` in
/// docs/agents.md, but its catch-all rows (MCP tools, anything else).
fn documented(docs: &str, section: &str) -> BTreeSet<(String, String)> {
    let start = docs
        .find(&format!("\n{section}\n"))
        .unwrap_or_else(|| panic!("docs/agents.md has no {section:?}"));
    let rest = &docs[start + section.len() + 2..];
    let rest = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let table = rest
        .find("| tool | card |")
        .unwrap_or_else(|| panic!("{section}: no `| tool | card |` table"));
    let mut rows = BTreeSet::new();
    for line in rest[table..].lines().skip(2) {
        let Some(line) = line.strip_prefix('|') else {
            break;
        };
        let cells: Vec<&str> = line.splitn(3, '|').collect();
        let (tools, card) = (cells[0], card_of(cells[1]));
        if tools.contains("anything else") || tools.contains("mcp") || tools.contains("MCP") {
            assert_eq!(card, "generic", "{section}: a catch-all row is generic");
            continue;
        }
        for tool in tools.split(',') {
            rows.insert((tool.trim().trim_matches('`').to_string(), card.to_string()));
        }
    }
    rows
}

fn mapped(agent: &dyn Agent) -> BTreeSet<(String, String)> {
    let mut rows = BTreeSet::new();
    for m in agent.mapping() {
        for tool in m.tools {
            rows.insert((tool.to_string(), m.card.to_string()));
        }
    }
    rows
}

#[test]
fn the_docs_table_of_each_agent_is_its_folders_mapping() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/agents.md")).unwrap();
    let mut checked = 0;
    for agent in ALL.iter().filter(|a| !a.mapping().is_empty()) {
        let section = heading(agent.name());
        assert_eq!(
            documented(&docs, section),
            mapped(*agent),
            "{section}: docs/agents.md's table and {}'s mapping",
            agent.name()
        );
        checked += 1;
    }
    assert_eq!(
        checked, 14,
        "every agent whose cards are chosen by tool name (all but ACP recordings, ATIF and DSH)"
    );
}

fn sessions_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sessions_under(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "jsonl" || x == "db" || x == "traj")
            || p.to_string_lossy().ends_with(".messages.json")
            || p.file_name()
                .is_some_and(|n| n == "api_conversation_history.json")
            || p.to_string_lossy().ends_with(".traj.json")
            || p.file_name().is_some_and(|n| n == ".aider.chat.history.md")
        {
            out.push(p);
        }
    }
}

#[test]
fn the_presenters_draw_each_agents_fixtures_as_its_mapping_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for agent in ALL.iter().filter(|a| !a.mapping().is_empty()) {
        let presenters = agent.presenters().unwrap();
        let mut files = Vec::new();
        sessions_under(
            &root.join("tests/fixtures/agents").join(agent.name()),
            &mut files,
        );
        assert!(!files.is_empty(), "{}: no fixtures", agent.name());
        for file in files {
            let Ok(loaded) = load_path(&file.to_string_lossy()) else {
                continue;
            };
            for s in loaded.sessions {
                let t = Transcript::from_records(s.id, &s.records, deck::agents::stock());
                for card in t.cards().iter() {
                    let Some(tool) = card.tool.as_deref() else {
                        continue;
                    };
                    let Some(row) = agent.mapping().iter().find(|m| m.tools.contains(&tool)) else {
                        continue;
                    };
                    let at = format!("{}: {tool} ({})", file.display(), card.call_id);
                    match row.card {
                        "plan" => assert_eq!(presenters.role(tool), CallRole::Plans, "{at}"),
                        "question" => assert_eq!(presenters.role(tool), CallRole::Asks, "{at}"),
                        want => {
                            let view = card.result_view.as_ref().or(card.call_view.as_ref());
                            let Some(tag) = view.and_then(|v| v.tag()) else {
                                continue;
                            };
                            // An error, or a call it cannot read: the generic
                            // card; a command Codex labelled a read or a
                            // search, or one that runs `apply_patch`: that
                            // card (docs/agents.md says both).
                            let also: &[&str] = match (agent.name(), want) {
                                ("codex", "terminal") => &["generic", "read", "search", "diff"],
                                // A command that is plainly a read or a
                                // search; SWE-agent's submitted patch.
                                ("mini-swe-agent", "terminal") => {
                                    &["generic", "read", "search", "diff"]
                                }
                                _ => &["generic"],
                            };
                            assert!(
                                tag == want || also.contains(&tag.as_str()),
                                "{at}: drawn as {tag}, mapped to {want}"
                            );
                            if tag != want {
                                continue;
                            }
                        }
                    }
                    seen.insert((agent.name().to_string(), row.card.to_string()));
                }
            }
        }
    }
    // The cards a mapping names were met in the fixtures, drawn as it says
    // (the fixtures are real sessions: a card no session of them shows is
    // said, not made up).
    for agent in ALL.iter().filter(|a| !a.mapping().is_empty()) {
        let cards: BTreeSet<&str> = agent.mapping().iter().map(|m| m.card).collect();
        let met: Vec<&str> = (cards.iter().copied())
            .filter(|c| seen.contains(&(agent.name().to_string(), c.to_string())))
            .collect();
        let unmet: Vec<&&str> = cards.iter().filter(|c| !met.contains(c)).collect();
        if !unmet.is_empty() {
            eprintln!("{}: no fixture shows {unmet:?}", agent.name());
        }
        assert!(
            met.len() + 1 >= cards.len(),
            "{}: met only {met:?}",
            agent.name()
        );
    }
}
