#!/usr/bin/env python3
"""Copy what OpenCode wrote in the private HOME into the fixture's form.

usage: sanitize.py RUN_DIR OUT_DIR

RUN_DIR holds demo/ (the workspace) and home/ (the CLI's HOME, with XDG
folders under it). Writes to OUT_DIR:

  opencode.db      ~/.local/share/opencode/opencode.db, copied with SQLite's
                   backup API (not a file copy: the live db has a -wal), then
                   in the copy every text value holding the workspace path
                   becomes /workspace/demo and the HOME /home/user (UPDATE …
                   SET c = REPLACE(c, …) on each text column, nothing else
                   changes), then VACUUM; checked to open (integrity_check).
                   The copy's journal mode is DELETE (the live db's is WAL),
                   so the fixture is one file
  schema.sql       the db's schema (sqlite_master.sql)
  tables/NAME.jsonl.txt  every table, one JSON object a row (columns as stored:
                   the `data` columns stay JSON text), in rowid order
  storage/…        ~/.local/share/opencode/storage/ if the CLI wrote one
                   (OpenCode before its SQLite store), paths replaced the same
                   way; each .json file checked to parse
  opencode.json    the global config the kit wrote (its port varies)
  files.txt        every file the HOME held after the run (paths sanitised;
                   the snapshot repository's and log folder's files counted,
                   not listed; node_modules is the kit's link)

Fails when a temporary path (RUN_DIR's parent) is left anywhere in OUT_DIR.
"""
import json
import os
import shutil
import sqlite3
import sys


def sanitize_db(src, dst, subs):
    if os.path.exists(dst):
        os.remove(dst)
    s = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    d = sqlite3.connect(dst)
    s.backup(d)
    s.close()
    # The live db is in WAL mode; the copy is made a one-file db (rollback
    # journal), so that opening the fixture leaves no -wal/-shm beside it.
    d.execute("pragma journal_mode=delete")
    changed = {}
    tables = [r[0] for r in d.execute("select name from sqlite_master where type='table' and name not like 'sqlite_%'")]
    for t in tables:
        cols = [r[1] for r in d.execute(f"pragma table_info(`{t}`)")]
        for c in cols:
            for a, b in subs:
                cur = d.execute(f"update `{t}` set `{c}` = replace(`{c}`, ?, ?) where typeof(`{c}`) = 'text' and instr(`{c}`, ?) > 0",
                                (a, b, a))
                if cur.rowcount:
                    changed[f"{t}.{c}"] = changed.get(f"{t}.{c}", 0) + cur.rowcount
    d.commit()
    d.execute("vacuum")
    d.close()
    d = sqlite3.connect(f"file:{dst}?mode=ro", uri=True)
    ok = d.execute("pragma integrity_check").fetchone()[0]
    if ok != "ok":
        raise SystemExit(f"sanitize: {dst}: integrity_check says {ok}")
    return d, tables, changed


def main():
    run, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    ws, home = os.path.join(run, "demo"), os.path.join(run, "home")
    subs = [(home, "/home/user"), (ws, "/workspace/demo")]
    leak = os.path.dirname(run)
    data = os.path.join(home, ".local", "share", "opencode")
    os.makedirs(out, exist_ok=True)
    for old in ("tables", "storage"):
        shutil.rmtree(os.path.join(out, old), ignore_errors=True)
    bad = []

    # The config the kit wrote, and the HOME's file list (before the db is
    # opened: a reader of a WAL db leaves -wal and -shm files).
    cfg = os.path.join(home, ".config", "opencode", "opencode.json")
    if os.path.exists(cfg):
        raw = open(cfg, encoding="utf-8").read()
        for a, b in subs:
            raw = raw.replace(a, b)
        open(os.path.join(out, "opencode.json"), "w", encoding="utf-8").write(raw)
    tree = []
    for d, dirs, files in os.walk(home):
        dirs.sort()
        rel = os.path.relpath(d, home)
        parts = rel.split(os.sep)
        # The snapshot repository: snapshot/<project>/<hash>/ (1.18), snapshot/<project>/ (1.1).
        if len(parts) in (5, 6) and parts[:4] == [".local", "share", "opencode", "snapshot"] and "HEAD" in files:
            n = sum(len(fs) for _, _, fs in os.walk(d))
            tree.append(f"~/{rel}/ ({n} files: a bare git repository, the snapshots)")
            dirs[:] = []
            continue
        if parts[-1] == "log":
            tree.append(f"~/{rel}/ ({len(files)} files)")
            continue
        for fn in sorted(files):
            tree.append("~/" + os.path.join(rel, fn) if rel != "." else "~/" + fn)
        for x in list(dirs):
            if os.path.islink(os.path.join(d, x)):
                tree.append(f"~/{os.path.join(rel, x)} -> (the kit's link to its installed dependencies)")
    with open(os.path.join(out, "files.txt"), "w", encoding="utf-8") as f:
        f.write("# every file the CLI's HOME held after the run (the kit wrote ~/.config/opencode/opencode.json,\n"
                "# package.json, package-lock.json and the node_modules link; snapshot/ is a bare git repository)\n")
        for p in tree:
            for a, b in subs:
                p = p.replace(a, b)
            f.write(p + "\n")

    # The db.
    db = os.path.join(data, "opencode.db")
    storage = os.path.join(data, "storage")
    if not os.path.exists(db) and not os.path.isdir(storage):
        raise SystemExit(f"sanitize: neither {db} nor {storage}")
    if os.path.exists(db):
        sanitize_whole_db(db, out, subs)
    # The older JSON tree, if any.
    if os.path.isdir(storage):
        bad += sanitize_storage(storage, out, subs)

    # Nothing temporary left.
    for d, dirs, files in os.walk(out):
        for fn in files:
            p = os.path.join(d, fn)
            raw = open(p, "rb").read()
            if leak.encode() in raw or leak.lstrip("/").encode() in raw:
                bad.append(f"{os.path.relpath(p, out)}: still holds {leak}")
    if bad:
        for b in bad:
            print(f"sanitize: FAIL: {b}", file=sys.stderr)
        return 1
    return 0


def sanitize_whole_db(db, out, subs):
    conn, tables, changed = sanitize_db(db, os.path.join(out, "opencode.db"), subs)
    print(f"sanitize: opencode.db: {os.path.getsize(os.path.join(out, 'opencode.db'))} bytes; paths replaced in "
          + ", ".join(f"{k} ({v} rows)" for k, v in sorted(changed.items())), file=sys.stderr)
    with open(os.path.join(out, "schema.sql"), "w", encoding="utf-8") as f:
        for (sql,) in conn.execute("select sql from sqlite_master where sql is not null order by type desc, name"):
            f.write(sql + ";\n")
    os.makedirs(os.path.join(out, "tables"))
    for t in sorted(tables):
        cur = conn.execute(f"select * from `{t}` order by rowid")
        cols = [c[0] for c in cur.description]
        with open(os.path.join(out, "tables", t + ".jsonl.txt"), "w", encoding="utf-8") as f:
            for row in cur:
                f.write(json.dumps(dict(zip(cols, row)), ensure_ascii=False) + "\n")
    conn.close()


def sanitize_storage(storage, out, subs):
    """The JSON tree copied, paths replaced; each .json file checked to parse."""
    bad = []
    for d, dirs, files in os.walk(storage):
        dirs.sort()
        for fn in sorted(files):
            src = os.path.join(d, fn)
            dst = os.path.join(out, "storage", os.path.relpath(src, storage))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            raw = open(src, "rb").read()
            for a, b in subs:
                raw = raw.replace(a.encode(), b.encode())
            if fn.endswith(".json"):
                try:
                    json.loads(raw)
                except ValueError as e:
                    bad.append(f"storage/{os.path.relpath(src, storage)}: does not parse after sanitising: {e}")
            open(dst, "wb").write(raw)
    n = sum(len(fs) for _, _, fs in os.walk(os.path.join(out, "storage")))
    print(f"sanitize: storage/: {n} files", file=sys.stderr)
    return bad


if __name__ == "__main__":
    sys.exit(main())
