#!/usr/bin/env python3
"""Every tool call of a GitHub Copilot CLI session, computed from the raw file.

usage: summarize.py DIR        (writes DIR/SUMMARY.json and DIR/SUMMARY.md)
       summarize.py --print FILE...   (the calls as JSON on stdout)

Reads DIR/events.jsonl: Copilot CLI's session event log
(~/.copilot/session-state/<id>/events.jsonl), one event per line
{type, data, id, timestamp, parentId} with type

  session.start        sessionId, copilotVersion, selectedModel, context.cwd
  session.resume       a later run (--continue, --resume) appending to the file
  session.shutdown     the run's accounting (code changes, model metrics)
  user.message         a prompt: content (as typed), transformedContent (as sent)
  system.message       the system prompt
  assistant.turn_start / assistant.turn_end   one model round-trip (turnId
                       counts from "0" again after every prompt)
  session.usage_record one model request's tokens and duration
  assistant.message    content, reasoningText, toolRequests [{toolCallId,
                       name, arguments, intentionSummary, toolTitle}]
  tool.execution_start toolCallId, toolName, arguments
  tool.execution_complete  toolCallId, success, result {content,
                       detailedContent (a git-style diff for view/edit/create)}
                       or error {message, code}; shellExecution {exitCode}
                       for a shell command; fileEdits [{path, kind}]

A call is its toolRequests entry; its outcome the tool.execution_complete with
its toolCallId. `turn` counts the user.message events before the call. The
exit code of a shell command: shellExecution.exitCode (and the
`<shellId: N completed with exit code M>` line its output ends with).
`spanMs`: the complete event's timestamp minus the start event's (the file
says no duration of a tool call).
"""
import json
import os
import re
import sys

from datetime import datetime

KEY_ARGS = ("path", "view_range", "pattern", "paths", "glob", "output_mode", "command", "url")


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    for n, line in enumerate(data.split(b"\n"), 1):
        if line.strip():
            yield n, json.loads(line)


def ms(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp() * 1000


def hunks_of(diff):
    """The `@@` lines of a unified diff, and the new file's lines it adds."""
    hunks, added, new = [], [], 0
    for line in (diff or "").split("\n"):
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
        if m:
            hunks.append(line)
            new = int(m.group(3))
            continue
        if not hunks or line.startswith(("---", "+++")):
            continue
        if line.startswith("+"):
            added.append(new)
            new += 1
        elif line.startswith(" "):
            new += 1
    return hunks, added


def analyse(path):
    calls, order, lines = {}, [], []
    turn = 0
    odd = {"types": {}, "runs": [], "prompts": [], "sessionIds": set(), "cwds": set(), "versions": set(),
           "parent_chain_breaks": []}
    prev = None
    for n, e in records(path):
        typ, d = e.get("type"), e.get("data") or {}
        odd["types"][typ] = odd["types"].get(typ, 0) + 1
        if e.get("parentId") != prev:
            odd["parent_chain_breaks"].append(n)
        prev = e.get("id")
        if typ == "session.start":
            odd["sessionIds"].add(d.get("sessionId"))
            odd["versions"].add(d.get("copilotVersion"))
            odd["cwds"].add((d.get("context") or {}).get("cwd"))
            odd["runs"].append(("start", n))
            lines.append((n, typ, f"{d.get('sessionId')} {d.get('selectedModel')} v{d.get('copilotVersion')}"))
        elif typ == "session.resume":
            odd["cwds"].add((d.get("context") or {}).get("cwd"))
            odd["runs"].append(("resume", n))
            lines.append((n, typ, f"eventCount {d.get('eventCount')}"))
        elif typ == "user.message":
            turn += 1
            odd["prompts"].append(n)
            lines.append((n, typ, json.dumps(d.get("content"), ensure_ascii=False)[:80]))
        elif typ == "assistant.message":
            reqs = d.get("toolRequests") or []
            desc = json.dumps(d.get("content"), ensure_ascii=False)[:60]
            if d.get("reasoningText"):
                desc += " (+ reasoningText)"
            if reqs:
                desc += "  calls: " + ", ".join(f"{r.get('name')} `{r.get('toolCallId')}`" for r in reqs)
            lines.append((n, typ, desc))
            for r in reqs:
                cid = r.get("toolCallId")
                order.append(cid)
                calls[cid] = {"turn": turn, "req": r, "callLine": n, "siblings": len(reqs)}
        elif typ == "tool.execution_start":
            c = calls.setdefault(d.get("toolCallId"), {"turn": turn, "req": {}, "orphan": True})
            c["start"], c["startLine"] = e, n
            lines.append((n, typ, f"`{d.get('toolCallId')}` {d.get('toolName')}"))
        elif typ == "tool.execution_complete":
            c = calls.setdefault(d.get("toolCallId"), {"turn": turn, "req": {}, "orphan": True})
            c["end"], c["endLine"] = e, n
            lines.append((n, typ, f"`{d.get('toolCallId')}` success={d.get('success')}"
                          + (f" exitCode={d['shellExecution'].get('exitCode')}" if d.get("shellExecution") else "")))
        else:
            lines.append((n, typ, ""))
    out = []
    for cid in order:
        c = calls[cid]
        req = c["req"]
        args = req.get("arguments") or {}
        end = (c.get("end") or {}).get("data") or {}
        row = {"turn": c["turn"], "callId": cid, "tool": req.get("name"),
               "args": {k: args[k] for k in KEY_ARGS if k in args}, "success": end.get("success")}
        if end.get("error"):
            row["error"] = end["error"]
        result = end.get("result") or {}
        text = result.get("content") if isinstance(result.get("content"), str) else ""
        if "shellExecution" in end or req.get("name") == "bash":
            row["exitCode"] = (end.get("shellExecution") or {}).get("exitCode")
            row["exitCodeFrom"] = "shellExecution.exitCode" if "exitCode" in (end.get("shellExecution") or {}) else "none"
            m = re.search(r"<shellId: \S+ completed with exit code (-?\d+)>\s*$", text)
            row["exitCodeText"] = int(m.group(1)) if m else None
        if end.get("fileEdits"):
            row["fileEdits"] = end["fileEdits"]
        if isinstance(result.get("detailedContent"), str) and "\n@@ " in result["detailedContent"]:
            hunks, added = hunks_of(result["detailedContent"])
            row["detailedDiff"] = {"hunks": hunks, "addedNewLines": added}
        if c.get("start") and c.get("end"):
            row["spanMs"] = round(ms(c["end"]["timestamp"]) - ms(c["start"]["timestamp"]))
        row["lines"] = {"call": c.get("callLine"), "start": c.get("startLine"), "complete": c.get("endLine")}
        if c.get("siblings", 1) > 1:
            row["sameMessageAs"] = c["siblings"]
        out.append(row)
    for k in ("sessionIds", "cwds", "versions"):
        odd[k] = sorted(x for x in odd[k] if x)
    return {"file": os.path.basename(path),
            "format": "JSON lines: one event per line {type, data, id, timestamp, parentId}",
            "calls": out, "oddities": odd, "lines": lines}


def md(results):
    out = ["# GitHub Copilot CLI session: every tool call", "",
           "Computed by `tests/e2e/agents/copilot-cli/summarize.py` from the raw `events.jsonl` beside this file. "
           "*call / start / complete*: the lines of the `assistant.message` holding the tool request, of its "
           "`tool.execution_start` and of its `tool.execution_complete`. *span*: complete's timestamp minus "
           "start's (the file says no duration of a call). NOTES.md (hand-written) explains the oddities.", ""]
    for res in results:
        out += [f"## {res['file']}", "", f"Format: {res['format']}.", "",
                "| turn | call id | tool | key args | success | exit code | span | diff | call / start / complete |",
                "|---|---|---|---|---|---|---|---|---|"]
        for r in res["calls"]:
            a = "; ".join(f"{k}={json.dumps(v, ensure_ascii=False)[:60]}" for k, v in r["args"].items())
            a = a.replace("/workspace/demo/", "…/").replace("|", "\\|")
            ok = str(r["success"]) + (f" ({r['error'].get('code')}: {r['error'].get('message')})" if r.get("error") else "")
            code = "" if "exitCode" in r and r["exitCode"] is None and False else (
                f"{r['exitCode']} ({r['exitCodeFrom']})" if "exitCode" in r else "")
            span = f"{r['spanMs']} ms" if "spanMs" in r else ""
            diff = " ".join(r["detailedDiff"]["hunks"]) if r.get("detailedDiff") else ""
            ln = r["lines"]
            out.append(f"| {r['turn']} | `{r['callId']}` | {r['tool']} | `{a}` | {ok} | {code} | {span} | {diff} "
                       f"| {ln['call']} / {ln['start']} / {ln['complete']} |")
        out += ["", f"{len(res['calls'])} calls.", ""]
        o = res["oddities"]
        out += ["### What the file holds", ""]
        out.append("* events: " + ", ".join(f"`{k}` × {v}" for k, v in o["types"].items()))
        out.append("* runs: " + ", ".join(f"{k} at line {n}" for k, n in o["runs"]))
        out.append(f"* prompts at lines {', '.join(map(str, o['prompts']))}; sessionId {o['sessionIds']}; "
                   f"cwd {o['cwds']}; version {o['versions']}")
        out.append("* parentId chain: " + ("every event's `parentId` is the previous line's `id`"
                                           if not o["parent_chain_breaks"] else
                                           f"not the previous line's `id` at lines {o['parent_chain_breaks']}"))
        out += ["", "### Every line", "", "| line | event | gist |", "|---|---|---|"]
        for n, what, desc in res["lines"]:
            out.append(f"| {n} | {what} | {desc.replace('|', chr(92) + '|')} |")
        out.append("")
    return "\n".join(out)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--print":
        print(json.dumps([analyse(p)["calls"] for p in sys.argv[2:]], indent=1, ensure_ascii=False))
        return 0
    d = sys.argv[1]
    path = os.path.join(d, "events.jsonl")
    if not os.path.exists(path):
        raise SystemExit(f"summarize: no events.jsonl in {d}")
    results = [analyse(path)]
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
