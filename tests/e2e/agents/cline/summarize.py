#!/usr/bin/env python3
"""Every tool call of a Cline CLI session, computed from the raw files.

usage: summarize.py DIR        (writes DIR/SUMMARY.json and DIR/SUMMARY.md)
       summarize.py --print FILE...   (the calls as JSON on stdout)

Reads every `<id>/<id>.messages.json` under DIR: the CLI's conversation, one
JSON document {version, updated_at, agent, sessionId, origin: {source, mode,
sessionId, version}, messages: [...], system_prompt}, each message {id, role,
content: [blocks], ts (epoch ms), modelInfo?, metrics?} with Anthropic-style
blocks:

  user       text (a prompt: `<user_input mode="act">…</user_input>`), or
             one tool_result {tool_use_id, name, content, is_error?}
  assistant  thinking, text, tool_use {id, name, input}; modelInfo {id,
             provider}, metrics {inputTokens, outputTokens, …}

A call is a tool_use; its result the tool_result whose tool_use_id is the
call's id (each in its own user message, in call order). A result's content
is either a list of entries, one per item of a batched input (run_commands'
commands, read_files' files, search_codebase's queries, fetch_web_content's
requests): {query, result, error?, success}; or a JSON object written as a
string (editor, apply_patch: {query, result, error?, success}); or, for a
call refused before it ran, `{"error": …}` as a string with is_error: true.

Status, as deck words it: error when is_error, or when every entry says
success: false; for run_commands, failed when its exit code is not 0; ok
otherwise. A command's exit code: `[Command exited with code N]` at the head
of its result; 0 when its entry says success: true (the CLI resolves a
command only when it exits 0); else unknown. A batch of commands: its first
non-zero code, else 0 when every command's is known.

The turn counts the prompts (user messages with a text block) before the call.
"""
import glob
import json
import os
import re
import sys

KEY_ARGS = ("path", "commands", "queries", "files", "requests", "insert_line", "input")


def entries_of(content):
    """The result's entries (a list of {query, result, error?, success}), and how it was written."""
    if isinstance(content, list):
        return [e for e in content if isinstance(e, dict)], "list"
    if isinstance(content, str):
        try:
            v = json.loads(content)
        except ValueError:
            return [], "text"
        if isinstance(v, dict):
            return [v], "string"
    return [], "other"


def exit_code(entry):
    m = re.match(r"\[Command exited with code (-?\d+)\]", entry.get("result") or "")
    if m:
        return int(m.group(1))
    if entry.get("success") is True:
        return 0
    return None


def analyse(path):
    doc = json.load(open(path, encoding="utf-8"))
    calls, order, results = {}, [], {}
    turn = 0
    lines = []
    models = []
    for i, m in enumerate(doc.get("messages") or []):
        blocks = m.get("content") if isinstance(m.get("content"), list) else []
        kinds = [b.get("type") for b in blocks]
        if m.get("role") == "user" and "text" in kinds:
            turn += 1
        if m.get("role") == "assistant":
            models.append((m.get("modelInfo") or {}).get("id"))
        for b in blocks:
            if b.get("type") == "tool_use":
                order.append(b["id"])
                calls[b["id"]] = {"turn": turn, "block": b, "message": i, "siblings": kinds.count("tool_use")}
            elif b.get("type") == "tool_result":
                results[b.get("tool_use_id")] = (i, b)
        lines.append((i, m.get("role"), ", ".join(k or "?" for k in kinds)))
    out = []
    for cid in order:
        c = calls[cid]
        b = c["block"]
        inp = b.get("input") or {}
        row = {"turn": c["turn"], "callId": cid, "tool": b.get("name"),
               "args": {k: inp[k] for k in KEY_ARGS if k in inp}}
        ri, r = results.get(cid, (None, None))
        if r is None:
            row["status"] = None
            out.append(row)
            continue
        entries, shape = entries_of(r.get("content"))
        row["resultShape"] = shape
        row["isError"] = bool(r.get("is_error"))
        row["entries"] = [{"query": e.get("query"), "success": e.get("success"),
                           **({"error": e["error"][:120]} if isinstance(e.get("error"), str) else {})}
                          for e in entries]
        failed_all = bool(entries) and all(e.get("success") is False for e in entries)
        status = "error" if row["isError"] or failed_all else "ok"
        if b.get("name") == "run_commands" and not row["isError"]:
            codes = [exit_code(e) for e in entries]
            for e, code in zip(row["entries"], codes):
                e["exitCode"] = code
            bad = [x for x in codes if x not in (None, 0)]
            row["exitCode"] = bad[0] if bad else (0 if codes and None not in codes else None)
            status = "failed" if row["exitCode"] not in (None, 0) else status
        row["status"] = status
        row["lines"] = {"call": c["message"], "result": ri}
        if c["siblings"] > 1:
            row["sameMessageAs"] = c["siblings"]
        out.append(row)
    return {"file": os.path.relpath(path, os.path.dirname(os.path.dirname(path))),
            "format": "one JSON document: messages [{id, role, content: [blocks], ts}] (Anthropic-style blocks)",
            "sessionId": doc.get("sessionId"), "version": (doc.get("origin") or {}).get("version"),
            "models": sorted(set(x for x in models if x)), "calls": out, "lines": lines}


def gist(row):
    a = row["args"]
    bits = []
    for k in KEY_ARGS:
        if k in a:
            v = json.dumps(a[k], ensure_ascii=False) if not isinstance(a[k], str) else a[k]
            v = v.replace("\n", "\\n").replace("/workspace/demo/", "…/")
            bits.append(f"{k}={v[:70]}")
    return "; ".join(bits).replace("|", "\\|")


def md(results):
    out = ["# Cline CLI session: every tool call", "",
           "Computed by `tests/e2e/agents/cline/summarize.py` from the raw session files beside this file. "
           "*call / result*: the indexes (from 0) in `messages` of the assistant message holding the "
           "`tool_use` and of the user message holding its `tool_result`. NOTES.md (hand-written) explains "
           "the oddities.", ""]
    for res in results:
        out += [f"## {res['file']}", "", f"Format: {res['format']}. Session `{res['sessionId']}`, CLI "
                f"{res['version']}, models {', '.join(res['models'])}.", "",
                "| turn | call id | tool | key args | result | status | exit code | call / result |",
                "|---|---|---|---|---|---|---|---|"]
        for r in res["calls"]:
            ents = "; ".join(f"{'✓' if e.get('success') else '✗'}"
                             + (f" exit {e['exitCode']}" if 'exitCode' in e and e['exitCode'] is not None else "")
                             for e in r.get("entries", []))
            shape = f"{r.get('resultShape')}{' is_error' if r.get('isError') else ''}: {ents}"
            code = "" if "exitCode" not in r else ("-" if r["exitCode"] is None else str(r["exitCode"]))
            ln = r.get("lines") or {}
            out.append(f"| {r['turn']} | `{r['callId']}` | {r['tool']} | `{gist(r)}` | {shape} | {r['status']} "
                       f"| {code} | {ln.get('call')} / {ln.get('result')} |")
        st = {}
        for r in res["calls"]:
            st[r["status"]] = st.get(r["status"], 0) + 1
        out += ["", f"{len(res['calls'])} calls; statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(st.items())), ""]
        for r in res["calls"]:
            for e in r.get("entries", []):
                if "error" in e:
                    out.append(f"* `{r['callId']}` `{e['query']}`: {e['error']!r}")
        out += ["", "### Every message", "", "| index | role | blocks |", "|---|---|---|"]
        for n, what, desc in res["lines"]:
            out.append(f"| {n} | {what} | {desc} |")
        out.append("")
    return "\n".join(out)


def session_files(d):
    return sorted(glob.glob(os.path.join(d, "*", "*.messages.json")))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--print":
        print(json.dumps([analyse(p)["calls"] for p in sys.argv[2:]], indent=1, ensure_ascii=False))
        return 0
    d = sys.argv[1]
    files = session_files(d)
    if not files:
        raise SystemExit(f"summarize: no <id>/<id>.messages.json in {d}")
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
