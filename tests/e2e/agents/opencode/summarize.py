#!/usr/bin/env python3
"""Every tool call of OpenCode's session store, computed from the raw db.

usage: summarize.py DIR        (reads DIR/opencode.db, else DIR/storage/; writes DIR/SUMMARY.json and DIR/SUMMARY.md)

OpenCode (1.x) keeps its sessions in one SQLite db: `session` (a row per
session), `message` (a row per message: `data` is JSON {role, time, parentID,
finish, summary, …}), `part` (a row per part of a message: `data` is JSON
{type: text | reasoning | tool | step-start | step-finish | patch, …}) and
`event` (an append log: every `session.*`, `message.updated`,
`message.part.updated` the CLI published, each with the whole object as it
was then). A tool call is a `part` of type `tool`: {callID, tool, state:
{status: pending | running | completed | error, input, output, metadata,
title, time: {start, end}, error}}; the part row holds its last state, the
event log every state it went through.

Turns: a `user` message starts one (its text part is the prompt as stored);
the calls of the assistant messages whose `parentID` is that message belong
to it. The exit code of a bash call is `state.metadata.exit` (its status is
`completed` whatever the exit). Nothing is read from elsewhere.

Before 1.2, OpenCode kept the same objects as a tree of JSON files
(`storage/`: `load_storage`); there the *row* of a message or part is its
file's path, the *file* of a session its `storage/session/<project>/<id>.json`,
and there is no event log.
"""
import glob
import json
import os
import sqlite3
import sys

KEY_ARGS = ("filePath", "path", "offset", "limit", "pattern", "include", "command", "url", "format")


def load_storage(d):
    """The JSON tree (OpenCode before 1.2) in the db's row shapes: a session per
    storage/session/<project>/<id>.json, its messages (storage/message/<session>/
    <id>.json) by time.created then id, each message's parts (storage/part/
    <message>/<id>.json) by id; `row` is the file's path under d, `data` the file
    (the db's `data` column is the same object without its ids)."""
    root = os.path.join(d, "storage")

    def read(p):
        with open(p, encoding="utf-8") as f:
            return json.load(f)

    def files(*parts):
        return sorted(glob.glob(os.path.join(root, *parts, "*.json")))

    sessions, msgs, parts = [], [], []
    for f in files("session", "*"):
        info = read(f)
        sessions.append({"id": info["id"], "title": info.get("title"), "directory": info.get("directory"),
                         "version": info.get("version"), "project_id": info.get("projectID"),
                         "parent_id": info.get("parentID"), "summary": info.get("summary"),
                         "time_created": (info.get("time") or {}).get("created"),
                         "file": os.path.relpath(f, d)})
    sessions.sort(key=lambda s: (s["time_created"] or 0, s["id"]))
    for s in sessions:
        ms = [{"id": os.path.basename(f)[:-5], "session_id": s["id"], "row": os.path.relpath(f, d), "data": read(f)}
              for f in files("message", s["id"])]
        ms.sort(key=lambda m: ((m["data"].get("time") or {}).get("created") or 0, m["id"]))
        msgs += ms
        for m in ms:
            parts += [{"id": os.path.basename(f)[:-5], "message_id": m["id"], "session_id": s["id"],
                       "row": os.path.relpath(f, d), "data": read(f)} for f in files("part", m["id"])]
    return None, sessions, msgs, parts, []


def load(db):
    c = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    c.row_factory = sqlite3.Row
    sessions = [dict(r) for r in c.execute("select * from session order by time_created, id")]
    msgs = [dict(r) for r in c.execute("select rowid as row, * from message order by time_created, id")]
    parts = [dict(r) for r in c.execute("select rowid as row, * from part order by id")]
    events = [dict(r) for r in c.execute("select rowid, * from event order by aggregate_id, seq")]
    for x in msgs + parts + events:
        x["data"] = json.loads(x["data"])
    for x in sessions:
        x["file"] = "opencode.db"
    return c, sessions, msgs, parts, events


def hunks(diff):
    """[(header, added line numbers (new file), removed line numbers (old file))]"""
    out = []
    old = new = 0
    cur = None
    for line in (diff or "").split("\n"):
        if line.startswith("@@"):
            a, b = line.split(" ")[1:3]
            old = int(a[1:].split(",")[0])
            new = int(b[1:].split(",")[0])
            cur = [line, [], []]
            out.append(cur)
        elif cur is None or line.startswith(("---", "+++", "Index:", "====")):
            continue
        elif line.startswith("+"):
            cur[1].append(new)
            new += 1
        elif line.startswith("-"):
            cur[2].append(old)
            old += 1
        elif line.startswith(" "):
            old += 1
            new += 1
    return out


def span(ns):
    if not ns:
        return "∅"
    return f"{ns[0]}-{ns[-1]}" if len(ns) > 1 else str(ns[0])


def summarize(d):
    db = os.path.join(d, "opencode.db")
    c, sessions, msgs, parts, events = load(db) if os.path.exists(db) else load_storage(d)
    by_msg = {}
    for p in parts:
        by_msg.setdefault(p["message_id"], []).append(p)
    part_events = {}
    for e in events:
        p = e["data"].get("part")
        if e["type"].startswith("message.part.updated") and p:
            part_events.setdefault(p["id"], []).append(e)
    out = []
    for s in sessions:
        sm = [m for m in msgs if m["session_id"] == s["id"]]
        turn_of, prompts = {}, []
        for m in sm:
            if m["data"].get("role") == "user":
                texts = [p["data"].get("text", "") for p in by_msg.get(m["id"], []) if p["data"].get("type") == "text"]
                prompts.append({"turn": len(prompts) + 1, "messageId": m["id"], "messageRow": m["row"],
                                "text": "".join(texts),
                                "summaryDiffs": [{k: d.get(k) for k in ("file", "additions", "deletions", "status")}
                                                 for d in (m["data"].get("summary") or {}).get("diffs") or []]})
                turn_of[m["id"]] = len(prompts)
        calls = []
        for m in sm:
            d = m["data"]
            if d.get("role") != "assistant":
                continue
            turn = turn_of.get(d.get("parentID"))
            for p in by_msg.get(m["id"], []):
                pd = p["data"]
                if pd.get("type") != "tool":
                    continue
                st = pd.get("state") or {}
                inp = st.get("input") or {}
                md = st.get("metadata") or {}
                t = st.get("time") or {}
                call = {
                    "turn": turn, "messageId": m["id"], "partId": p["id"], "partRow": p["row"],
                    "callId": pd.get("callID"), "tool": pd.get("tool"),
                    "args": {k: inp[k] for k in KEY_ARGS if k in inp},
                    "status": st.get("status"), "title": st.get("title"),
                    "durationMs": (t["end"] - t["start"]) if "end" in t and "start" in t else None,
                }
                if pd.get("tool") == "bash":
                    call["exitCode"] = md.get("exit")
                    call["exitCodeNote"] = "state.metadata.exit" if "exit" in md else "none stored"
                if st.get("status") == "error":
                    call["error"] = st.get("error")
                if pd.get("tool") == "edit":
                    fd = md.get("filediff") or {}
                    call["diff"] = {"additions": fd.get("additions"), "deletions": fd.get("deletions"),
                                    "hunks": [{"header": h, "added": a, "removed": r} for h, a, r in hunks(md.get("diff"))]}
                if pd.get("tool") == "write":
                    call["exists"] = md.get("exists")
                ev = part_events.get(p["id"], [])
                call["written"] = {"events": len(ev), "statuses": [e["data"]["part"].get("state", {}).get("status") for e in ev],
                                   "eventSeqs": [e["seq"] for e in ev]}
                calls.append(call)
        kinds = {}
        for p in parts:
            if p["session_id"] == s["id"]:
                kinds[p["data"].get("type")] = kinds.get(p["data"].get("type"), 0) + 1
        etypes = {}
        for e in events:
            if e["aggregate_id"] == s["id"]:
                etypes[e["type"]] = etypes.get(e["type"], 0) + 1
        out.append({
            "file": s["file"], "sessionId": s["id"], "title": s["title"], "directory": s["directory"],
            "version": s["version"], "projectId": s["project_id"], "parentId": s["parent_id"],
            "summaryColumns": {k: s[k] for k in ("summary_additions", "summary_deletions", "summary_files", "summary_diffs")}
            if c else {"summary": s["summary"]},
            "prompts": prompts, "calls": calls,
            "rows": {"messages": len(sm), "parts": kinds, "events": etypes},
        })
    if c:
        c.close()
    return out


def md_escape(s):
    return str(s).replace("|", "\\|").replace("\n", "\\n")


def key_args(call):
    return "; ".join(f"{k}={str(v)[:70]}" for k, v in call["args"].items())


def write_md(summary, path):
    tree = any(s["file"] != "opencode.db" for s in summary)
    L = ["# OpenCode session store: every tool call", ""]
    if tree:
        L += ["Computed by `tests/e2e/agents/opencode/summarize.py` from the JSON tree `storage/` beside this file "
              "(OpenCode before 1.2). *part row*: the part's file; there is no event log (*events* 0). NOTES.md "
              "(hand-written) explains the oddities.", ""]
    else:
        L += ["Computed by `tests/e2e/agents/opencode/summarize.py` from `opencode.db` beside this file "
              "(`tables/*.jsonl.txt` is the same db as JSON lines). *part row*: the `part` table's rowid; *events*: how many "
              "`message.part.updated` rows of the `event` table carry the part (its states in order). NOTES.md "
              "(hand-written) explains the oddities.", ""]
    for s in summary:
        L += [f"## session `{s['sessionId']}` ({s['title']!r}, OpenCode {s['version']})", "",
              f"directory `{s['directory']}`, project `{s['projectId']}`; {s['rows']['messages']} messages; parts "
              + ", ".join(f"{k} × {v}" for k, v in sorted(s['rows']['parts'].items())) + "; events "
              + ", ".join(f"{k} × {v}" for k, v in sorted(s['rows']['events'].items())), "",
              "| turn | call id | tool | key args | status | exit code | ms | diff | part row | events |",
              "|---|---|---|---|---|---|---|---|---|---|"]
        for c in s["calls"]:
            exit_ = "" if c["tool"] != "bash" else ("-" if c["exitCode"] is None else f"{c['exitCode']} (metadata.exit)")
            diff = ""
            if "diff" in c:
                diff = f"+{c['diff']['additions']} -{c['diff']['deletions']}: " + ", ".join(
                    f"`{h['header']}` +{span(h['added'])} -{span(h['removed'])}" for h in c["diff"]["hunks"])
            if "exists" in c:
                diff = f"new file (exists={c['exists']})" if not c["exists"] else "overwrote"
            runs = []
            for x in c["written"]["statuses"]:
                if runs and runs[-1][0] == x:
                    runs[-1][1] += 1
                else:
                    runs.append([x, 1])
            ev = f"{c['written']['events']}: " + " → ".join(f"{x or '?'}" + (f" ×{n}" if n > 1 else "") for x, n in runs) \
                if runs else "-"
            L.append(f"| {c['turn']} | `{c['callId']}` | {c['tool']} | `{md_escape(key_args(c))}` | {c['status']} | {exit_} "
                     f"| {c['durationMs']} | {md_escape(diff)} | {c['partRow']} | {ev} |")
        st = {}
        for c in s["calls"]:
            st[c["status"]] = st.get(c["status"], 0) + 1
        L += ["", f"{len(s['calls'])} calls; statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(st.items())), ""]
        for c in s["calls"]:
            if c.get("error"):
                L.append(f"* `{c['callId']}` ({c['tool']}, error): {c['error']!r}")
        L += ["", "### The prompts as stored (the user message's text part)", ""]
        for p in s["prompts"]:
            L.append(f"* turn {p['turn']}, message `{p['messageId']}` (row {p['messageRow']}): `{md_escape(p['text'])}`"
                     + (f"; `summary.diffs`: " + ", ".join(f"{d['file']} +{d['additions']} -{d['deletions']} ({d['status']})"
                                                          for d in p["summaryDiffs"]) if p["summaryDiffs"] else ""))
        L += ["", (f"`{s['file']}`'s summary: " if tree else "`session` row's summary columns: ")
              + f"`{json.dumps(s['summaryColumns'])}`", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L) + "\n")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    d = sys.argv[1]
    summary = summarize(d)
    with open(os.path.join(d, "SUMMARY.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)
        f.write("\n")
    write_md(summary, os.path.join(d, "SUMMARY.md"))
    n = sum(len(s["calls"]) for s in summary)
    print(f"summarize: {len(summary)} session(s), {n} calls -> {d}/SUMMARY.json, SUMMARY.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
