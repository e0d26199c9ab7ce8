//! The house's rules, read from the source: the layer table of
//! `docs/architecture.md` (which top-level folder of `src/` may use which)
//! holds for every path the code names, and no folder has an import
//! circle among the modules directly in it.
//!
//! What counts as a use: a path the code writes (`use crate::x::y`,
//! `crate::x::y::f()`, `super::z`, `self::w`, `use` trees with braces),
//! resolved to the module it names. Unit tests (`tests.rs`, `tests_*.rs`,
//! `mod tests { … }`) are not counted: a test may reach what it checks.
//! Comments are skipped, so a path in a doc comment is no use, and so is a
//! `pub use` re-export (it keeps a public path; it calls nothing).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path below the crate root (`["app", "library", "open"]`).
type ModPath = Vec<String>;

/// Every module of `src/` from the file tree, with the file that holds it.
fn modules(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    fn walk(dir: &Path, at: &ModPath, out: &mut BTreeMap<ModPath, PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            if p.is_dir() {
                if name == "snapshots" {
                    continue;
                }
                let mut m = at.clone();
                m.push(name.clone());
                let file = p.join("mod.rs");
                if file.exists() {
                    out.insert(m.clone(), file);
                }
                walk(&p, &m, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                if stem == "mod" || (at.is_empty() && (stem == "lib" || stem == "main")) {
                    continue;
                }
                let mut m = at.clone();
                m.push(stem.to_string());
                out.insert(m, p);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &Vec::new(), &mut out);
    out
}

/// Whether the module is a unit test's (not counted).
fn is_test(m: &ModPath) -> bool {
    m.iter()
        .any(|s| s == "tests" || s.starts_with("tests_") || s.ends_with("_tests"))
}

/// The source with comments blanked and inline `mod tests { … }` blocks
/// (after `#[cfg(test)]`) cut.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    let (mut in_str, mut depth_block) = (false, 0usize);
    while i < b.len() {
        if depth_block > 0 {
            if b[i..].starts_with(b"*/") {
                depth_block -= 1;
                i += 2;
            } else if b[i..].starts_with(b"/*") {
                depth_block += 1;
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        if in_str {
            if b[i] == b'\\' {
                i += 2;
                continue;
            }
            if b[i] == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b[i..].starts_with(b"/*") {
            depth_block = 1;
            i += 2;
            continue;
        }
        if b[i] == b'"' && (i == 0 || b[i - 1] != b'\'') {
            // A string's text names no module (raw strings are rare in paths).
            in_str = true;
            out.push(' ');
            i += 1;
            continue;
        }
        out.push(b[i] as char);
        i += 1;
    }
    // Cut `#[cfg(test)] mod tests { … }` to its end (by braces).
    let mut code = out;
    while let Some(at) = code.find("#[cfg(test)]") {
        let rest = &code[at..];
        let Some(open) = rest.find('{') else { break };
        let head = &rest[..open];
        if !head.contains("mod ") {
            // `#[cfg(test)] fn …` or `mod tests;`: drop the attribute only.
            code.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        }
        if head.contains(';') {
            code.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        }
        let mut depth = 0;
        let mut end = code.len();
        for (k, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = at + open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(at..end, "");
    }
    code
}

/// The code without its `pub use …;` items.
fn without_reexports(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("pub use ") {
        out.push_str(&rest[..at]);
        rest = rest[at..].find(';').map_or("", |end| &rest[at + end + 1..]);
    }
    out.push_str(rest);
    out
}

/// The paths a piece of code writes, each as its segments (`crate`,
/// `super`, `self` first), `use` trees expanded.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .find(|p| chars[i..].starts_with(&p.chars().collect::<Vec<_>>()[..]));
        let before_ok = i == 0 || !(ident(chars[i - 1]) || chars[i - 1] == ':');
        if let (Some(_), true) = (starts, before_ok) {
            let (tree, end) = read_tree(&chars, i);
            out.extend(tree);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The path (or `use` tree) starting at `i`: its expanded paths and where
/// it ends.
fn read_tree(chars: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut segs = Vec::new();
    loop {
        let start = i;
        while i < chars.len() && ident(chars[i]) {
            i += 1;
        }
        if i > start {
            segs.push(chars[start..i].iter().collect::<String>());
        }
        // `::` then a segment or a brace group.
        let mut j = i;
        while j < chars.len() && chars[j].is_whitespace() {
            j += 1;
        }
        if chars[j..].starts_with(&[':', ':']) {
            j += 2;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if j < chars.len() && chars[j] == '{' {
                let mut out = Vec::new();
                let mut k = j + 1;
                loop {
                    while k < chars.len() && (chars[k].is_whitespace() || chars[k] == ',') {
                        k += 1;
                    }
                    if k >= chars.len() || chars[k] == '}' {
                        break;
                    }
                    let (inner, end) = read_tree(chars, k);
                    for p in inner {
                        let mut full = segs.clone();
                        full.extend(p);
                        out.push(full);
                    }
                    // Skip `as name` and anything up to the next item.
                    k = end;
                    while k < chars.len() && chars[k] != ',' && chars[k] != '}' {
                        if chars[k] == '{' {
                            break;
                        }
                        k += 1;
                    }
                }
                if out.is_empty() {
                    out.push(segs);
                }
                return (out, (k + 1).min(chars.len()));
            }
            if j < chars.len() && ident(chars[j]) {
                i = j;
                continue;
            }
            // `::<T>` or `::*`.
            return (vec![segs], j);
        }
        return (vec![segs], i);
    }
}

/// The module a path written in module `at` names: its longest prefix
/// that is a module (`None`: outside the crate's modules).
fn resolve(
    at: &ModPath,
    at_is_folder: bool,
    path: &[String],
    mods: &BTreeMap<ModPath, PathBuf>,
) -> Option<ModPath> {
    let mut base: ModPath = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("self") => at.clone(),
        Some("super") => at.clone(),
        _ => return None,
    };
    let mut rest = &path[1..];
    if path[0] == "super" {
        base.pop();
        while rest.first().map(String::as_str) == Some("super") {
            base.pop();
            rest = &rest[1..];
        }
    }
    let _ = at_is_folder;
    let mut found = None;
    let mut m = base.clone();
    if !m.is_empty() && mods.contains_key(&m) {
        found = Some(m.clone());
    }
    for s in rest {
        m.push(s.clone());
        if mods.contains_key(&m) {
            found = Some(m.clone());
        } else {
            break;
        }
    }
    found.or(if base.is_empty() { None } else { Some(base) })
}

/// Every use between two modules: (from, to), tests aside.
fn uses(src: &Path) -> (BTreeMap<ModPath, PathBuf>, BTreeSet<(ModPath, ModPath)>) {
    let mods = modules(src);
    let mut edges = BTreeSet::new();
    for (m, file) in &mods {
        if is_test(m) {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let folder = file.file_name().is_some_and(|n| n == "mod.rs");
        // A `pub use` re-export keeps a public path, it calls nothing: not
        // a use (docs/architecture.md names the one that points down).
        let code = without_reexports(&code);
        for p in paths_in(&code) {
            if let Some(to) = resolve(m, folder, &p, &mods)
                && !is_test(&to)
                && &to != m
            {
                edges.insert((m.clone(), to));
            }
        }
    }
    (mods, edges)
}

/// The rows of the layer table: folder → the folders it may use.
fn layer_table(doc: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut table = BTreeMap::new();
    let mut in_table = false;
    for line in doc.lines() {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        if line.trim_start().starts_with('|') && cells.len() == 2 {
            if cells[0].trim() == "folder" && cells[1].trim() == "may use" {
                in_table = true;
                continue;
            }
            if in_table && !cells[0].contains("---") {
                let names = |c: &str| -> Vec<String> {
                    c.split('`')
                        .skip(1)
                        .step_by(2)
                        .map(|n| n.trim_end_matches('/').trim_end_matches(".rs").to_string())
                        .collect()
                };
                let allowed: BTreeSet<String> = if cells[1].contains("any of the above") {
                    table.keys().cloned().collect()
                } else {
                    names(cells[1]).into_iter().collect()
                };
                for from in names(cells[0]) {
                    table.insert(from, allowed.clone());
                }
            }
        } else if in_table {
            break;
        }
    }
    table
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_use_between_folders_is_one_the_layer_table_allows() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let table = layer_table(&doc);
    assert!(
        table.len() >= 10,
        "docs/architecture.md has no layer table (| folder | may use |): {table:?}"
    );
    let (mods, edges) = uses(&root().join("src"));
    let tops: BTreeSet<&String> = mods.keys().map(|m| &m[0]).collect();
    for top in &tops {
        assert!(
            table.contains_key(*top),
            "src/{top} is not in docs/architecture.md's layer table"
        );
    }
    let mut broken = BTreeSet::new();
    for (from, to) in &edges {
        let (a, b) = (&from[0], &to[0]);
        if a != b && !table[a].contains(b) {
            broken.insert(format!(
                "{} uses {} ({a} → {b})",
                from.join("::"),
                to.join("::")
            ));
        }
    }
    assert!(
        broken.is_empty(),
        "uses the layer table does not allow:\n{}",
        broken.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The circles among the children of each folder: the modules directly in
/// it, a use counted between the two children that hold its ends.
fn circles(mods: &BTreeMap<ModPath, PathBuf>, edges: &BTreeSet<(ModPath, ModPath)>) -> Vec<String> {
    let mut graphs: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, to) in edges {
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        if common >= from.len() || common >= to.len() {
            // A module and what it holds (or holds it): no sibling edge.
            continue;
        }
        let folder = from[..common].to_vec();
        graphs
            .entry(folder)
            .or_default()
            .entry(from[common].clone())
            .or_default()
            .insert(to[common].clone());
    }
    let _ = mods;
    let mut out = Vec::new();
    for (folder, g) in &graphs {
        for scc in strongly_connected(g) {
            if scc.len() > 1 {
                let name = if folder.is_empty() {
                    "src".to_string()
                } else {
                    format!("src/{}", folder.join("/"))
                };
                out.push(format!("{name}: {}", scc.join(" ↔ ")));
            }
        }
    }
    out
}

/// Tarjan's strongly connected components.
fn strongly_connected(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        t.on.insert(v);
        if let Some(ws) = t.g.get(v) {
            for w in ws {
                if !t.index.contains_key(w.as_str()) {
                    visit(t, w);
                    let l = t.low[w.as_str()].min(t.low[v]);
                    t.low.insert(v, l);
                } else if t.on.contains(w.as_str()) {
                    let l = t.index[w.as_str()].min(t.low[v]);
                    t.low.insert(v, l);
                }
            }
        }
        if t.low[v] == t.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                scc.push(w.to_string());
                if w == v {
                    break;
                }
            }
            scc.sort();
            t.out.push(scc);
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_folder_has_an_import_circle() {
    let (mods, edges) = uses(&root().join("src"));
    let found = circles(&mods, &edges);
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_checks_see_what_they_check() {
    // The reader finds uses written every way the code writes them …
    let code = code_of(
        "use crate::a::{b, c::{d, e as f}};\n// crate::x::y\nfn g() { super::h::i(); \"crate::s\"; }\n#[cfg(test)]\nmod tests { use crate::t; }",
    );
    let paths = paths_in(&code);
    let want: Vec<Vec<String>> = [
        vec!["crate", "a", "b"],
        vec!["crate", "a", "c", "d"],
        vec!["crate", "a", "c", "e"],
        vec!["super", "h", "i"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    assert_eq!(paths, want);
    // … and a circle of three is one.
    let g: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
        .iter()
        .fold(BTreeMap::new(), |mut g, (x, y)| {
            g.entry(x.to_string())
                .or_insert_with(BTreeSet::new)
                .insert(y.to_string());
            g
        });
    let sccs: Vec<_> = strongly_connected(&g)
        .into_iter()
        .filter(|s| s.len() > 1)
        .collect();
    assert_eq!(sccs, vec![vec!["a".to_string(), "b".into(), "c".into()]]);
    // The table is read as written.
    let t = layer_table("| folder | may use |\n|---|---|\n| `cards/` | `text/`, `theme.rs` |\n");
    assert_eq!(
        t["cards"],
        ["text".to_string(), "theme".into()].into_iter().collect()
    );
}
