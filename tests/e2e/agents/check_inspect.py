#!/usr/bin/env python3
"""`deck inspect` of the files a real agent CLI wrote while it played its kit's tour.

usage: check_inspect.py DECK claude-code SCENARIO_DIR WS SESSION [SUBAGENT_LOG ...]
       check_inspect.py DECK codex SCENARIO_DIR WS ROLLOUT

SCENARIO_DIR is the kit's scenario (its scenario.json scripts every call the
model makes); WS is the workspace the CLI ran in (`{{WS}}` in Claude's
scenario). The files are the ones the CLI wrote, unchanged: Claude Code's
session and its subagents' logs (`<session>/subagents/agent-*.jsonl`), or
Codex's rollout.

Every call the scenario makes must be listed by `deck inspect`, once, in
order, under the agent's own id (`toolu_…`, `call_…`), made by the agent's
presenters (`viewSource: "presenter:<agent>"`), with the card and the key
fields docs/agents.md's mapping tables give its tool:

  Claude Code  Bash → terminal (the command, exit code); Read → read (the
               file, real line numbers from the offset asked for); Edit,
               Write → diff (the file, old and new text); WebSearch → web
               (query, sources); TaskCreate, TaskUpdate, TaskList → the plan
               checklist (`plan`: the task created, the status set); Agent →
               generic (description, report); ToolSearch → generic.
  Codex        exec_command → terminal (the command, exit code; a command
               Codex labelled a read or search may be a read or search card),
               a `write_stdin` poll merged into the card of the command it
               polls; apply_patch → diff (one per file of the patch);
               update_plan → the checklist (`plan`, step for step);
               web_search → web (the query).

The calls that fail in the tour (see the kit's README and the captures'
tool-calls.md / SUMMARY.md) must be error cards: ERRORS below. KNOWN_GAPS
lists what deck does not do yet (reported, not failed; once deck does it,
the check says so and the entry should go).

This file also gives `follow.py` what `deck follow` must show: `expected()`.
"""
import json
import os
import re
import subprocess
import sys

# (agent, tool, text in the call's input) -> why that call fails in the tour
# (each entry: the first such call of the scenario).
ERRORS = {
    ("claude-code", "Bash", "exit 1"): "the script's `test -f Cargo.toml || …; exit 1`",
    ("claude-code", "Grep", ""): "Claude Code 2.1.328 has no Grep tool (<tool_use_error>)",
    ("claude-code", "WebFetch", ""): "offline: the fetch cannot reach the site",
    ("codex", "exec_command", "python3 src/stats.py"): "the self-test fails before the fix (exit 1)",
    ("codex", "apply_patch", "MIN_SUPPORTED"): "its context is not in src/lib.rs: verification failed",
}

# (agent, tool, text in the call's input, checks) -> what deck does not do yet.
KNOWN_GAPS: dict = {}


class Call:
    """One call the scenario scripts."""

    def __init__(self, agent, tool, args, where, ws):
        self.agent, self.tool, self.args, self.where, self.ws = agent, tool, args, where, ws
        text = json.dumps(args, ensure_ascii=False) if not isinstance(args, str) else args
        self.text = text
        self.why_error = None  # set from ERRORS
        self.polled = False  # Codex: a write_stdin poll follows (merged into this card)

    def gap(self, check):
        return next(
            (why for (a, t, s, c), why in KNOWN_GAPS.items()
             if a == self.agent and t == self.tool and s in self.text and check in c),
            None,
        )

    def gist(self):
        a = self.args
        if isinstance(a, dict):
            for k in ("command", "cmd", "file_path", "url", "query", "subject", "description"):
                if k in a:
                    return str(a[k])
        return self.text[:60].replace("\n", " ")

    def follow_keys(self):
        """Text one of which the call's card shows on a line of `deck follow`."""
        a, rel = self.args, lambda p: os.path.relpath(p, self.ws)
        if self.tool in ("Bash", "exec_command"):
            return [(a.get("command") or a.get("cmd"))[:40]]
        if self.tool in ("Read", "Edit", "Write"):
            return [f"{self.tool} {rel(a['file_path'])}"]
        if self.tool == "WebFetch":
            return [a["url"]]
        if self.tool in ("WebSearch", "web_search"):
            return [a["query"][:40]]
        if self.tool == "Grep":
            return [f"Grep {a['pattern']}"]
        if self.tool in ("TaskCreate", "TaskUpdate", "TaskList", "update_plan"):
            return ["Plan", "New task", "Update task", "Task list"]
        if self.tool == "Agent":
            return ["Subagent"]
        if self.tool == "apply_patch":
            verb, path = patch_files(a)[0]
            return [f"Patch: {verb.lower()} {path}"]
        return [self.tool]


def patch_files(patch):
    return re.findall(r"^\*\*\* (Add|Update|Delete) File: (.+)$", patch, re.M)


def subst(v, ws):
    if isinstance(v, str):
        return v.replace("{{WS}}", ws)
    if isinstance(v, list):
        return [subst(x, ws) for x in v]
    if isinstance(v, dict):
        return {k: subst(x, ws) for k, x in v.items()}
    return v


def expected(agent, scenario_dir, ws):
    """The calls in order: Claude's as (where, [Call]) groups, `main` first
    then one per subagent script; Codex's one `main` group. A Codex
    `write_stdin` poll is not a call of its own (it is merged)."""
    with open(os.path.join(scenario_dir, "scenario.json"), encoding="utf-8") as f:
        scen = json.load(f)
    groups = [("main", [])]
    for turn in scen["turns"]:
        if agent == "claude-code":
            where = turn["match"] if turn.get("subagent") else "main"
            if where != "main":
                groups.append((where, []))
            calls = dict(groups)[where]
            for step in turn["steps"] + turn.get("after_notification", []):
                for b in step["content"]:
                    if b["type"] == "tool_use":
                        calls.append(Call(agent, b["name"], subst(b["input"], ws), where, ws))
        else:
            calls = groups[0][1]
            for step in turn["steps"]:
                for it in step:
                    if "exec" in it:
                        calls.append(Call(agent, "exec_command", {"cmd": it["exec"]}, "main", ws))
                    elif "patch" in it:
                        calls.append(Call(agent, "apply_patch", it["patch"], "main", ws))
                    elif "web_search" in it:
                        calls.append(Call(agent, "web_search", {"query": it["web_search"]}, "main", ws))
                    elif it.get("call") == "write_stdin":
                        calls[-1].polled = True  # merged into the command it polls
                    elif "call" in it:
                        calls.append(Call(agent, it["call"], it.get("args", {}), "main", ws))
    every = [c for _, calls in groups for c in calls]
    for (a, t, text), why in ERRORS.items():
        if a != agent:
            continue
        call = next((c for c in every if c.tool == t and text in c.text and c.why_error is None), None)
        if call is None:
            raise SystemExit(f"check_inspect: ERRORS names a call the scenario does not make: {t} {text!r}")
        call.why_error = why
    return groups


def inspect(deck, path):
    r = subprocess.run([deck, "inspect", path], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise SystemExit(f"check_inspect: FAIL: deck inspect {path} exited {r.returncode}: {r.stderr.strip()}")
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def tag(line):
    return (line.get("resultView") or {}).get("card") or (line.get("callView") or {}).get("card")


def wire_tool(call):
    return "web_search_call" if call.tool == "web_search" else call.tool


# Each check: (name, predicate(line, call) -> bool, what it means).
def checks(call):
    a = call.args
    cv = lambda ln: ln.get("callView") or {}
    rv = lambda ln: ln.get("resultView") or {}
    out = []
    add = lambda name, pred, what: out.append((name, pred, what))
    err = call.why_error is not None
    if call.agent == "claude-code":
        add("callId", lambda ln: ln["callId"].startswith("toolu_"), "Claude's toolu_ id")
    elif call.tool == "web_search":
        add("callId", lambda ln: ln["callId"].startswith("ws_"), "the web_search_call item's id")
    else:
        add("callId", lambda ln: ln["callId"].startswith("call_"), "Codex's call_id")
    add("viewSource", lambda ln: ln["viewSource"] == f"presenter:{call.agent}", f"presenter:{call.agent}")
    if call.tool in ("exec_command", "Bash") and err:
        # A command that exited non-zero failed: its exit code is its outcome.
        add("status", lambda ln: ln["status"] == "failed", "failed (non-zero exit)")
    else:
        status = "error" if err else "ok"
        add("status", lambda ln: ln["status"] == status, status)
    t = call.tool
    if t in ("Bash", "exec_command"):
        cmd = a.get("command") or a.get("cmd")
        code = 1 if err else 0
        cards = ["terminal"] if t == "Bash" else ["terminal", "read", "search"]
        add("card", lambda ln: tag(ln) in cards, " or ".join(cards))
        add("command", lambda ln: cv(ln).get("title") == cmd, f"title {cmd!r}")
        add("exitCode", lambda ln: tag(ln) != "terminal" or rv(ln).get("exitCode") == code, f"exit code {code}")
        if call.polled:
            add("poll merged", lambda ln: rv(ln).get("exitCode") == 0 and "slow check finished" in rv(ln).get("output", ""),
                "the write_stdin poll's exit code and output on the command's card")
        add("read lines", lambda ln: tag(ln) != "read" or (rv(ln).get("lines") or [{}])[0].get("number") == 1,
            "a read card from line 1")
        add("search files", lambda ln: tag(ln) != "search" or bool(rv(ln).get("files")), "a search card with files")
    elif t == "Read":
        off = a.get("offset", 1)
        add("card", lambda ln: tag(ln) == "read", "read")
        add("path", lambda ln: rv(ln).get("path") == a["file_path"], a["file_path"])
        add("offset", lambda ln: rv(ln).get("offset") == off, f"offset {off}")

        def numbered(ln):
            nums = [x.get("number") for x in rv(ln).get("lines", [])]
            n = a.get("limit") or len(nums)
            return nums[:1] == [off] and nums == list(range(off, off + n))
        add("line numbers", numbered, f"lines {off}…, {a.get('limit', 'all')} of them")
        if call.where == "main":
            # A subagent's log has no toolUseResult (no totalLines): its
            # card is read from the numbered text alone. A window inside the
            # file claims no length (the log does not say whether it ends
            # in a newline); a length claimed is at least the lines read.
            add("totalLines", lambda ln: rv(ln).get("totalLines") is None
                or rv(ln)["totalLines"] >= rv(ln)["lines"][-1]["number"],
                "no length, or the file's (toolUseResult.file.totalLines)")
    elif t in ("Edit", "Write"):
        add("card", lambda ln: tag(ln) == "diff", "diff")
        diff = lambda ln: next((d for d in rv(ln).get("diffs", []) if d.get("path") == a["file_path"]), None)
        add("path", lambda ln: diff(ln) is not None, a["file_path"])
        new = a.get("new_string") or a.get("content")
        add("new text", lambda ln: new.strip() in ((diff(ln) or {}).get("newText") or ""), "the new text")
        if t == "Edit":
            add("old text", lambda ln: a["old_string"] in ((diff(ln) or {}).get("oldText") or ""), "the old text")
    elif t in ("WebSearch", "web_search"):
        q = a["query"]
        add("card", lambda ln: tag(ln) == "web", "web")
        add("query", lambda ln: rv(ln).get("kind") == "search" and q in (rv(ln).get("title") or ""), f"search {q!r}")
        if t == "WebSearch":
            add("sources", lambda ln: bool(rv(ln).get("sources")), "the links found")
    elif t == "WebFetch":
        add("url", lambda ln: a["url"] in json.dumps(cv(ln)), a["url"])
        if not err:
            add("card", lambda ln: tag(ln) == "web", "web")
    elif t in ("TaskCreate", "TaskUpdate", "TaskList"):
        add("plan", lambda ln: bool(ln.get("plan")), "drawn as the plan checklist")
        if t == "TaskCreate":
            add("task", lambda ln: any(i["content"] == a["subject"] for i in ln.get("plan") or []),
                f"the task {a['subject']!r} in the plan")
        if t == "TaskUpdate":
            add("status set", lambda ln: any(i["status"] == a["status"] for i in ln.get("plan") or []),
                f"a task {a['status']} in the plan")
    elif t == "update_plan":
        plan = [{"content": p["step"], "status": p["status"]} for p in a["plan"]]
        add("plan", lambda ln: ln.get("plan") == plan, "the plan, step for step")
    elif t == "apply_patch":
        files = patch_files(a)
        if err:
            # A patch that failed keeps its diff, drawn not applied.
            add("card", lambda ln: tag(ln) == "diff", "diff (not applied)")
        else:
            paths = [p for _, p in files]
            add("card", lambda ln: tag(ln) == "diff", "diff")
            add("files", lambda ln: [d.get("path") for d in rv(ln).get("diffs", [])] == paths,
                f"one diff per file: {', '.join(paths)}")
    elif t == "Agent":
        add("card", lambda ln: tag(ln) == "generic", "generic")
        add("description", lambda ln: a["description"] in (cv(ln).get("title") or ""), a["description"])
        add("report", lambda ln: bool(ln.get("resultView")), "the report (or that it runs in the background)")
    else:
        add("card", lambda ln: tag(ln) == "generic", "generic")
    return out


def main():
    if len(sys.argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    deck, agent, scenario_dir, ws, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    groups = expected(agent, scenario_dir, ws)
    listed = {f: inspect(deck, f) for f in files}
    failures, gaps, fixed, rows = [], [], [], []
    # The main session lists its subagents' calls too, nested: each after
    # the call that started it, naming it (`parentCallId`). They are the
    # calls of the subagents' own logs, each under one of the session's
    # own Agent calls; the session's own calls are checked without them.
    main_lines = listed[files[0]]
    nested = [ln for ln in main_lines if ln.get("parentCallId")]
    listed[files[0]] = [ln for ln in main_lines if not ln.get("parentCallId")]
    agents = {ln["callId"] for ln in listed[files[0]] if ln["tool"] in ("Agent", "Task")}
    sub_ids = sorted(ln["callId"] for f in files[1:] for ln in listed[f])
    if sorted(ln["callId"] for ln in nested) != sub_ids:
        failures.append(f"{os.path.basename(files[0])}: the calls nested in it "
                        f"{sorted(ln['callId'] for ln in nested)} are not its subagents' logs' {sub_ids}")
    stray = [ln["callId"] for ln in nested if ln["parentCallId"] not in agents]
    if stray:
        failures.append(f"{os.path.basename(files[0])}: calls nested under no Agent call: {stray}")
    # The main session is the first file; each subagent script is the log
    # whose calls are its calls.
    placed = {"main": files[0]}
    for where, calls in groups[1:]:
        tools = [c.tool for c in calls]
        match = [f for f in files[1:] if f not in placed.values() and [ln["tool"] for ln in listed[f]] == tools]
        if not match:
            failures.append(f"subagent {where}: no log among {files[1:]} lists its calls {tools}")
            continue
        placed[where] = match[0]
    for where, calls in groups:
        if where not in placed:
            continue
        path = placed[where]
        lines = listed[path]
        got = [ln["tool"] for ln in lines]
        want = [wire_tool(c) for c in calls]
        if got != want:
            failures.append(f"{os.path.basename(path)}: deck inspect lists the calls\n  {got}\nthe scenario makes\n  {want}")
            continue
        for call, ln in zip(calls, lines):
            bad = []
            for name, pred, what in checks(call):
                try:
                    ok = bool(pred(ln))
                except (KeyError, TypeError, IndexError, AttributeError):
                    ok = False
                gap = call.gap(name)
                if ok and gap:
                    fixed.append(f"{call.tool} {call.gist()!r}: {name} now passes; drop it from KNOWN_GAPS")
                elif not ok and gap:
                    gaps.append((f"{call.tool} {call.gist()!r} ({ln['callId']})", name, gap))
                elif not ok:
                    bad.append(f"{name} (want {what})")
            mark = "FAIL" if bad else "ok  "
            card = "checklist" if ln.get("plan") else tag(ln) or "-"
            rows.append(f"  {mark} {where:<12} {call.tool:<13} {card:<9} {ln['status']:<6} {call.gist()[:60]}")
            if bad:
                failures.append(f"{call.tool} {call.gist()!r} ({ln['callId']}): " + "; ".join(bad)
                                + f"\n    deck inspect: {json.dumps(ln)[:1500]}")
    n = sum(len(c) for _, c in groups)
    print(f"check_inspect: {agent}: {n} calls scripted, in {len(files)} file(s)"
          + (f"; {len(nested)} nested in the session under its Agent calls" if nested else ""))
    print("\n".join(rows))
    for who in dict.fromkeys(g[0] for g in gaps):
        names = [n for w, n, _ in gaps if w == who]
        why = next(y for w, _, y in gaps if w == who)
        print(f"check_inspect: known gap: {who}: {', '.join(names)}: {why}")
    for f in fixed:
        print(f"check_inspect: {f}")
    if failures:
        for f in failures:
            print(f"check_inspect: FAIL: {f}", file=sys.stderr)
        print(f"check_inspect: {agent}: {len(failures)} failure(s)", file=sys.stderr)
        return 1
    print(f"check_inspect: {agent}: every call listed with its card and key fields")
    return 0


if __name__ == "__main__":
    sys.exit(main())
