#!/usr/bin/env python3
"""Every tool call of a Gemini CLI session, computed from the raw files.

usage: summarize.py DIR        (writes DIR/SUMMARY.json and DIR/SUMMARY.md)
       summarize.py --print FILE...   (the calls as JSON on stdout)

Reads every session file in DIR: `session-*.jsonl` (the append log of Gemini
CLI >= 0.3x: a header line {sessionId, projectHash, startTime, lastUpdated,
kind}, `{"$set": {...}}` patch lines, `{"$rewindTo": id}` lines and message
lines {id, timestamp, type, content, toolCalls?, …}) or `session-*.json`
(the older one-document chat: {sessionId, projectHash, startTime,
lastUpdated, messages: [...]}).

A message line is written again, under the same id, as its tool calls
complete: a call's state is the last one written. The calls are listed in
the order they first appear; `turn` counts the user prompts before them (a
user message with a text part that is not the CLI's `<session_context>`;
`functionResponse` user messages are not prompts). `$set.messages` (the
whole history, rewritten on every resume) is reported, not read for calls:
its messages hold no `toolCalls` (see the oddities).

Nothing here is Gemini-specific beyond the file's own fields; the exit code
of a shell command is read from the text (`Exit Code: N` in the output sent
to the model; a command that exits 0 has no such line).
"""
import glob
import json
import os
import re
import sys

KEY_ARGS = ("dir_path", "file_path", "start_line", "end_line", "offset", "limit", "pattern", "include_pattern",
            "command", "prompt", "url", "query")


def records(path):
    """(where, record) for each record of a session file: where is the line
    number of a .jsonl, or `messages[i]` of a .json."""
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".jsonl"):
        for n, line in enumerate(data.split(b"\n"), 1):
            if line.strip():
                yield n, json.loads(line)
    else:
        doc = json.loads(data)
        head = {k: v for k, v in doc.items() if k != "messages"}
        yield "head", head
        for i, m in enumerate(doc.get("messages", [])):
            yield f"messages[{i}]", m


def kind(r):
    if "$rewindTo" in r:
        return "rewind"
    if "$set" in r:
        return "set"
    if isinstance(r.get("id"), str):
        return "message"
    if "sessionId" in r:
        return "header"
    return "other"


def text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def is_prompt(m):
    if m.get("type") != "user":
        return False
    c = m.get("content")
    if isinstance(c, str):
        return not c.startswith("<session_context>")
    parts = [p for p in c or [] if isinstance(p, dict)]
    return any("text" in p and not p["text"].startswith("<session_context>") for p in parts)


def result_text(call):
    out = []
    for r in call.get("result") or []:
        fr = (r or {}).get("functionResponse") or {}
        resp = fr.get("response") or {}
        for k in ("output", "error"):
            if isinstance(resp.get(k), str):
                out.append(resp[k])
    return "\n".join(out)


def diff_lines(diff):
    """Hunks of a unified diff, with the line numbers it adds (new file) and
    removes (old file)."""
    hunks, added, removed = [], [], []
    old = new = 0
    for line in diff.split("\n"):
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
        if m:
            hunks.append(line)
            old, new = int(m.group(1)), int(m.group(3))
            continue
        if not hunks or line.startswith(("---", "+++")):
            continue
        if line.startswith("+"):
            added.append(new)
            new += 1
        elif line.startswith("-"):
            removed.append(old)
            old += 1
        elif line.startswith(" "):
            old += 1
            new += 1
    return hunks, added, removed


def spans(nums):
    out, start = [], None
    for i, n in enumerate(nums):
        if start is None:
            start = n
        if i + 1 == len(nums) or nums[i + 1] != n + 1:
            out.append(f"{start}" if start == n else f"{start}-{n}")
            start = None
    return ",".join(out)


def analyse(path):
    calls, order = {}, []
    msgs = {}  # id -> [where, …]
    turn = 0
    lines = []
    oddities = {"headers": [], "sets": [], "rewinds": [], "message_rewrites": {}, "types": {},
                "function_response_user_messages": [], "resume_histories": [], "thoughts": []}
    for where, r in records(path):
        k = kind(r)
        if k == "header":
            oddities["headers"].append({"where": where, "startTime": r.get("startTime"), "kind": r.get("kind")})
            lines.append((where, "header", f"sessionId {r.get('sessionId', '')[:8]}… startTime {r.get('startTime')}"))
            continue
        if k == "set":
            s = r["$set"]
            entry = {"where": where, "keys": sorted(s)}
            if isinstance(s.get("messages"), list):
                ms = s["messages"]
                entry["messages"] = len(ms)
                entry["with_toolCalls"] = sum(1 for m in ms if m.get("toolCalls"))
                entry["response_ids"] = sum(1 for m in ms if str(m.get("id", "")).endswith("_response"))
                if len(ms) > 1:
                    oddities["resume_histories"].append(entry)
            oddities["sets"].append(entry)
            lines.append((where, "$set", ", ".join(
                f"messages[{len(s['messages'])}]" if key == "messages" else key for key in sorted(s))))
            continue
        if k == "rewind":
            oddities["rewinds"].append({"where": where, "to": r["$rewindTo"]})
            lines.append((where, "$rewindTo", r["$rewindTo"]))
            continue
        if k != "message":
            lines.append((where, "other", json.dumps(r)[:80]))
            continue
        mid, typ = r["id"], r.get("type")
        msgs.setdefault(mid, []).append(where)
        oddities["types"][typ] = oddities["types"].get(typ, 0) + 1
        if is_prompt(r):
            turn += 1
        c = r.get("content")
        if typ == "user" and isinstance(c, list) and any(isinstance(p, dict) and "functionResponse" in p for p in c):
            oddities["function_response_user_messages"].append(where)
            desc = "functionResponse × %d" % sum(1 for p in c if isinstance(p, dict) and "functionResponse" in p)
        else:
            desc = json.dumps(text_of(c), ensure_ascii=False)[:70]
        if r.get("thoughts"):
            oddities["thoughts"].append(where)
        tcs = r.get("toolCalls") or []
        if tcs:
            desc += "  toolCalls: " + ", ".join(f"{t.get('name')}={t.get('status')}" for t in tcs)
        lines.append((where, f"{typ} {mid[:8]}", desc))
        for t in tcs:
            cid = t.get("id")
            if cid not in calls:
                order.append(cid)
                calls[cid] = {"turn": turn, "first": where, "writes": []}
            c = calls[cid]
            c["writes"].append(where)
            c["call"] = t
            c["message"] = mid
    rewrites = {m: w for m, w in msgs.items() if len(w) > 1}
    oddities["message_rewrites"] = rewrites
    out = []
    for cid in order:
        c = calls[cid]
        t = c["call"]
        args = t.get("args") or {}
        row = {
            "turn": c["turn"],
            "callId": cid,
            "tool": t.get("name"),
            "displayName": t.get("displayName"),
            "args": {k: args[k] for k in KEY_ARGS if k in args},
            "status": t.get("status"),
            "message": c["message"],
            "first": c["first"],
            "last": c["writes"][-1],
        }
        text = result_text(t)
        m = re.search(r"^Exit Code: (-?\d+)$", text, re.M)
        if t.get("name") == "run_shell_command":
            row["exitCode"] = int(m.group(1)) if m else None
            row["exitCodeNote"] = ("`Exit Code: %s` in the output text" % m.group(1)) if m else \
                "no `Exit Code:` line in the output (the CLI writes one only for a non-zero exit)"
        rd = t.get("resultDisplay")
        if isinstance(rd, dict) and isinstance(rd.get("fileDiff"), str):
            hunks, added, removed = diff_lines(rd["fileDiff"])
            row["diff"] = {"filePath": rd.get("filePath"), "isNewFile": rd.get("isNewFile"), "hunks": hunks,
                           "addedNewLines": spans(added), "removedOldLines": spans(removed)}
        elif t.get("name") in ("replace", "write_file"):
            row["diff"] = None
            row["diffNote"] = "no resultDisplay.fileDiff" if rd is None or isinstance(rd, dict) else \
                "resultDisplay is text, no fileDiff"
        if t.get("status") not in ("success",) or (text.startswith("Error") and t.get("status") == "success"):
            row["resultText"] = text[:200]
        elif isinstance(rd, str):
            row["resultDisplay"] = rd[:120]
        out.append(row)
    fmt = ("JSON lines: an append log (header, `$set`, `$rewindTo` and message lines)" if path.endswith(".jsonl")
           else "one JSON document {sessionId, projectHash, startTime, lastUpdated, messages}, rewritten whole")
    return {"file": os.path.basename(path), "format": fmt, "calls": out, "oddities": oddities, "lines": lines}


def gist(row):
    a = row["args"]
    bits = []
    for k in KEY_ARGS:
        if k in a:
            v = str(a[k]).replace("\n", "\\n")
            bits.append(f"{k}={v[:70]}")
    return "; ".join(bits)


def md(results):
    out = ["# Gemini CLI session: every tool call", "",
           "Computed by `tests/e2e/agents/gemini-cli/summarize.py` from the raw session file(s) "
           "beside this file. *where* is the line of the .jsonl (or `messages[i]` of a .json); "
           "*first*/*last*: where the call's message was first and last written with it. "
           "NOTES.md (hand-written, from the kit's scenario) explains the oddities.", ""]
    for res in results:
        out += [f"## {res['file']}", "", f"Format: {res['format']}.", "",
                "| turn | call id | tool | key args | status | exit code | diff lines | first | last |",
                "|---|---|---|---|---|---|---|---|---|"]
        for r in res["calls"]:
            code = "" if "exitCode" not in r else ("-" if r["exitCode"] is None else f"{r['exitCode']} (text)")
            d = r.get("diff")
            dl = r.get("diffNote", "")
            if d:
                dl = f"{' '.join(d['hunks'])}: +{d['addedNewLines'] or '∅'} (new) -{d['removedOldLines'] or '∅'} (old)"
            out.append(f"| {r['turn']} | `{r['callId']}` | {r['tool']} | `{gist(r)}` | {r['status']} | {code} | {dl} "
                       f"| {r['first']} | {r['last']} |")
        n = len(res["calls"])
        st = {}
        for r in res["calls"]:
            st[r["status"]] = st.get(r["status"], 0) + 1
        out += ["", f"{n} calls; statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(st.items())), ""]
        shells = [r for r in res["calls"] if r["tool"] == "run_shell_command"]
        if shells:
            zero = [r for r in shells if r["exitCode"] == 0]
            none = [r for r in shells if r["exitCode"] is None]
            out += ["Exit codes: no field of the file holds one; the output text sent to the model "
                    "(`toolCalls[].result[].functionResponse.response.output`) says `Exit Code: N`"
                    + (" only when N is not 0 (`-`: no such line; " + f"{len(none)} of {len(shells)} commands)"
                       if none and not zero else f" for every command ({len(shells)})" if not none else " for some")
                    + ". `status` is " + "/".join(sorted({r["status"] for r in shells}))
                    + " for every command, whatever its exit code.", ""]
        errs = [r for r in res["calls"] if "resultText" in r]
        for r in errs:
            out.append(f"* `{r['callId']}` ({r['status']}): {r['resultText']!r}")
        if errs:
            out.append("")
        o = res["oddities"]
        out += ["### What the file holds", ""]
        out.append(f"* message types: " + ", ".join(f"`{k}` × {v}" for k, v in o["types"].items()))
        out.append(f"* header lines (sessionId, projectHash, startTime, lastUpdated, kind): "
                   + ", ".join(f"{h['where']} (startTime {h['startTime']})" for h in o["headers"]))
        out.append(f"* `$set` lines: {len(o['sets'])}; keys: " + ", ".join(
            f"{s['where']} {'+'.join(s['keys'])}" + (f"[{s['messages']}]" if 'messages' in s else "") for s in o["sets"]
            if s["keys"] != ["lastUpdated"]) + f"; the other {sum(1 for s in o['sets'] if s['keys'] == ['lastUpdated'])} set `lastUpdated` only")
        for h in o["resume_histories"]:
            out.append(f"* {h['where']}: `$set.messages` rewrites the whole history ({h['messages']} messages, "
                       f"{h['with_toolCalls']} with `toolCalls`, {h['response_ids']} user messages with an id "
                       f"`<gemini id>_response`)")
        if o["rewinds"]:
            out.append("* `$rewindTo`: " + ", ".join(str(r["where"]) for r in o["rewinds"]))
        rw = o["message_rewrites"]
        if rw:
            out.append(f"* messages written more than once under the same id: {len(rw)}: " + "; ".join(
                f"`{m[:8]}` at {', '.join(map(str, w))}" for m, w in rw.items()))
        if o["function_response_user_messages"]:
            out.append("* `user` messages carrying `functionResponse` parts (tool results, not prompts): "
                       + ", ".join(map(str, o["function_response_user_messages"])))
        if o["thoughts"]:
            out.append("* messages with non-empty `thoughts`: " + ", ".join(map(str, o["thoughts"])))
        out += ["", "### Every line", "", "| where | what | gist |", "|---|---|---|"]
        for where, what, desc in res["lines"]:
            cell = desc.replace("|", "\\|")
            out.append(f"| {where} | {what} | {cell} |")
        out.append("")
    return "\n".join(out)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--print":
        print(json.dumps([analyse(p)["calls"] for p in sys.argv[2:]], indent=1, ensure_ascii=False))
        return 0
    d = sys.argv[1]
    files = sorted(glob.glob(os.path.join(d, "session-*.jsonl")) + glob.glob(os.path.join(d, "session-*.json")))
    if not files:
        raise SystemExit(f"summarize: no session-*.jsonl / session-*.json in {d}")
    results = [analyse(p) for p in files]
    with open(os.path.join(d, "SUMMARY.json"), "w", encoding="utf-8") as f:
        json.dump([{k: v for k, v in r.items() if k != "lines"} for r in results], f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(d, "SUMMARY.md"), "w", encoding="utf-8") as f:
        f.write(md(results))
    for r in results:
        print(f"summarize: {r['file']}: {len(r['calls'])} calls", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
