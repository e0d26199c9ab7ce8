//! A home folder holding every agent's sessions at the places the agents
//! keep them (the fixtures copied there): `deck sessions` lists each
//! session once, with the agent it is, and `agent:` finds each agent's.

use std::collections::BTreeMap;

use crate::common::agent_tour::Home;

#[test]
fn every_agents_sessions_are_listed_once_with_their_agent() {
    let home = Home::new();
    let places = [
        (
            "claude-code/tour/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl",
            ".claude/projects/-workspace-demo/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl",
        ),
        (
            "codex/tour.rollout.jsonl",
            ".codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-tour.jsonl",
        ),
        (
            "gemini-cli/tour/session-2026-12-04T07-51-b8660323.jsonl",
            ".gemini/tmp/demo/chats/session-2026-12-04T07-51-b8660323.jsonl",
        ),
        (
            "qwen-code/tour/df671d1b-87bf-4e39-814f-4fc91be8dc0e.jsonl",
            ".qwen/projects/-workspace-demo/chats/df671d1b-87bf-4e39-814f-4fc91be8dc0e.jsonl",
        ),
        (
            "opencode/tour/opencode.db",
            ".local/share/opencode/opencode.db",
        ),
        (
            "copilot-cli/tour/events.jsonl",
            ".copilot/session-state/s1/events.jsonl",
        ),
        (
            "copilot-cli/tour/workspace.yaml",
            ".copilot/session-state/s1/workspace.yaml",
        ),
        (
            "cursor/tour/5f0c2a8e-3b1d-4c7a-9e62-0d8b7a41c9f3.jsonl",
            ".cursor/projects/workspace-demo/agent-transcripts/5f0c2a8e-3b1d-4c7a-9e62-0d8b7a41c9f3/5f0c2a8e-3b1d-4c7a-9e62-0d8b7a41c9f3.jsonl",
        ),
        (
            "kimi/tour/sessions/2f108d9d78a2ccf520e99c4d45c05ab0/3c84154a-3e8f-42a2-84e9-d232960af410/wire.jsonl",
            ".kimi/sessions/2f108d9d78a2ccf520e99c4d45c05ab0/3c84154a-3e8f-42a2-84e9-d232960af410/wire.jsonl",
        ),
        (
            "pi/tour/2026-12-04T10-19-52-759Z_01a24091-4836-74ba-9643-b89fe1f6b26a.jsonl",
            ".pi/agent/sessions/--workspace-demo--/2026-12-04T10-19-52-759Z_01a24091-4836-74ba-9643-b89fe1f6b26a.jsonl",
        ),
        (
            "cline/tour/1796379653114_ae203/1796379653114_ae203.messages.json",
            ".cline/data/sessions/1796379653114_ae203/1796379653114_ae203.messages.json",
        ),
        (
            "cline/tour/1796379653114_ae203/1796379653114_ae203.json",
            ".cline/data/sessions/1796379653114_ae203/1796379653114_ae203.json",
        ),
        (
            "grok/tour/updates.jsonl",
            ".grok/sessions/%2Fworkspace%2Fdemo/019ae6c2-5d10-7a3e-9c41-2f7b8e0d4a16/updates.jsonl",
        ),
        (
            "mini-swe-agent/tour/last_mini_run.traj.json",
            ".config/mini-swe-agent/last_mini_run.traj.json",
        ),
    ];
    for (fixture, at) in places {
        home.put(fixture, at);
    }
    let rows = home.sessions(&[], &[]);
    let mut by_agent: BTreeMap<String, usize> = BTreeMap::new();
    for r in &rows {
        // pi's tree says, as a diagnostic, that a branch other than the
        // one drawn exists: that is said, not a problem with the file.
        let said = r["problem"].as_str().unwrap_or_default();
        assert!(
            r["problem"].is_null() || said.contains("tree branches"),
            "{r}"
        );
        *by_agent
            .entry(r["agent"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    let want: BTreeMap<String, usize> = [
        "claude-code",
        "codex",
        "gemini-cli",
        "qwen-code",
        "opencode",
        "copilot-cli",
        "cursor",
        "kimi",
        "pi",
        "cline",
        "grok",
        "mini-swe-agent",
    ]
    .iter()
    .map(|a| (a.to_string(), 1))
    .collect();
    assert_eq!(by_agent, want, "{rows:#?}");
}
