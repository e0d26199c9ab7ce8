//! The documentation's links and size: every relative Markdown link in
//! `README.md`, `CONTRIBUTING.md` and `docs/*.md` points at a file or folder
//! of the repository and, when it has a `#anchor` into a Markdown file, at a
//! heading of that file (GitHub's slugs); every `docs/*.md` is linked from
//! `README.md` and from the index `docs/README.md`; and `README.md` stays at
//! most 300 lines (the reference lives in `docs/`).
//!
//! Links inside fenced code blocks and inline code spans are not links and
//! are not checked; links with a scheme (`https:`, `mailto:`) are not checked.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines `README.md` may have.
const README_MAX_LINES: usize = 300;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files whose links are checked, relative to the repository.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md"), PathBuf::from("CONTRIBUTING.md")];
    files.extend(docs_files());
    files
}

/// `docs/*.md`, sorted, relative to the repository.
fn docs_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("docs/ is readable").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| Path::new("docs").join(path.file_name().expect("a file name")))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of a document outside fenced code blocks, as blocks (runs of
/// lines between blank lines), each with the number of its first line.
fn prose_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut fence: Option<&str> = None;
    let mut current = String::new();
    let mut start = 0;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(marker) = fence {
            // Inside a fence: only a line opening with the same marker closes it.
            if trimmed.starts_with(marker) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
        }
        if fence.is_some() || line.trim().is_empty() {
            if !current.is_empty() {
                blocks.push((start, std::mem::take(&mut current)));
            }
            continue;
        }
        if current.is_empty() {
            start = i + 1;
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.is_empty() {
        blocks.push((start, current));
    }
    blocks
}

/// A block with its inline code spans blanked out: a run of N backticks up
/// to the next run of exactly N (a run with no closing one is left as it is).
/// A span over several lines keeps its line breaks, so lines still count.
fn without_code_spans(block: &str) -> String {
    let chars: Vec<char> = block.chars().collect();
    let run_at = |i: usize| chars[i..].iter().take_while(|&&c| c == '`').count();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let n = run_at(i);
        // Look for the closing run of the same length.
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                out.push_str(" code ");
                out.extend(chars[i..j].iter().filter(|&&c| c == '\n'));
                i = j + n;
            }
            None => {
                out.extend(&chars[i..i + n]);
                i += n;
            }
        }
    }
    out
}

/// The targets of the inline links `[text](target)` in a document, each
/// with the number of the line it is on.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (first, block) in prose_blocks(text) {
        let block = without_code_spans(&block);
        let mut at = 0;
        while let Some(open) = block[at..].find("](").map(|i| at + i + 2) {
            let Some(len) = block[open..].find(')') else {
                break;
            };
            let line = first + block[..open].matches('\n').count();
            found.push((line, block[open..open + len].trim().to_string()));
            at = open + len;
        }
    }
    found
}

/// GitHub's anchor for a heading's text: lowercase, punctuation dropped
/// (letters, digits, `-`, `_` and spaces kept), each space a `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks); a
/// repeated heading gets `-1`, `-2` … as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = BTreeSet::new();
    for (_, block) in prose_blocks(text) {
        for line in block.lines() {
            let hashes = line.chars().take_while(|&c| c == '#').count();
            if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
                continue;
            }
            let base = slug(&line[hashes..]);
            let n = seen.entry(base.clone()).or_insert(0);
            let anchor = match *n {
                0 => base.clone(),
                n => format!("{base}-{n}"),
            };
            anchors.insert(anchor);
            *n += 1;
        }
    }
    anchors
}

/// Whether a link target has a scheme (`https:`, `mailto:` …): not a file.
fn is_external(target: &str) -> bool {
    match target.find(':') {
        Some(colon) => {
            let scheme = &target[..colon];
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// What is wrong with one link of `doc` (None when it is fine).
fn check_link(doc: &Path, target: &str) -> Option<String> {
    if is_external(target) {
        return None;
    }
    let (file, anchor) = match target.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (target, None),
    };
    // An empty file part is the document itself; else relative to its folder.
    let path = if file.is_empty() {
        doc.to_path_buf()
    } else {
        doc.parent().unwrap_or(Path::new("")).join(file)
    };
    if !root().join(&path).exists() {
        return Some(format!("{} does not exist", path.display()));
    }
    let anchor = anchor?;
    if path.extension().is_none_or(|ext| ext != "md") {
        return None; // an anchor into code (`#L10`) is not a heading
    }
    if !anchors(&read(&path)).contains(anchor) {
        return Some(format!("{} has no heading #{anchor}", path.display()));
    }
    None
}

#[test]
fn every_relative_link_points_at_a_file_and_a_heading() {
    let mut broken = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        for (line, target) in links(&text) {
            if let Some(why) = check_link(&doc, &target) {
                broken.push(format!("{}:{line}: ({target}): {why}", doc.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_docs_file_is_linked_from_the_readme_and_the_index() {
    let readme: BTreeSet<String> = links(&read(Path::new("README.md")))
        .into_iter()
        .map(|(_, target)| target.split('#').next().unwrap_or("").to_string())
        .collect();
    let index: BTreeSet<String> = links(&read(Path::new("docs/README.md")))
        .into_iter()
        .map(|(_, target)| target.split('#').next().unwrap_or("").to_string())
        .collect();
    let mut missing = Vec::new();
    for file in docs_files() {
        let name = file.file_name().expect("a file name").to_string_lossy();
        if name == "README.md" {
            continue;
        }
        if !readme.contains(&format!("docs/{name}")) {
            missing.push(format!("README.md does not link docs/{name}"));
        }
        if !index.contains(name.as_ref()) {
            missing.push(format!("docs/README.md does not link {name}"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_readme_is_short() {
    let lines = read(Path::new("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move reference text to docs/"
    );
}

#[test]
fn slugs_and_links_are_read_as_github_reads_them() {
    // The rule the anchors above are checked with, on headings of this repo.
    assert_eq!(
        slug("`deck view` — read a finished session"),
        "deck-view--read-a-finished-session"
    );
    assert_eq!(
        slug("Drive a session (`deck connect`)"),
        "drive-a-session-deck-connect"
    );
    assert_eq!(slug("Bug reports: the log"), "bug-reports-the-log");
    // Links in code spans and fenced blocks are not links.
    let found = links("See [a `b](c)` d](x.md#y) and `[e](f)`.\n\n```\n[g](h)\n```\n");
    assert_eq!(found, vec![(1, "x.md#y".to_string())]);
    // A link's line counts the lines of a code span over two lines before it.
    let found = links("Text with `a span\nover two` lines, [and](z.md) a link.\n");
    assert_eq!(found, vec![(2, "z.md".to_string())]);
}
