//! Files served beneath the root and only regular ones: what is refused,
//! and that the refusal names the path asked.

use super::*;

/// A scratch root (`ws/`, canonical, with `a.txt`) beside `secret.txt`
/// and an empty folder `outside/`.
fn scratch() -> (tempfile::TempDir, Root, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let ws = base.join("ws");
    std::fs::create_dir(&ws).unwrap();
    std::fs::write(ws.join("a.txt"), "one\ntwo\nthree\n").unwrap();
    std::fs::write(base.join("secret.txt"), "TOP SECRET\n").unwrap();
    std::fs::create_dir(base.join("outside")).unwrap();
    let root = Root::open(&ws).unwrap();
    (dir, root, ws)
}

fn rd(path: impl Into<String>) -> acp::ReadTextFileRequest {
    acp::ReadTextFileRequest::new("s", path.into())
}

fn wr(path: impl Into<String>, text: &str) -> acp::WriteTextFileRequest {
    acp::WriteTextFileRequest::new("s", path.into(), text)
}

fn at(ws: &Path, rel: &str) -> String {
    format!("{}/{rel}", ws.display())
}

#[test]
fn a_file_past_what_deck_sends_is_refused_not_read_whole() {
    let (_dir, root, ws) = scratch();
    std::fs::write(ws.join("big.txt"), "x".repeat(5000)).unwrap();
    let rel = Path::new("big.txt");
    assert_eq!(read_at_most(&root, rel, 5000).unwrap().len(), 5000);
    let err = read_at_most(&root, rel, 4999).unwrap_err().to_string();
    assert!(err.contains("more than the 4999 bytes"), "{err}");
}

#[test]
fn paths_inside_are_served_and_others_refused_naming_the_path() {
    let (_dir, root, ws) = scratch();
    let base = ws.parent().unwrap().to_path_buf();
    let got = read(&root, &rd(at(&ws, "a.txt")).line(2).limit(1)).unwrap();
    assert_eq!(got["content"], "two\n");
    // `..` that stays beneath the root is taken.
    std::fs::create_dir(ws.join("sub")).unwrap();
    assert_eq!(read(&root, &rd(at(&ws, "sub/../a.txt"))).unwrap()["content"], "one\ntwo\nthree\n");
    std::os::unix::fs::symlink("/etc", ws.join("etc-link")).unwrap();
    std::os::unix::fs::symlink(base.join("secret.txt"), ws.join("secret-link")).unwrap();
    std::os::unix::fs::symlink("../secret.txt", ws.join("secret-rel")).unwrap();
    std::os::unix::fs::symlink(base.join("outside"), ws.join("out-dir")).unwrap();
    let proc_root = format!("/proc/self/root{}", base.join("secret.txt").display());
    for asked in [
        "/etc/passwd".to_string(),
        at(&ws, "../secret.txt"),
        at(&ws, "sub/../../secret.txt"),
        at(&ws, "etc-link/passwd"),
        at(&ws, "secret-link"),
        at(&ws, "secret-rel"),
        at(&ws, "out-dir/x.txt"),
        proc_root,
    ] {
        let e = read(&root, &rd(asked.clone())).unwrap_err();
        assert_eq!(e.code, INVALID, "{asked}: {e:?}");
        assert!(e.message.contains(&asked) && e.message.contains("outside the session directory"), "{e:?}");
    }
    let e = read(&root, &rd("a.txt")).unwrap_err();
    assert!(e.message.contains("not an absolute path: a.txt"), "{e:?}");
    // A file not there: the protocol's "resource not found".
    assert_eq!(read(&root, &rd(at(&ws, "missing.txt"))).unwrap_err().code, NOT_FOUND);
    // Written inside, its folders made; refused through a link out.
    assert!(write(&root, &wr(at(&ws, "new/b.txt"), "hi")).is_ok());
    assert_eq!(std::fs::read_to_string(ws.join("new/b.txt")).unwrap(), "hi");
    for asked in [at(&ws, "nope/../../escape"), at(&ws, "out-dir/made.txt"), at(&ws, "out-dir/deep/made.txt")] {
        let e = write(&root, &wr(asked.clone(), "x")).unwrap_err();
        assert!(e.message.contains(&asked) && e.message.contains("outside"), "{e:?}");
    }
    assert!(!base.join("escape").exists() && !base.join("outside/made.txt").exists());
    assert!(!base.join("outside/deep").exists());
}

/// Issue 28 §2: a dangling link inside the root, to a file outside, is not
/// a way to create that file.
#[test]
fn a_dangling_link_cannot_make_a_file_outside() {
    let (_dir, root, ws) = scratch();
    let target = ws.parent().unwrap().join("outside/escaped.txt");
    std::os::unix::fs::symlink(&target, ws.join("dangling")).unwrap();
    let asked = at(&ws, "dangling");
    let e = write(&root, &wr(asked.clone(), "escaped")).unwrap_err();
    assert_eq!(e.code, INVALID, "{e:?}");
    assert!(e.message.contains(&asked) && e.message.contains("outside the session directory"), "{e:?}");
    assert!(!target.exists(), "written outside through the link");
    // A dangling link to a place inside is written through.
    std::os::unix::fs::symlink("later.txt", ws.join("inner")).unwrap();
    write(&root, &wr(at(&ws, "inner"), "in")).unwrap();
    assert_eq!(std::fs::read_to_string(ws.join("later.txt")).unwrap(), "in");
}

/// Issue 28 §2: a FIFO, a socket, a device or a folder is refused, saying
/// what it is, without waiting on it.
#[test]
fn only_regular_files_are_served() {
    let (_dir, root, ws) = scratch();
    let fifo = std::ffi::CString::new(at(&ws, "pipe")).unwrap();
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let _sock = std::os::unix::net::UnixListener::bind(ws.join("sock")).unwrap();
    std::fs::create_dir(ws.join("folder")).unwrap();
    // A writer holding the FIFO open: a blocking read would wait for it.
    let _writer = std::fs::OpenOptions::new().read(true).write(true).open(ws.join("pipe")).unwrap();
    let mut cases = vec![("pipe", "a FIFO"), ("sock", "a socket"), ("folder", "a directory")];
    // A character device (/dev/null's numbers) where mknod is allowed (root).
    let dev = std::ffi::CString::new(at(&ws, "null")).unwrap();
    // SAFETY: mknod with a valid C string.
    if unsafe { libc::mknod(dev.as_ptr(), libc::S_IFCHR | 0o600, libc::makedev(1, 3)) } == 0 {
        cases.push(("null", "a character device"));
    }
    for (name, what) in cases {
        let asked = at(&ws, name);
        for e in [
            read(&root, &rd(asked.clone())).unwrap_err(),
            write(&root, &wr(asked.clone(), "x")).unwrap_err(),
        ] {
            assert_eq!(e.code, INVALID, "{name}: {e:?}");
            assert!(e.message.contains(&format!("{asked} is not a regular file ({what})")), "{e:?}");
        }
    }
    let e = read(&root, &rd(ws.display().to_string())).unwrap_err();
    assert!(e.message.contains("is the session directory"), "{e:?}");
}

/// A request that takes too long is answered with an error, not waited for.
#[tokio::test]
async fn a_file_request_has_a_time_limit() {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let r = within(Duration::from_millis(50), move || {
        let _ = rx.recv();
        Ok(Value::Null)
    })
    .await;
    let e = r.unwrap_err();
    assert_eq!(e.code, INTERNAL);
    assert!(e.message.contains("did not answer within"), "{e:?}");
    drop(tx);
}
