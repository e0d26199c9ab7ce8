//! The registry: one name per agent, each agent's fixtures recognised as
//! its own, each agent's folder moved by its environment variable.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::{ALL, Agent, Format, Home, by_latest_word, by_name, of_head};

/// The first bytes of a file, decompressed when it is zstd.
fn head(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let mut head = Vec::new();
    if bytes.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        let dec = zstd::stream::read::Decoder::new(&bytes[..]).unwrap();
        dec.take(1 << 20).read_to_end(&mut head).unwrap();
    } else {
        head = bytes[..bytes.len().min(1 << 20)].to_vec();
    }
    head
}

/// Every file under `dir` whose name ends with one of `ends`.
fn files(dir: &Path, ends: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    super::find::walk(dir, 8, &mut out);
    out.retain(|p| ends.iter().any(|e| p.to_string_lossy().ends_with(e)));
    out.sort();
    out
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn names_words_and_formats_are_each_one_agents() {
    let mut names: Vec<&str> = ALL.iter().map(|a| a.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ALL.len(), "a name twice in the registry");
    let mut formats: Vec<String> = ALL.iter().map(|a| format!("{:?}", a.format())).collect();
    formats.sort_unstable();
    formats.dedup();
    assert_eq!(formats.len(), ALL.len(), "a format twice in the registry");
    for a in ALL {
        assert_eq!(by_name(a.name()).map(|b| b.name()), Some(a.name()));
        assert_eq!(a.format().agent().name(), a.name());
        assert_eq!(a.format().name(), a.title());
        if let Some(word) = a.latest_word() {
            assert_eq!(by_latest_word(word).map(|b| b.name()), Some(a.name()));
        }
    }
    // DSH's other formats are DSH's.
    for f in [Format::FrameLog, Format::History] {
        assert_eq!(f.agent().name(), "dsh");
    }
    assert!(by_name("nobody").is_none());
}

#[test]
fn each_agents_fixtures_are_recognised_as_its_own() {
    // tests/fixtures/agents/<name>/, and DSH's captures and demo sessions.
    let mut dirs: Vec<(&str, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(repo("tests/fixtures/agents")).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let agent = by_name(&name).unwrap_or_else(|| panic!("no agent named {name}"));
        dirs.push((agent.name(), dir));
    }
    dirs.push(("dsh", repo("demo-sessions")));
    for a in ALL {
        assert!(
            dirs.iter().any(|(n, _)| *n == a.name()),
            "no fixtures for {}",
            a.name()
        );
    }
    for (name, dir) in dirs {
        let found = files(&dir, &[".jsonl", ".jsonl.zstd", ".aider.chat.history.md"]);
        let mut recognised = 0;
        // A database is its agent's when the agent reads it.
        for db in files(&dir, &[".db"]) {
            let got: Vec<&str> = ALL
                .iter()
                .filter(|a| a.database(&db, &mut |_| {}).is_some())
                .map(|a| a.name())
                .collect();
            assert_eq!(got, [name], "{}", db.display());
            recognised += 1;
        }
        for file in &found {
            let head = head(file);
            // (A file of text lines is told by its first line: aider's.)
            let text = super::read::first_text_line(&head).and_then(super::of_text);
            if super::read::first_object_line(&head).is_none() && text.is_none() {
                continue; // not a log at all (a broken subagent's, on purpose)
            }
            let got = of_head(&head).map(|a| a.name());
            assert_eq!(got, Some(name), "{}", file.display());
            recognised += 1;
        }
        // Sessions written as one JSON document (Cline's `<id>.messages.json`,
        // ATIF, mini-swe-agent's and SWE-agent's trajectories, Gemini CLI's older chats): the agent whose
        // document it is.
        for file in files(&dir, &[".json", ".traj"]) {
            // The root of a session's tree of files (OpenCode's older
            // `storage/`: a session's info file): the agent whose tree it is.
            let trees: Vec<&str> = ALL.iter().filter(|a| a.tree(&file, &mut |_| {}).is_some()).map(|a| a.name()).collect();
            if !trees.is_empty() {
                assert_eq!(trees, [name], "{}", file.display());
                recognised += 1;
                continue;
            }
            let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&std::fs::read(&file).unwrap()) else {
                continue;
            };
            let shape = shape_of(&doc);
            let got: Vec<&str> = ALL
                .iter()
                .filter(|a| a.document(&doc).is_some() || a.document_entries(&shape).is_some())
                .map(|a| a.name())
                .collect();
            if got.is_empty() {
                continue; // SUMMARY.json, a manifest: no session
            }
            assert_eq!(got, [name], "{}", file.display());
            recognised += 1;
        }
        assert!(recognised > 0, "nothing recognised in {}", dir.display());
    }
    // The captures' logs (not their RPC log, which is no session's).
    for capture in ["tour", "approvals"] {
        for log in ["session.jsonl", "frames-reconnect.jsonl", "host-frames.jsonl"] {
            let file = repo("tests/fixtures/captures").join(capture).join(log);
            let got = of_head(&head(&file)).map(|a| a.name());
            assert_eq!(got, Some("dsh"), "{}", file.display());
        }
    }
}

#[test]
fn each_agents_folder_honours_its_environment_variable() {
    let home = Path::new("/home/me");
    let homes: Vec<(&dyn Agent, Home)> = ALL
        .iter()
        .filter_map(|&a| Some((a, a.home()?)))
        .collect();
    let names: Vec<&str> = homes.iter().map(|(a, _)| a.name()).collect();
    assert_eq!(
        names,
        ["grok", "mini-swe-agent", "qwen-code", "claude-code", "codex", "gemini-cli", "opencode", "copilot-cli", "cursor", "kimi", "pi", "cline", "cline-tasks", "dsh"]
    );
    for (a, h) in homes {
        let set = |v: &'static str| move |var: &str| (var == h.var).then(|| OsString::from(v));
        assert_eq!(
            h.resolve(set("/elsewhere"), Some(home)),
            Some(PathBuf::from("/elsewhere").join(h.under_var)),
            "{}",
            a.name()
        );
        // Unset or empty: under the home folder.
        let default = Some(home.join(h.dir));
        assert_eq!(h.resolve(|_: &str| None, Some(home)), default);
        assert_eq!(h.resolve(set(""), Some(home)), default);
        assert_eq!(h.resolve(|_: &str| None, None), None);
    }
}

#[test]
fn sessions_resume_in_their_agent_when_it_can() {
    let cwd = Path::new("/work/app");
    let claude = by_name("claude-code").unwrap().resume("abc", Some(cwd)).unwrap();
    assert_eq!((claude.program, claude.args.as_slice()), ("claude", &["--resume".to_string(), "abc".into()][..]));
    assert_eq!(claude.cwd.as_deref(), Some(cwd));
    let codex = by_name("codex").unwrap().resume("abc", Some(cwd)).unwrap();
    assert_eq!((codex.program, codex.args.as_slice()), ("codex", &["resume".to_string(), "abc".into()][..]));
    // DSH's sessions resume in DSH (`deck connect`), ACP recordings in
    // whatever agent was spoken to: no command here.
    assert!(by_name("dsh").unwrap().resume("abc", Some(cwd)).is_none());
    assert!(by_name("acp").unwrap().resume("abc", Some(cwd)).is_none());
}

/// A document as the loader shows it to its agents to recognise
/// ([`Agent::document_entries`]): its top-level lists emptied; a list, its
/// first element alone.
fn shape_of(doc: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match doc {
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), if v.is_array() { Value::Array(Vec::new()) } else { v.clone() }))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().take(1).cloned().collect()),
        other => other.clone(),
    }
}
