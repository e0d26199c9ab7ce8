#!/usr/bin/env python3
"""Every tool call of a Qwen Code session, computed from the raw file.

usage: summarize.py DIR        (writes DIR/SUMMARY.json and DIR/SUMMARY.md)
       summarize.py --print FILE...   (the calls as JSON on stdout)

Reads every `<session id>.jsonl` in DIR (not usage_record.jsonl): Qwen Code's
chat recording, one record per line {uuid, parentUuid, sessionId, timestamp,
type, provenance, cwd, version, …} with type

  user         a prompt: message {role: "user", parts: [{text}]}
  assistant    a model response: message {role: "model", parts: [{text},
               {text, thought: true}, {functionCall: {id, name, args}}]},
               model, usageMetadata, contextWindowSize
  tool_result  one call's result: message {role: "user", parts:
               [{functionResponse: {id, name, response: {output | error}}}]},
               toolCallResult {callId, status, resultDisplay, error?,
               errorType?, executionStatus}
  system       subtype ui_telemetry (systemPayload.uiEvent: `qwen-code.
               api_response` or `qwen-code.tool_call` with duration_ms,
               status, error…), attribution_snapshot, and others

A call is its `functionCall` in an assistant record; its outcome is the
`tool_result` whose toolCallResult.callId (and functionResponse.id) is the
call's id; its duration is the `qwen-code.tool_call` telemetry event with that
call_id. `turn` counts the `user` records before the call. A call through the
deferred-tool wrapper (`tool_call` {name, arguments}) is reported with
`tool: "tool_call"` (the name the file gives the call and its result) and
`ranAs`: the telemetry's function_name (the inner tool).

The exit code of a shell command: resultDisplay.exitCode (and .outcome) of a
`shell_result` display when present, else `Exit Code: N` in the result text.
"""
import glob
import json
import os
import re
import sys

KEY_ARGS = ("path", "file_path", "offset", "limit", "pattern", "glob", "command", "query", "name", "url", "prompt")


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    for n, line in enumerate(data.split(b"\n"), 1):
        if line.strip():
            yield n, json.loads(line)


def text_of(parts):
    return "".join(p.get("text", "") for p in parts or [] if isinstance(p, dict) and not p.get("thought"))


def diff_lines(diff):
    """Hunks of a unified diff, with the line numbers it adds (new file) and removes (old file)."""
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


def response_text(part):
    resp = ((part or {}).get("functionResponse") or {}).get("response") or {}
    for k in ("output", "error"):
        if isinstance(resp.get(k), str):
            return k, resp[k]
    return None, json.dumps(resp)


def analyse(path):
    calls, order = {}, []
    turn = 0
    lines = []
    prev_uuid = None
    odd = {"types": {}, "chain_breaks": [], "prompts": [], "prompt_ids": {}, "api_responses": [],
           "telemetry_before_result": [], "result_order_differs": [], "sessionIds": set(), "cwds": set(),
           "versions": set(), "thoughts": [], "other_subtypes": {}}
    for n, r in records(path):
        typ, sub = r.get("type"), r.get("subtype")
        key = typ + (f"/{sub}" if sub else "")
        odd["types"][key] = odd["types"].get(key, 0) + 1
        odd["sessionIds"].add(r.get("sessionId"))
        odd["cwds"].add(r.get("cwd"))
        odd["versions"].add(r.get("version"))
        if r.get("parentUuid") != prev_uuid:
            odd["chain_breaks"].append({"line": n, "parentUuid": r.get("parentUuid"), "previous": prev_uuid})
        prev_uuid = r.get("uuid")
        msg = r.get("message") or {}
        parts = msg.get("parts") or []
        if typ == "user":
            turn += 1
            odd["prompts"].append(n)
            lines.append((n, "user", json.dumps(text_of(parts), ensure_ascii=False)[:80]))
        elif typ == "assistant":
            fcs = [p["functionCall"] for p in parts if isinstance(p, dict) and "functionCall" in p]
            if any(isinstance(p, dict) and p.get("thought") for p in parts):
                odd["thoughts"].append(n)
            desc = json.dumps(text_of(parts), ensure_ascii=False)[:60]
            if fcs:
                desc += "  calls: " + ", ".join(f"{fc.get('name')} `{fc.get('id')}`" for fc in fcs)
            lines.append((n, "assistant", desc))
            for fc in fcs:
                cid = fc.get("id")
                order.append(cid)
                calls[cid] = {"turn": turn, "call": fc, "callLine": n, "siblings": len(fcs)}
        elif typ == "tool_result":
            tcr = r.get("toolCallResult") or {}
            cid = tcr.get("callId")
            frs = [p for p in parts if isinstance(p, dict) and "functionResponse" in p]
            c = calls.setdefault(cid, {"turn": turn, "call": {}, "orphan": True})
            c["result"] = r
            c["resultLine"] = n
            lines.append((n, "tool_result", f"`{cid}` {frs[0]['functionResponse'].get('name') if frs else '?'} "
                                            f"status={tcr.get('status')} executionStatus={tcr.get('executionStatus')}"))
        elif typ == "system" and sub == "ui_telemetry":
            ev = (r.get("systemPayload") or {}).get("uiEvent") or {}
            name = ev.get("event.name")
            pid = ev.get("prompt_id")
            if pid:
                odd["prompt_ids"].setdefault(pid, []).append(n)
            if name == "qwen-code.tool_call":
                cid = ev.get("call_id")
                c = calls.setdefault(cid, {"turn": turn, "call": {}, "orphan": True})
                c["telemetry"] = ev
                c["telemetryLine"] = n
                lines.append((n, "ui_telemetry", f"tool_call `{cid}` {ev.get('function_name')} {ev.get('status')} "
                                                 f"{ev.get('duration_ms')} ms"))
            elif name == "qwen-code.api_response":
                odd["api_responses"].append({"line": n, "duration_ms": ev.get("duration_ms"), "ttft_ms": ev.get("ttft_ms")})
                lines.append((n, "ui_telemetry", f"api_response {ev.get('duration_ms')} ms (ttft {ev.get('ttft_ms')} ms)"))
            else:
                lines.append((n, "ui_telemetry", str(name)))
        else:
            if typ == "system":
                odd["other_subtypes"].setdefault(sub, []).append(n)
            gist = ""
            if sub == "attribution_snapshot":
                fs = ((r.get("systemPayload") or {}).get("snapshot") or {}).get("fileStates") or {}
                gist = f"promptCount {((r.get('systemPayload') or {}).get('snapshot') or {}).get('promptCount')}, " \
                       f"{len(fs)} file(s)"
            lines.append((n, key, gist))
    # Which results come in another order than their telemetry (parallel calls).
    tel_order = sorted((c["telemetryLine"], cid) for cid, c in calls.items() if "telemetryLine" in c)
    res_order = sorted((c["resultLine"], cid) for cid, c in calls.items() if "resultLine" in c)
    if [cid for _, cid in tel_order] != [cid for _, cid in res_order]:
        odd["result_order_differs"] = [{"telemetry": [cid for _, cid in tel_order], "results": [cid for _, cid in res_order]}]
    out = []
    for cid in order:
        c = calls[cid]
        fc = c["call"]
        args = fc.get("args") or {}
        tel = c.get("telemetry") or {}
        res = c.get("result") or {}
        tcr = res.get("toolCallResult") or {}
        shown = args
        row = {"turn": c["turn"], "callId": cid, "tool": fc.get("name")}
        if fc.get("name") == "tool_call":
            row["ranAs"] = tel.get("function_name") or args.get("name")
            shown = dict(args.get("arguments") or {}, name=args.get("name"))
        row["args"] = {k: shown[k] for k in KEY_ARGS if k in shown}
        row["status"] = tcr.get("status")
        row["executionStatus"] = tcr.get("executionStatus")
        if tcr.get("errorType"):
            row["errorType"] = tcr["errorType"]
        frs = [p for p in (res.get("message") or {}).get("parts") or [] if isinstance(p, dict) and "functionResponse" in p]
        kind, text = response_text(frs[0]) if frs else (None, "")
        row["response"] = kind
        if frs and frs[0]["functionResponse"].get("name") != fc.get("name"):
            row["responseName"] = frs[0]["functionResponse"].get("name")
        rd = tcr.get("resultDisplay")
        if fc.get("name") == "run_shell_command" or (isinstance(rd, dict) and rd.get("type") == "shell_result"):
            m = re.search(r"^Exit Code: (-?\d+)$", text, re.M)
            if isinstance(rd, dict) and "exitCode" in rd:
                row["exitCode"] = rd["exitCode"]
                row["outcome"] = rd.get("outcome")
                row["exitCodeFrom"] = "resultDisplay.exitCode"
                if m and int(m.group(1)) != rd["exitCode"]:
                    row["exitCodeText"] = int(m.group(1))
            else:
                row["exitCode"] = int(m.group(1)) if m else None
                row["exitCodeFrom"] = "text `Exit Code: N`" if m else "none"
        if tel:
            row["durationMs"] = tel.get("duration_ms")
            row["telemetryStatus"] = tel.get("status")
            if tel.get("error_type"):
                row["telemetryErrorType"] = tel["error_type"]
            md = tel.get("metadata") or {}
            if "model_added_lines" in md:
                row["linesAddedRemoved"] = [md.get("model_added_lines"), md.get("model_removed_lines")]
        if isinstance(rd, dict) and isinstance(rd.get("fileDiff"), str):
            hunks, added, removed = diff_lines(rd["fileDiff"])
            row["diff"] = {"filePath": rd.get("filePath"), "hunks": hunks,
                           "addedNewLines": spans(added), "removedOldLines": spans(removed)}
            m = re.search(r"Showing lines (\d+)-(\d+) of (\d+) from the edited file", text)
            if m:
                row["diff"]["resultShowsLines"] = f"{m.group(1)}-{m.group(2)} of {m.group(3)}"
        if isinstance(rd, str):
            row["resultDisplay"] = rd[:160]
        if row["status"] != "success":
            row["resultText"] = text[:200]
        row["lines"] = {"call": c.get("callLine"), "telemetry": c.get("telemetryLine"), "result": c.get("resultLine")}
        if c.get("siblings", 1) > 1:
            row["sameMessageAs"] = c["siblings"]
        out.append(row)
    for k in ("sessionIds", "cwds", "versions"):
        odd[k] = sorted(x for x in odd[k] if x)
    return {"file": os.path.basename(path),
            "format": "JSON lines: one record per line, a parentUuid chain (user, assistant, tool_result, system)",
            "calls": out, "oddities": odd, "lines": lines}


def gist(row):
    a = row["args"]
    bits = []
    for k in KEY_ARGS:
        if k in a:
            v = str(a[k]).replace("\n", "\\n").replace("/workspace/demo/", "…/")
            bits.append(f"{k}={v[:60]}")
    return "; ".join(bits)


def md(results):
    out = ["# Qwen Code session: every tool call", "",
           "Computed by `tests/e2e/agents/qwen-code/summarize.py` from the raw session file beside this file. "
           "*call / tel / result*: the lines of the assistant record holding the `functionCall`, of the "
           "`qwen-code.tool_call` telemetry event, and of the `tool_result` record. "
           "NOTES.md (hand-written) explains the oddities.", ""]
    for res in results:
        out += [f"## {res['file']}", "", f"Format: {res['format']}.", "",
                "| turn | call id | tool | key args | status | exit code | duration | edit lines | call / tel / result |",
                "|---|---|---|---|---|---|---|---|---|"]
        for r in res["calls"]:
            tool = r["tool"] + (f" → {r['ranAs']}" if r.get("ranAs") else "")
            st = f"{r['status']}" + (f" ({r['errorType']})" if r.get("errorType") else "")
            code = ""
            if "exitCode" in r:
                code = "-" if r["exitCode"] is None else f"{r['exitCode']} ({r.get('outcome') or r['exitCodeFrom']})"
            dur = "" if r.get("durationMs") is None else f"{r['durationMs']} ms"
            d = r.get("diff")
            dl = ""
            if d:
                dl = f"{' '.join(d['hunks'])}: +{d['addedNewLines'] or '∅'} (new) -{d['removedOldLines'] or '∅'} (old)"
                if d.get("resultShowsLines"):
                    dl += f"; result shows {d['resultShowsLines']}"
            ln = r["lines"]
            out.append(f"| {r['turn']} | `{r['callId']}` | {tool} | `{gist(r)}` | {st} | {code} | {dur} | {dl} "
                       f"| {ln['call']} / {ln['telemetry']} / {ln['result']} |")
        st = {}
        for r in res["calls"]:
            st[r["status"]] = st.get(r["status"], 0) + 1
        out += ["", f"{len(res['calls'])} calls; statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(st.items())), ""]
        for r in res["calls"]:
            if "resultText" in r:
                out.append(f"* `{r['callId']}` ({r['status']}, response `{r['response']}`): {r['resultText']!r}")
        out.append("")
        o = res["oddities"]
        out += ["### What the file holds", ""]
        out.append("* records: " + ", ".join(f"`{k}` × {v}" for k, v in o["types"].items()))
        out.append(f"* prompts (`user` records) at lines {', '.join(map(str, o['prompts']))}; one `sessionId`: "
                   f"{len(o['sessionIds']) == 1}; `cwd` {o['cwds']}; `version` {o['versions']}")
        out.append("* parentUuid chain: " + ("every record's `parentUuid` is the previous line's `uuid` (the first's is null), "
                                             "across the resumes too" if not o["chain_breaks"] else f"breaks at {[b['line'] for b in o['chain_breaks']]}"))
        out.append("* telemetry `prompt_id`s (`<sessionId>########<n>`): " + "; ".join(
            f"`…{p[-10:]}` lines {ls[0]}-{ls[-1]}" for p, ls in o["prompt_ids"].items()))
        out.append(f"* `qwen-code.api_response` events: {len(o['api_responses'])} (one per model response; "
                   f"duration_ms {', '.join(str(a['duration_ms']) for a in o['api_responses'])})")
        if o["thoughts"]:
            out.append("* assistant records with a thought part: " + ", ".join(map(str, o["thoughts"])))
        for d in o["result_order_differs"]:
            out.append(f"* telemetry order {d['telemetry']} differs from the results' order {d['results']} "
                       "(parallel calls: telemetry as they finish, results in call order)")
        out += ["", "### Every line", "", "| line | record | gist |", "|---|---|---|"]
        for n, what, desc in res["lines"]:
            out.append(f"| {n} | {what} | {desc.replace('|', chr(92) + '|')} |")
        out.append("")
    return "\n".join(out)


def session_files(d):
    return sorted(p for p in glob.glob(os.path.join(d, "*.jsonl")) if os.path.basename(p) != "usage_record.jsonl")


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--print":
        print(json.dumps([analyse(p)["calls"] for p in sys.argv[2:]], indent=1, ensure_ascii=False))
        return 0
    d = sys.argv[1]
    files = session_files(d)
    if not files:
        raise SystemExit(f"summarize: no <session id>.jsonl in {d}")
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
