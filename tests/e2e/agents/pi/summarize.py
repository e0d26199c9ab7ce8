#!/usr/bin/env python3
"""Every tool call of a pi session, computed from the raw file.

usage: summarize.py DIR        (writes DIR/SUMMARY.json and DIR/SUMMARY.md)

Reads every `*.jsonl` in DIR: pi's session file (docs/session-format.md of
the package, version 3). Line 1 is the header {type: "session", version, id,
timestamp, cwd}; every other line is an entry {type, id (8 hex), parentId,
timestamp, …}: `message` (message.role user / assistant / toolResult /
bashExecution / custom / branchSummary / compactionSummary), `model_change`,
`thinking_level_change`, `compaction`, `branch_summary`, `label`,
`session_info`, `custom`, `custom_message`. The entries form a tree through
id/parentId; the branch pi continues is the one leading to the file's last
entry (SessionManager's leaf on load): `onPath` says whether a call is on it.

A call is a `toolCall` part {id, name, arguments} of an assistant message;
its outcome is the `toolResult` message with that toolCallId (isError,
content text, details). The exit code of a bash call is the text's last
line `Command exited with code N` when there is one (pi's bash tool only
fails that way on a non-zero code); pi writes no code for a command that
succeeded (it resolves on exit 0 and on a death by signal alike), so
exitCode is null there. An edit's details hold `firstChangedLine` and
`diff`, a numbered listing (`+ 9 …` added, `- 8 …` removed, `  7 …`
context, `    ...` a gap) whose numbers are the new file's for + and
context lines and the old file's for - lines.
"""
import glob
import json
import os
import re
import sys

KEY_ARGS = ("path", "offset", "limit", "pattern", "glob", "command")


def entries(path):
    with open(path, "rb") as f:
        data = f.read()
    for n, line in enumerate(data.split(b"\n"), 1):
        if line.strip():
            yield n, json.loads(line)


def text_of(content):
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text")


def spans(nums):
    out, start = [], None
    for i, n in enumerate(nums):
        if start is None:
            start = n
        if i + 1 == len(nums) or nums[i + 1] != n + 1:
            out.append(f"{start}" if start == n else f"{start}-{n}")
            start = None
    return ",".join(out)


def listing(diff):
    """Added (new file's numbers), removed (old file's) and context lines of pi's numbered edit
    listing; context lines carry the OLD file's numbers, so their new numbers are worked out by
    counting the + and - lines before them."""
    added, removed, context_old, shown_new = [], [], [], []
    delta = 0
    for line in diff.split("\n"):
        m = re.match(r"([+\- ])\s*(\d+) ", line + " ")
        if not m:
            continue
        sign, n = m.group(1), int(m.group(2))
        if sign == "+":
            added.append(n)
            shown_new.append(n)
            delta += 1
        elif sign == "-":
            removed.append(n)
            delta -= 1
        else:
            context_old.append(n)
            shown_new.append(n + delta)
    return added, removed, context_old, sorted(shown_new)


def analyse(path):
    header, byid, order, lines = None, {}, [], []
    types = {}
    for n, e in entries(path):
        typ = e.get("type")
        key = typ + (f"/{(e.get('message') or {}).get('role')}" if typ == "message" else "")
        types[key] = types.get(key, 0) + 1
        if typ == "session":
            header = dict(e, line=n)
            lines.append((n, "session", f"v{e.get('version')} id `{e.get('id')}` cwd `{e.get('cwd')}`"))
            continue
        e["_line"] = n
        byid[e.get("id")] = e
        order.append(e)
    children = {}
    for e in order:
        children.setdefault(e.get("parentId"), []).append(e["id"])
    leaf = order[-1]["id"] if order else None
    path_ids, cur = [], leaf
    while cur is not None and cur in byid:
        path_ids.append(cur)
        cur = byid[cur].get("parentId")
    path_ids.reverse()
    on_path = set(path_ids)
    forks = [{"entry": pid, "line": byid[pid]["_line"] if pid in byid else None,
              "children": [{"id": c, "line": byid[c]["_line"], "onPath": c in on_path} for c in kids]}
             for pid, kids in children.items() if len(kids) > 1]
    off = [e["_line"] for e in order if e["id"] not in on_path]
    # The prompt each entry follows: the nearest user message among its ancestors.
    prompts = [e for e in order if e.get("type") == "message" and (e.get("message") or {}).get("role") == "user"]
    turn_of_prompt = {e["id"]: i + 1 for i, e in enumerate(prompts)}

    def turn(e):
        cur = e
        while cur is not None:
            if cur["id"] in turn_of_prompt:
                return turn_of_prompt[cur["id"]]
            cur = byid.get(cur.get("parentId"))
        return 0

    calls, results = [], {}
    for e in order:
        m = e.get("message") or {}
        role = m.get("role")
        mark = "" if e["id"] in on_path else "  (off the path)"
        if e.get("type") != "message":
            desc = {k: v for k, v in e.items() if k not in ("type", "id", "parentId", "timestamp", "_line")}
            lines.append((e["_line"], e["type"], json.dumps(desc, ensure_ascii=False)[:70] + mark))
            continue
        if role == "user":
            lines.append((e["_line"], "user", json.dumps(text_of(m.get("content")), ensure_ascii=False)[:70] + mark))
        elif role == "assistant":
            tcs = [p for p in m.get("content") or [] if isinstance(p, dict) and p.get("type") == "toolCall"]
            desc = json.dumps(text_of(m.get("content")), ensure_ascii=False)[:50]
            if any(isinstance(p, dict) and p.get("type") == "thinking" for p in m.get("content") or []):
                desc += " +thinking"
            desc += f" stopReason={m.get('stopReason')}"
            if tcs:
                desc += "  calls: " + ", ".join(f"{t.get('name')} `{t.get('id')}`" for t in tcs)
            lines.append((e["_line"], "assistant", desc + mark))
            for t in tcs:
                calls.append({"turn": turn(e), "onPath": e["id"] in on_path, "callId": t.get("id"),
                              "tool": t.get("name"), "args": t.get("arguments") or {}, "callLine": e["_line"],
                              "callEntry": e["id"], "siblings": len(tcs)})
        elif role == "toolResult":
            results[m.get("toolCallId")] = e
            lines.append((e["_line"], "toolResult", f"`{m.get('toolCallId')}` {m.get('toolName')} isError={m.get('isError')}"
                          + (f" details={sorted((m.get('details') or {}).keys())}" if "details" in m else "") + mark))
        else:
            lines.append((e["_line"], f"message/{role}", json.dumps(m, ensure_ascii=False)[:70] + mark))
    out = []
    for c in calls:
        r = results.get(c["callId"])
        row = {"turn": c["turn"], "onPath": c["onPath"], "callId": c["callId"], "tool": c["tool"],
               "args": {k: c["args"][k] for k in KEY_ARGS if k in c["args"]}}
        if r is None:
            row.update(status=None, lines={"call": c["callLine"], "result": None})
            out.append(row)
            continue
        m = r["message"]
        text = text_of(m.get("content"))
        row["status"] = "error" if m.get("isError") else "ok"
        row["isError"] = m.get("isError")
        if m.get("toolName") != c["tool"]:
            row["resultToolName"] = m.get("toolName")
        if c["tool"] == "bash":
            mm = re.search(r"(?:^|\n)Command exited with code (-?\d+)$", text)
            if mm:
                row["exitCode"], row["exitCodeFrom"] = int(mm.group(1)), "text: `Command exited with code N`"
            else:
                row["exitCode"], row["exitCodeFrom"] = None, "absent: the text names no code"
        d = m.get("details")
        if isinstance(d, dict) and "diff" in d:
            added, removed, context_old, shown = listing(d["diff"])
            row["edit"] = {"firstChangedLine": d.get("firstChangedLine"), "addedNewLines": spans(added),
                           "removedOldLines": spans(removed), "contextOldLines": spans(context_old),
                           "listingShowsNewLines": spans(shown)}
        if isinstance(d, dict) and d.get("truncation"):
            row["truncated"] = True
        if m.get("isError"):
            row["errorText"] = text[:300]
        row["lines"] = {"call": c["callLine"], "result": r["_line"]}
        out.append(row)
    odd = {"header": {k: v for k, v in (header or {}).items() if k != "line"}, "types": types,
           "entries": len(order), "leaf": leaf, "leafLine": byid[leaf]["_line"] if leaf else None,
           "pathEntries": len(path_ids), "offPathLines": off, "forks": forks,
           "prompts": [{"line": e["_line"], "id": e["id"], "parentId": e.get("parentId"), "onPath": e["id"] in on_path}
                       for e in prompts],
           "orphanResults": [k for k in results if k not in {c["callId"] for c in calls}]}
    return out, odd, lines


def fmt_args(a):
    return "; ".join(f"{k}={v}" for k, v in a.items()).replace("|", "\\|").replace("\n", "\\n")


def main():
    d = sys.argv[1]
    summary, md = [], ["# pi session: every tool call", "",
                       "Computed by `tests/e2e/agents/pi/summarize.py` from the raw session file beside this file. "
                       "*on path*: on the branch that leads to the file's last entry (the one pi continues); "
                       "*call / result*: the lines of the assistant message holding the `toolCall` and of its "
                       "`toolResult` message. NOTES.md (hand-written) explains the oddities.", ""]
    for path in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
        calls, odd, lines = analyse(path)
        name = os.path.basename(path)
        summary.append({"file": name, "format": "pi session v3: JSON lines, a header then a tree of entries (id/parentId)",
                        "calls": calls, "oddities": odd})
        md += [f"## {name}", "",
               "| turn | on path | call id | tool | key args | status | exit code | edit lines | call / result |",
               "|---|---|---|---|---|---|---|---|---|"]
        for c in calls:
            e = c.get("edit")
            el = (f"first changed {e['firstChangedLine']}; +{e['addedNewLines'] or '∅'} (new) "
                  f"-{e['removedOldLines'] or '∅'} (old); context (old numbers) {e['contextOldLines']}; shows new lines {e['listingShowsNewLines']}") if e else ""
            ec = "" if c["tool"] != "bash" else ("unknown" if c.get("exitCode") is None else str(c["exitCode"]))
            md.append(f"| {c['turn']} | {'yes' if c['onPath'] else '**no**'} | `{c['callId']}` | {c['tool']} | "
                      f"`{fmt_args(c['args'])}` | {c['status']} | {ec} | {el} | "
                      f"{c['lines']['call']} / {c['lines']['result']} |")
        st = {}
        for c in calls:
            st[c["status"]] = st.get(c["status"], 0) + 1
        md += ["", f"{len(calls)} calls ({sum(c['onPath'] for c in calls)} on the path); statuses: "
               + ", ".join(f"{k} {v}" for k, v in sorted(st.items())), ""]
        for c in calls:
            if c.get("errorText"):
                md.append(f"* `{c['callId']}` (error): {json.dumps(c['errorText'], ensure_ascii=False)}")
        md += ["", "### What the file holds", "",
               "* entries: " + ", ".join(f"`{k}` × {v}" for k, v in odd["types"].items()),
               f"* header: {json.dumps(odd['header'], ensure_ascii=False)}",
               f"* leaf (last entry): `{odd['leaf']}` line {odd['leafLine']}; {odd['pathEntries']} of "
               f"{odd['entries']} entries on its path; off the path: lines {spans(odd['offPathLines']) or 'none'}",
               "* forks: " + ("; ".join(f"entry `{f['entry']}` (line {f['line']}) has children "
                                       + ", ".join(f"`{c['id']}` line {c['line']}" + (" (path)" if c["onPath"] else "")
                                                   for c in f["children"]) for f in odd["forks"]) or "none"),
               "* prompts: " + ", ".join(f"line {p['line']} (parent `{p['parentId']}`" + ("" if p["onPath"] else ", off the path") + ")"
                                        for p in odd["prompts"]),
               "", "### Every line", "", "| line | kind | what |", "|---|---|---|"]
        for n, kind, desc in lines:
            md.append(f"| {n} | {kind} | {desc.replace('|', chr(92) + '|')} |")
        md.append("")
    with open(os.path.join(d, "SUMMARY.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(d, "SUMMARY.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
