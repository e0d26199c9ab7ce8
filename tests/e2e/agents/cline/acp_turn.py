#!/usr/bin/env python3
"""One resumed turn of a Cline session, through the CLI's Agent Client Protocol mode.

usage: acp_turn.py LOG SESSION_ID CWD PROMPT -- CLINE_COMMAND...

`cline --id ID` resumes a session only in the interactive terminal UI (3.0.65
turns `--id` into the TUI and refuses `--json` with it); its ACP mode
(`cline --acp`) resumes one headless: `session/load {sessionId, cwd}` (the
conversation replayed as session/update notifications, the session's files
under ~/.cline/data/sessions/<id>/ appended to), then `session/prompt`. (A session loaded on a fresh connection runs on the
provider's default model from the CLI's catalog, `gpt-4o` for OpenAI
Compatible, not the one `cline auth` set: `$CLINE_MODEL` and
`session/set_model` are honoured only for a model of that catalog.) This
speaks JSON-RPC 2.0 over the command's stdin/stdout (one message a line),
answers a `session/request_permission` with its first allow option (the
command runs with `--auto-approve true`, so none is expected), and logs every
message to LOG (JSON lines {dir, msg}). Exits 0 when the prompt's turn ends
with stopReason `end_turn`.
"""
import json
import subprocess
import sys
import threading


def main():
    sep = sys.argv.index("--")
    log_path, sid, cwd, prompt = sys.argv[1:sep]
    cmd = sys.argv[sep + 1:]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    log = open(log_path, "a", encoding="utf-8")
    pending = {}
    lock = threading.Lock()
    next_id = [0]

    def send(msg):
        with lock:
            log.write(json.dumps({"dir": "out", "msg": msg}) + "\n")
            log.flush()
            proc.stdin.write(json.dumps(msg) + "\n")
            proc.stdin.flush()

    def request(method, params):
        next_id[0] += 1
        ev = threading.Event()
        pending[next_id[0]] = [ev, None]
        send({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params})
        return next_id[0], ev

    def reader():
        for line in proc.stdout:
            line = line.strip()
            if not line:
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            with lock:
                log.write(json.dumps({"dir": "in", "msg": msg}) + "\n")
                log.flush()
            if "method" in msg and "id" in msg:
                if msg["method"] == "session/request_permission":
                    opts = msg["params"].get("options") or []
                    allow = next((o for o in opts if str(o.get("kind", "")).startswith("allow")), opts[0] if opts else None)
                    result = {"outcome": {"outcome": "selected", "optionId": allow["optionId"]}} if allow \
                        else {"outcome": {"outcome": "cancelled"}}
                    send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                else:
                    send({"jsonrpc": "2.0", "id": msg["id"],
                          "error": {"code": -32601, "message": f"not offered: {msg['method']}"}})
            elif "id" in msg and msg["id"] in pending:
                pending[msg["id"]][1] = msg
                pending[msg["id"]][0].set()
        for p in pending.values():
            p[0].set()

    threading.Thread(target=reader, daemon=True).start()

    def call(method, params, timeout=120):
        i, ev = request(method, params)
        ev.wait(timeout)
        res = pending[i][1]
        if res is None or "error" in res:
            raise SystemExit(f"acp_turn: {method} failed: {res}")
        return res["result"]

    call("initialize", {"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": False, "writeTextFile": False},
                                                                      "terminal": False}})
    call("session/load", {"sessionId": sid, "cwd": cwd, "mcpServers": []})
    res = call("session/prompt", {"sessionId": sid, "prompt": [{"type": "text", "text": prompt}]}, timeout=300)
    proc.stdin.close()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.terminate()
        proc.wait(5)
    print(json.dumps(res))
    return 0 if res.get("stopReason") == "end_turn" else 1


if __name__ == "__main__":
    sys.exit(main())
