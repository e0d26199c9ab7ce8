#!/usr/bin/env python3
"""What `deck acp` recorded and drew while it drove the real ACP adapter (drive.py).

usage: check.py DECK SCENARIO_DIR WORK

WORK is drive.py's: `rec.jsonl` (deck's recording), `ws/` (the workspace
the agent worked in, made from SCENARIO_DIR/workspace), `seen.txt` (every
line deck's screen showed while the agent ran) and `decisions.json` (the
keys pressed). Checked:

1. The recording: every tool call (by `toolCallId`) reached a final status
   (`completed` / `failed`), but the ones a Ctrl-c cancelled: the adapter
   sends nothing more for them (the command that was running stays
   `in_progress`, as in the capture's SUMMARY.md; the call whose approval
   was focused stays `pending`, its request answered `cancelled` by deck)
   and their turns' stopReason is `cancelled`. The calls are the
   scenario's, in order (TodoWrite is a plan, not a call).
2. `deck inspect` lists each call once, in order, with the card its ACP
   kind calls for (execute → terminal, read → read, search → search,
   edit → diff, fetch → web; a failed call → generic) and the status the
   recording gives it: ok; failed for a non-zero exit; error for a failed
   call; rejected for the call whose permission `n` rejected; interrupted
   for the cancelled ones. Approvals are listed as answered (y, n, Ctrl-c).
3. The rejected call did not run: no terminal was created for it, and
   what it would have removed (`src/__pycache__/keep.txt`) is there; nor
   did the call whose approval was cancelled.
4. The files on disk are the workspace's with the diff cards applied, in
   order (a new file's card is the whole file; an edit's old text is found
   once and replaced by its new text), and no other file changed (but the
   bytecode the tests the agent ran wrote).
5. deck's screen showed every call's card, by its title (paths relative to
   the workspace), with the approval decision on the same line, and the
   cancelled calls as interrupted.
"""
import json
import os
import subprocess
import sys

CARDS = {"execute": "terminal", "read": "read", "search": "search", "edit": "diff", "fetch": "web"}


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def files_under(root):
    out = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for n in files:
            p = os.path.join(d, n)
            with open(p, encoding="utf-8") as f:
                out[os.path.relpath(p, root)] = f.read()
    return out


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    deck, scen_dir, work = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    ws = os.path.join(work, "ws")
    rec = load(os.path.join(work, "rec.jsonl"))
    with open(os.path.join(scen_dir, "scenario.json"), encoding="utf-8") as f:
        scen = json.load(f)
    with open(os.path.join(work, "decisions.json"), encoding="utf-8") as f:
        decisions = json.load(f)["decisions"]
    fails = []
    msgs = [(l["dir"], l["msg"]) for l in rec if "msg" in l]

    def answer(rpc_id, by):
        return next((m for d, m in msgs if d == by and "method" not in m and m.get("id") == rpc_id), None)

    # 1. The recording: each call's statuses, its terminals and their exits.
    calls, order = {}, []
    for d, m in msgs:
        u = (m.get("params") or {}).get("update") or {}
        if m.get("method") != "session/update" or u.get("sessionUpdate") not in ("tool_call", "tool_call_update"):
            continue
        cid = u["toolCallId"]
        if cid not in calls:
            calls[cid] = {"statuses": [], "kind": None, "terminals": [], "tool": None}
            order.append(cid)
        c = calls[cid]
        if u.get("status"):
            c["statuses"].append(u["status"])
        c["kind"] = u.get("kind") or c["kind"]
        c["tool"] = ((u.get("_meta") or {}).get("claudeCode") or {}).get("toolName") or c["tool"]
        for item in u.get("content") or []:
            if item.get("type") == "terminal" and item["terminalId"] not in c["terminals"]:
                c["terminals"].append(item["terminalId"])
    created = {}
    for d, m in msgs:
        if d == "agent->client" and m.get("method") == "terminal/create":
            a = answer(m["id"], "client->agent")
            if a and "result" in a:
                created[a["result"]["terminalId"]] = m["params"]["command"]
    exits = {}
    for d, m in msgs:
        if d == "agent->client" and m.get("method") == "terminal/wait_for_exit":
            a = answer(m["id"], "client->agent")
            if a and "result" in a:
                exits[m["params"]["terminalId"]] = a["result"].get("exitCode")
    perms = {}
    for d, m in msgs:
        if d == "agent->client" and m.get("method") == "session/request_permission":
            a = answer(m["id"], "client->agent") or {}
            outcome = (a.get("result") or {}).get("outcome") or {}
            kinds = {o["optionId"]: o["kind"] for o in m["params"]["options"]}
            perms[m["params"]["toolCall"]["toolCallId"]] = kinds.get(outcome.get("optionId")) or outcome.get("outcome")
    prompts = [m for d, m in msgs if d == "client->agent" and m.get("method") == "session/prompt"]
    stops = [((answer(p["id"], "agent->client") or {}).get("result") or {}).get("stopReason") for p in prompts]
    turns = [t for t in scen["turns"] if not t.get("subagent")]
    if [p["params"]["prompt"][0]["text"] for p in prompts] != [t["prompt"] for t in turns]:
        fails.append("deck did not send the scenario's prompts, in order")
    cancel_cmds = [t["cancel_on_command"] for t in turns if t.get("cancel_on_command")]
    running = {cid for cid, c in calls.items()
               if any(w in created.get(t, "") for t in c["terminals"] for w in cancel_cmds)}
    if len(running) != len(cancel_cmds):
        fails.append(f"the cancelled commands {cancel_cmds} are the calls {sorted(running)}")
    # Calls whose approval Ctrl-c cancelled (a `cancel` rule), answered so by deck.
    asking = {cid for cid, k in perms.items() if k == "cancelled"}
    cancel_rules = [t for t in turns if any(r.get("kind") == "cancel" for r in t.get("permissions") or [])]
    if len(asking) != len(cancel_rules):
        fails.append(f"{len(cancel_rules)} approval(s) to cancel, deck answered {sorted(asking)} cancelled")
    cancelled = running | asking
    for t, stop in zip(turns, stops):
        want = "cancelled" if t.get("cancel_on_command") or t in cancel_rules else "end_turn"
        if stop != want:
            fails.append(f"turn {t['match']}: stopReason {stop}, not {want}")
    for cid in order:
        c = calls[cid]
        last = c["statuses"][-1] if c["statuses"] else None
        if cid in cancelled:
            left = "in_progress" if cid in running else "pending"
            if last != left:
                fails.append(f"{cid} (cancelled): last status {last}, not {left} as the adapter leaves it")
        elif last not in ("completed", "failed"):
            fails.append(f"{cid} ({c['tool']}): no final status, last {last}: {c['statuses']}")
    want_tools = [b["name"] for t in turns for s in t["steps"] for b in s["content"]
                  if b["type"] == "tool_use" and b["name"] != "TodoWrite"]
    got_tools = [calls[c]["tool"] for c in order]
    if got_tools != want_tools:
        fails.append(f"the recording's calls {got_tools}\n  are not the scenario's {want_tools}")

    # 2. deck inspect.
    r = subprocess.run([deck, "inspect", os.path.join(work, "rec.jsonl")], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        fails.append(f"deck inspect exited {r.returncode}: {r.stderr.strip()}")
    lines = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    if [l["callId"] for l in lines] != order:
        fails.append(f"deck inspect lists {[l['callId'] for l in lines]}, the recording has {order}")
    rows, by_id = [], {l["callId"]: l for l in lines}
    rejected = [cid for cid, k in perms.items() if k and k.startswith("reject")]
    for cid in order:
        c, ln = calls[cid], by_id.get(cid)
        if ln is None:
            continue
        last = c["statuses"][-1] if c["statuses"] else None
        card = CARDS.get(c["kind"], "generic")
        code = next((exits[t] for t in c["terminals"] if t in exits), 0)
        if cid in cancelled:
            status = "interrupted"
        elif cid in rejected:
            status, card = "rejected", "generic"
        elif last == "failed":
            status, card = "error", "generic"
        else:
            status = "failed" if code not in (0, None) else "ok"
        got_card = (ln.get("resultView") or {}).get("card") or (ln.get("callView") or {}).get("card")
        bad = []
        if got_card != card:
            bad.append(f"card {got_card}, not {card}")
        if ln["status"] != status:
            bad.append(f"status {ln['status']}, not {status}")
        if ln.get("viewSource") != "presenter:acp":
            bad.append(f"viewSource {ln.get('viewSource')}")
        if cid in perms:
            want = ("rejected once" if cid in rejected else "cancelled" if cid in asking
                    else "allowed once")
            if (ln.get("approval") or {}).get("outcome") != want:
                bad.append(f"approval {ln.get('approval')}, not {want}")
        title = (ln.get("resultView") or {}).get("title") or (ln.get("callView") or {}).get("title") or ""
        rows.append((cid, title, ln, cid in perms))
        print(f"  {'FAIL' if bad else 'ok  '} {c['tool']:<21} {c['kind']:<8} {got_card or '-':<9} "
              f"{ln['status']:<11} {title.replace(ws + '/', '')[:60]}")
        if bad:
            fails.append(f"deck inspect, {c['tool']} {title[:60]!r} ({cid}): " + "; ".join(bad))
    keys = [d["key"] for d in decisions if "permission" in d]
    if (keys.count("n"), keys.count("C-c"), keys.count("y")) != (
            len(rejected), len(asking), len(perms) - len(rejected) - len(asking)):
        fails.append(f"keys pressed {keys}, decisions recorded {perms}")

    # 3. The rejected call did not run.
    if len(rejected) != 1:
        fails.append(f"one call rejected wanted, got {rejected}")
    for cid in rejected:
        cmd = ((by_id.get(cid) or {}).get("callView") or {}).get("title", "")
        if any(cmd and cmd in v for v in created.values()):
            fails.append(f"the rejected `{cmd}` was run")
    for cid in asking:
        if calls[cid]["terminals"]:
            fails.append(f"{cid}: its approval was cancelled, yet a terminal ran for it")
    if not os.path.exists(os.path.join(ws, "src", "__pycache__", "keep.txt")):
        fails.append("src/__pycache__/keep.txt is gone: the rejected `rm -rf` ran")

    # 4. The files on disk are the diff cards applied.
    before = files_under(os.path.join(scen_dir, "workspace"))
    expect = dict(before)
    diffed = []
    for ln in lines:
        for d in (ln.get("resultView") or {}).get("diffs") or []:
            rel = os.path.relpath(d["path"], ws)
            diffed.append(rel)
            if d.get("oldText") is None:
                expect[rel] = d["newText"]
            elif expect.get(rel, "").count(d["oldText"]) != 1:
                fails.append(f"diff card of {rel}: its old text is not found once in the file")
            else:
                expect[rel] = expect[rel].replace(d["oldText"], d["newText"])
    after = files_under(ws)
    for rel in sorted(set(expect) | set(after)):
        if expect.get(rel) != after.get(rel):
            fails.append(f"{rel} on disk is not what the diff cards show"
                         + ("" if rel in diffed else " (no diff card names it)"))
    changed = sorted(r for r in after if before.get(r) != after[r])
    print(f"check: files changed on disk {changed}, each as its diff card shows" if not any(
        "diff card" in f for f in fails) else "check: files on disk differ from the diff cards")

    # 5. The screen.
    with open(os.path.join(work, "seen.txt"), encoding="utf-8") as f:
        seen = f.read().split("\n")
    for cid, title, ln, asked in rows:
        key = title.replace(ws + "/", "").replace(ws, ".")[:40]
        hits = [s for s in seen if key in s]
        if not hits:
            fails.append(f"deck's screen never showed the card of {title[:60]!r}")
            continue
        if asked:
            word = ("rejected once" if cid in rejected else "⚑ cancelled" if cid in asking
                    else "allowed once")
            if not any(word in s for s in hits):
                fails.append(f"deck's screen never showed {title[:40]!r} {word}")
        if cid in cancelled and not any("interrupted" in s for s in hits):
            fails.append(f"deck's screen never showed {title[:40]!r} interrupted")

    if fails:
        for f in fails:
            print(f"check: FAIL: {f}", file=sys.stderr)
        return 1
    print(f"check: {len(order)} calls, each at its final status and drawn with its card; "
          f"{len(perms)} permissions ({len(rejected)} rejected, not run; {len(asking)} cancelled); "
          f"turns {stops}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
