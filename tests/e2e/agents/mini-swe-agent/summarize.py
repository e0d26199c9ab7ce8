#!/usr/bin/env python3
"""Every action of a mini-swe-agent trajectory (or a SWE-agent `.traj`), computed from the raw file.

usage: summarize.py DIR        (writes DIR/SUMMARY.json and DIR/SUMMARY.md)
       summarize.py --print FILE...   (the actions as JSON on stdout)

Reads every `*.traj.json` and `*.traj` in DIR. Two shapes, one family:

mini-swe-agent 2.x (`trajectory_format: "mini-swe-agent-1.1"`): one JSON
document {info, messages, trajectory_format}, rewritten whole after every
step (DefaultAgent.save). `messages` are the chat the model saw, each with
an `extra`:

  system     the system prompt
  user       the task (the instance template, rendered: the first user
             message); a user message whose extra.interrupt_type is
             UserRejection (an action refused at the confirm prompt),
             UserNewTask (a task typed when the agent submitted),
             UserInterruption (Ctrl-C) or FormatError (the model's answer had
             no usable tool call); a human-mode command (extra.actions); a
             text-based model's or a human command's result (extra.returncode)
  assistant  the model's answer: content, tool_calls, extra.actions
             [{command, tool_call_id}], extra.response (the raw API
             response, its usage), extra.cost, extra.timestamp
  tool       one action's result: tool_call_id, content (the observation
             template), extra {raw_output, returncode, exception_info,
             timestamp}
  exit       the end: extra {exit_status, submission}

An action that did not run still gets a result: returncode -1 and
exception_info "action was not executed" (format_toolcall_observation_messages
pads the outputs). The command that submits (`echo
COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`) is one of them: it ran, exit code 0
(LocalEnvironment._check_finished raises Submitted only then), but the
exception stops the batch before its output is kept. So a not-executed
result is `rejected` when a UserRejection follows the batch, `submitted`
(the first not-executed action of the batch) when an `exit` with
exit_status Submitted or a UserNewTask follows, `interrupted` after a
UserInterruption, else `not-executed`.

SWE-agent (`.traj`): {trajectory, history, info, replay_config,
environment}; `trajectory` is one step per action {action, observation,
response, thought, execution_time, state, query, extra_info}, with no exit
code. Its rows have tool "action" and status "unknown".

`expect` is what deck must show for the action: its status (ok, failed,
rejected, cancelled, error, unknown) and exit code (None: not known).
"""
import glob
import json
import os
import sys

NOT_EXECUTED = "action was not executed"


def analyse_mini(doc):
    msgs = doc.get("messages") or []
    rows, turn, pending = [], 0, []
    for i, m in enumerate(msgs):
        role, extra = m.get("role"), m.get("extra") or {}
        it = extra.get("interrupt_type")
        if role == "user" and (turn == 0 or it == "UserNewTask") and "returncode" not in extra:
            turn += 1
        if role in ("assistant", "user") and extra.get("actions"):
            batch = []
            for j, a in enumerate(extra["actions"]):
                cid = a.get("tool_call_id") or f"m{i}.{j}"
                row = {"turn": turn, "callId": cid, "tool": "bash", "command": a.get("command"),
                       "by": "model" if role == "assistant" else "user", "message": i}
                rows.append(row)
                batch.append(row)
            pending = [batch]  # what follows this batch (before the next) says how it ended
            continue
        if role == "tool" or (role == "user" and "returncode" in extra):
            row = None
            if role == "tool":
                row = next((r for r in rows if r["callId"] == m.get("tool_call_id") and "resultMessage" not in r), None)
            else:
                row = next((r for b in pending for r in b if "resultMessage" not in r and not r["callId"].startswith("call")), None)
            if row is None:
                continue
            row["resultMessage"] = i
            row["returncode"] = extra.get("returncode")
            row["exceptionInfo"] = extra.get("exception_info") or ""
            continue
        if role == "user" and it:
            for b in pending:
                for r in b:
                    r.setdefault("followedBy", it)
            pending = []
        if role == "exit":
            for b in pending:
                for r in b:
                    r.setdefault("followedBy", "exit:" + str(extra.get("exit_status")))
            pending = []
    for b in pending:
        for r in b:
            r.setdefault("followedBy", None)
    # What deck must show.
    seen_batches = {}
    for r in rows:
        first_not_run = seen_batches.setdefault(r["message"], None)
        rc, exc = r.get("returncode"), r.get("exceptionInfo", "")
        if "resultMessage" not in r:
            r["expect"] = {"status": "pending", "exitCode": None}
        elif exc == NOT_EXECUTED:
            after = r.get("followedBy") or ""
            if after == "UserRejection":
                r["expect"] = {"status": "rejected", "exitCode": None, "why": "refused at the confirm prompt"}
            elif after == "UserInterruption":
                r["expect"] = {"status": "cancelled", "exitCode": None, "why": "interrupted"}
            elif after in ("UserNewTask", "exit:Submitted") and first_not_run is None:
                seen_batches[r["message"]] = r["callId"]
                r["expect"] = {"status": "ok", "exitCode": None,
                               "why": "the submitting command: ran with exit 0, its result says not executed"}
            else:
                r["expect"] = {"status": "error", "exitCode": None, "why": "not executed"}
            if after not in ("UserRejection", "UserInterruption"):
                seen_batches[r["message"]] = seen_batches[r["message"]] or r["callId"]
        elif exc:
            r["expect"] = {"status": "error", "exitCode": None, "why": exc[:120]}
        else:
            r["expect"] = {"status": "ok" if rc == 0 else "failed", "exitCode": rc}
    info = doc.get("info") or {}
    roles = {}
    for m in msgs:
        k = m.get("role") + (f"/{(m.get('extra') or {}).get('interrupt_type')}" if (m.get("extra") or {}).get("interrupt_type") else "")
        roles[k] = roles.get(k, 0) + 1
    return {"format": f"{doc.get('trajectory_format')}: one JSON document {{info, messages, trajectory_format}}",
            "calls": rows,
            "oddities": {"roles": roles, "exit_status": info.get("exit_status"), "mini_version": info.get("mini_version"),
                         "model": ((info.get("config") or {}).get("model") or {}).get("model_name"),
                         "agent_type": (info.get("config") or {}).get("agent_type"),
                         "model_stats": info.get("model_stats")}}


def analyse_swe(doc):
    rows = []
    for n, s in enumerate(doc.get("trajectory") or [], 1):
        rows.append({"turn": 1, "callId": f"step-{n}", "tool": "action", "command": s.get("action"),
                     "executionTime": s.get("execution_time"),
                     "expect": {"status": "unknown", "exitCode": None, "why": "a SWE-agent step has no exit code"}})
    info = doc.get("info") or {}
    return {"format": "SWE-agent .traj: one JSON document {trajectory, history, info, replay_config, environment}",
            "calls": rows,
            "oddities": {"history": len(doc.get("history") or []), "exit_status": info.get("exit_status"),
                         "swe_agent_version": info.get("swe_agent_version"), "model_stats": info.get("model_stats"),
                         "submission_chars": len(info.get("submission") or "")}}


def analyse(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    res = analyse_swe(doc) if "trajectory" in doc else analyse_mini(doc)
    res["file"] = os.path.basename(path)
    return res


def md(results):
    out = ["# mini-swe-agent trajectories: every action", "",
           "Computed by `tests/e2e/agents/mini-swe-agent/summarize.py` from the raw files beside this file "
           "(its docstring says how a status is read). *msg*: the index in `messages` of the message holding "
           "the action, and of its result. NOTES.md (hand-written) explains the oddities.", ""]
    for res in results:
        out += [f"## {res['file']}", "", f"Format: {res['format']}.", "",
                "| turn | call id | tool | command | returncode | exception_info | followed by | deck: status | deck: exit code | msg |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        for r in res["calls"]:
            cmd = (r.get("command") or "").replace("\n", "\\n").replace("|", "\\|")[:70]
            e = r["expect"]
            code = "" if e["exitCode"] is None else str(e["exitCode"])
            msg = f"{r.get('message', '')} / {r.get('resultMessage', '')}" if "message" in r else ""
            out.append(f"| {r['turn']} | `{r['callId']}` | {r['tool']} | `{cmd}` | {r.get('returncode', '')} "
                       f"| {r.get('exceptionInfo', '')} | {r.get('followedBy') or ''} | {e['status']} | {code} | {msg} |")
        st = {}
        for r in res["calls"]:
            st[r["expect"]["status"]] = st.get(r["expect"]["status"], 0) + 1
        out += ["", f"{len(res['calls'])} actions; deck statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(st.items())), ""]
        for r in res["calls"]:
            if r["expect"].get("why"):
                out.append(f"* `{r['callId']}` {r['expect']['status']}: {r['expect']['why']}")
        out += ["", "### What the file holds", ""]
        for k, v in res["oddities"].items():
            out.append(f"* {k}: `{json.dumps(v, ensure_ascii=False)}`")
        out.append("")
    return "\n".join(out)


def main():
    if sys.argv[1:2] == ["--print"]:
        print(json.dumps([analyse(p) for p in sys.argv[2:]], indent=2, ensure_ascii=False))
        return
    d = sys.argv[1]
    files = sorted(glob.glob(os.path.join(d, "*.traj.json")) + glob.glob(os.path.join(d, "*.traj")))
    if not files:
        raise SystemExit(f"summarize: no *.traj.json or *.traj in {d}")
    results = [analyse(p) for p in files]
    with open(os.path.join(d, "SUMMARY.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(d, "SUMMARY.md"), "w", encoding="utf-8") as f:
        f.write(md(results))


if __name__ == "__main__":
    main()
