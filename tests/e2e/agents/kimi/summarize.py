#!/usr/bin/env python3
"""Every tool call of a Kimi Code CLI session, computed from the raw wire.jsonl.

usage: summarize.py DIR        (writes DIR/SUMMARY.json and DIR/SUMMARY.md)

Reads every DIR/sessions/<work dir md5>/<session id>/wire.jsonl: kimi-cli's
wire log (src/kimi_cli/wire/file.py): a first line {"type": "metadata",
"protocol_version"}, then one record a line {timestamp (epoch seconds, float),
message: {type, payload}} with type (src/kimi_cli/wire/types.py)

  TurnBegin {user_input}        a prompt: a turn starts
  StepBegin {n}                 a model request of the turn
  ContentPart {type: text|think, text|think}
  ToolCall {id, function: {name, arguments (a JSON string)}}
  StatusUpdate {token_usage: {input_other, output, input_cache_read,
                input_cache_creation}, context_tokens, message_id, …}
  ToolResult {tool_call_id, return_value: {is_error, output, message,
              display: [{type: brief|diff|shell|todo|…}], extras}}
  TurnEnd {}

A call is its ToolCall; its outcome the ToolResult with its id. `turn` counts
the TurnBegin records before the call. A Shell call's exit code is read from
its result's message only: `Command failed with exit code: N.` (N), or
`Command executed successfully.` (0: kimi-cli's Shell writes it only for exit
code 0); anything else (a timeout, an error starting it): none. An edit's lines
are its `diff` display blocks' old_start/new_start.
"""
import glob
import json
import os
import re
import sys

KEY_ARGS = ("path", "line_offset", "n_lines", "pattern", "directory", "glob", "output_mode", "command", "url", "query")


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    for n, line in enumerate(data.split(b"\n"), 1):
        if line.strip():
            yield n, json.loads(line)


def shell_exit(message):
    m = re.match(r"Command failed with exit code: (-?\d+)\.", message or "")
    if m:
        return int(m.group(1)), "message `Command failed with exit code: N.`"
    if message == "Command executed successfully.":
        return 0, "message `Command executed successfully.` (written for exit code 0 only)"
    return None, None


def summarize(path):
    calls, by_id, turn, types, n_lines = [], {}, 0, {}, 0
    for n, r in records(path):
        n_lines = n
        if r.get("type") == "metadata":
            types["metadata"] = types.get("metadata", 0) + 1
            continue
        msg = r.get("message") or {}
        t, p = msg.get("type"), msg.get("payload") or {}
        types[t] = types.get(t, 0) + 1
        if t == "TurnBegin":
            turn += 1
        elif t == "ToolCall":
            fn = p.get("function") or {}
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except ValueError:
                args = fn.get("arguments")
            c = {"turn": turn, "callId": p.get("id"), "tool": fn.get("name"),
                 "args": {k: v for k, v in args.items() if k in KEY_ARGS} if isinstance(args, dict) else args,
                 "lines": {"call": n}}
            calls.append(c)
            by_id[c["callId"]] = c
        elif t == "ToolResult":
            c = by_id.get(p.get("tool_call_id"))
            if c is None:
                continue
            rv = p.get("return_value") or {}
            c["lines"]["result"] = n
            c["isError"] = rv.get("is_error")
            c["message"] = rv.get("message")
            c["display"] = [b.get("type") for b in rv.get("display") or []]
            brief = [b.get("text") for b in rv.get("display") or [] if b.get("type") == "brief"]
            if brief:
                c["brief"] = brief[0]
            diffs = [{k: b.get(k) for k in ("path", "old_start", "new_start", "is_summary")}
                     for b in rv.get("display") or [] if b.get("type") == "diff"]
            if diffs:
                c["diffs"] = diffs
            if c["tool"] == "Shell":
                c["exitCode"], c["exitCodeFrom"] = shell_exit(rv.get("message"))
    return {"lines": n_lines, "types": types, "calls": calls}


def main():
    d = sys.argv[1]
    out = []
    for path in sorted(glob.glob(os.path.join(d, "sessions", "*", "*", "wire.jsonl"))):
        s = summarize(path)
        out.append({"file": os.path.relpath(path, d), **s})
    if not out:
        print(f"summarize: no sessions/*/*/wire.jsonl in {d}", file=sys.stderr)
        return 1
    with open(os.path.join(d, "SUMMARY.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(d, "SUMMARY.md"), "w", encoding="utf-8") as f:
        f.write("# Every tool call, from the raw wire.jsonl (summarize.py)\n")
        for e in out:
            f.write(f"\n## {e['file']}\n\n{e['lines']} lines: "
                    + ", ".join(f"{k} {v}" for k, v in e["types"].items()) + "\n\n")
            f.write("| turn | call id | tool | key args | is_error | exit code | message | lines (call, result) |\n")
            f.write("|---|---|---|---|---|---|---|---|\n")
            for c in e["calls"]:
                args = json.dumps(c["args"], ensure_ascii=False).replace("|", "\\|")
                extra = "".join(f" diff {x['path']} old_start {x['old_start']} new_start {x['new_start']}" for x in c.get("diffs", []))
                msg = (c.get("message") or "").replace("|", "\\|").replace("\n", " ")[:90]
                f.write(f"| {c['turn']} | `{c['callId']}` | {c['tool']} | `{args}` | {c.get('isError')} | "
                        f"{c.get('exitCode', '')} | {msg}{extra} | {c['lines'].get('call')}, {c['lines'].get('result')} |\n")
    print(f"summarize: {sum(len(e['calls']) for e in out)} calls in {len(out)} session(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
