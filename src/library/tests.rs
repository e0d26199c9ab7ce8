//! The library over files that change while they are read: a session
//! appended to while the index reads it is read up to the size it had
//! when its read began (never chased to whatever the writer adds), the
//! manifest records that size, and the next update reads it again, grown.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Library, Progress, Roots, discover};

/// One Claude Code prompt, a line.
fn prompt(i: usize) -> String {
    format!(
        "{{\"type\":\"user\",\"uuid\":\"u{i}\",\"sessionId\":\"s1\",\"cwd\":\"/w\",\"version\":\"2\",\
         \"timestamp\":\"2026-12-01T10:00:00.000Z\",\"message\":{{\"role\":\"user\",\
         \"content\":\"prompt number {i} of a session that keeps growing\"}}}}\n"
    )
}

fn roots(dir: &Path) -> Roots {
    Roots {
        extra: vec![dir.to_path_buf()],
        ..Roots::default()
    }
}

/// Entries a library indexed from `dir`.
fn indexed(lib: &Library) -> u64 {
    lib.searcher().num_docs()
}

#[test]
fn a_file_appended_to_while_it_is_read_is_read_to_its_size_at_the_start() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("sessions");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    let mut n = 0;
    while n < 10_000 {
        f.write_all(prompt(n).as_bytes()).unwrap();
        n += 1;
    }
    drop(f);
    // A writer that keeps appending (whole lines, a bounded rate and
    // amount) until told to stop.
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (stop, path) = (stop.clone(), path.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
            let mut n = n;
            let mut batch = String::new();
            while !stop.load(Ordering::Relaxed) && n < 50_000 {
                batch.clear();
                for _ in 0..50 {
                    batch.push_str(&prompt(n));
                    n += 1;
                }
                f.write_all(batch.as_bytes()).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            n
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(50));
    let lib = Library::open(&root.path().join("index")).unwrap();
    let found = discover(&roots(&dir));
    let at_discovery = found[0].size;
    let done = lib.update(&found, &Progress::default()).unwrap();
    assert_eq!(done.read, 1);
    stop.store(true, Ordering::Relaxed);
    let n = writer.join().unwrap();
    // It grew after its read, surely.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(prompt(n).as_bytes())
        .unwrap();
    let whole = std::fs::read(&path).unwrap();
    let read = lib.rows()[0].bytes;
    assert!(
        read >= at_discovery && read < whole.len() as u64,
        "{at_discovery} ≤ {read} < {}",
        whole.len()
    );

    // What was indexed is exactly what the first `read` bytes hold.
    let prefix = root.path().join("prefix");
    std::fs::create_dir_all(&prefix).unwrap();
    std::fs::write(prefix.join("s.jsonl"), &whole[..read as usize]).unwrap();
    let same = Library::open(&root.path().join("index-prefix")).unwrap();
    same.update(&discover(&roots(&prefix)), &Progress::default())
        .unwrap();
    assert!(indexed(&same) > 1000, "{}", indexed(&same));
    assert_eq!(indexed(&lib), indexed(&same));

    // The manifest holds the size read: the next update reads it again.
    let again = lib
        .update(&discover(&roots(&dir)), &Progress::default())
        .unwrap();
    assert_eq!(again.read, 1);
    assert_eq!(lib.rows()[0].bytes, whole.len() as u64);
    assert_eq!(indexed(&lib), n as u64 + 1);
}
