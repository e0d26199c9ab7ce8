#!/usr/bin/env python3
"""Fake OpenAI Chat Completions API (streamed, with tool_calls), for OpenCode, offline.

Stdlib only. Binds 127.0.0.1 (port 0 = any; the chosen port is written to
--port-file). Serves `POST …/chat/completions` (SSE when the body says
`"stream": true`, else one JSON object) and `GET …/models`. Plays
scenario.json:

  {"turns": [{"match": "[oc-1]", "prompt": "...", "steps": [STEP, ...]}, ...]}
  STEP = {"reasoning": "...",                 (optional: streamed as reasoning_content)
          "text": "...",                      (optional: streamed in two pieces)
          "calls": [{"name": "read", "args": {...}}, ...]}   (optional)

Which step is played: the server finds the last user message of the
request's `messages` whose text holds a turn's "match" marker, then counts
the assistant messages after it; that count is the step index (each scripted
step is one assistant message: text, tool calls, or both; OpenCode sends
each earlier step back as one assistant message, followed by one `tool`
message per call). A request that carries no `tools` (OpenCode's title
generator, which also quotes the prompt) is never scripted: it gets a short
title. Past the last step it answers "Done." with finish_reason stop.

A call's arguments are streamed as JSON text in three pieces (first delta
carries id, type, name and ""), as the real API does; call ids are
`call_<turn>_<step>_<i>` (stable across runs). `${WS}` in a call's
arguments is replaced by --workspace (the absolute path a real model would
send: OpenCode's file tools ask for absolute paths). Every request is
appended to --log (JSON lines: time, path, turn, step, body, answer).
"""
import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
ARGS = None
SCRIPT = None


def log_line(obj):
    with LOCK:
        with open(ARGS.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(obj, ensure_ascii=False) + "\n")


def text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def pick_step(body):
    """(turn number 1.., step index, step or None) or (None, None, None)."""
    msgs = body.get("messages") or []
    for tn in range(len(SCRIPT["turns"]), 0, -1):
        turn = SCRIPT["turns"][tn - 1]
        for i in range(len(msgs) - 1, -1, -1):
            m = msgs[i]
            if m.get("role") == "user" and turn["match"] in text_of(m.get("content")):
                k = sum(1 for m2 in msgs[i + 1:] if m2.get("role") == "assistant")
                return tn, k, turn["steps"][k] if k < len(turn["steps"]) else None
    return None, None, None


def subst(x):
    if isinstance(x, str):
        return x.replace("${WS}", ARGS.workspace or ".")
    if isinstance(x, list):
        return [subst(v) for v in x]
    if isinstance(x, dict):
        return {k: subst(v) for k, v in x.items()}
    return x


def chunk(delta, finish=None, usage=None):
    out = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
           "model": ARGS.model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage is not None:
        out["choices"] = []
        out["usage"] = usage
    return out


USAGE = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}


def halves(s):
    h = len(s) // 2
    return [x for x in (s[:h], s[h:]) if x]


def stream_chunks(step, ids):
    out = [chunk({"role": "assistant", "content": ""})]
    for piece in halves(step.get("reasoning") or ""):
        out.append(chunk({"reasoning_content": piece}))
    for piece in halves(step.get("text") or ""):
        out.append(chunk({"content": piece}))
    calls = step.get("calls") or []
    for i, (c, cid) in enumerate(zip(calls, ids)):
        args = json.dumps(c["args"], ensure_ascii=False)
        third = max(1, len(args) // 3)
        pieces = [args[:third], args[third:2 * third], args[2 * third:]]
        out.append(chunk({"tool_calls": [{"index": i, "id": cid, "type": "function",
                                          "function": {"name": c["name"], "arguments": ""}}]}))
        for p in pieces:
            if p:
                out.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": p}}]}))
    out.append(chunk({}, finish="tool_calls" if calls else "stop"))
    out.append(chunk(None, usage=USAGE))
    return out


def whole(step, ids):
    msg = {"role": "assistant", "content": step.get("text") or None}
    calls = step.get("calls") or []
    if calls:
        msg["tool_calls"] = [{"id": cid, "type": "function",
                              "function": {"name": c["name"], "arguments": json.dumps(c["args"])}}
                             for c, cid in zip(calls, ids)]
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": ARGS.model,
            "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": USAGE}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_json(self, obj, code=200):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        log_line({"t": time.time(), "method": "GET", "path": self.path})
        if self.path.rstrip("/").endswith("/models"):
            return self.send_json({"object": "list", "data": [{"id": ARGS.model, "object": "model", "owned_by": "fake"}]})
        self.send_json({"error": {"message": "not found"}}, 404)

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        if not self.path.rstrip("/").endswith("/chat/completions"):
            log_line({"t": time.time(), "path": self.path, "body": body, "answer": 404})
            return self.send_json({"error": {"message": "not found"}}, 404)
        if body.get("tools"):
            tn, k, step = pick_step(body)
            if tn is not None and step is None:
                step = {"text": "Done."}
        else:  # the title generator (no tools): never scripted
            tn, k, step = None, None, None
        if step is None:
            step = {"text": SCRIPT.get("title", "Scripted session")}
        step = subst(step)
        ids = [f"call_{tn}_{k}_{i}" for i in range(len(step.get("calls") or []))]
        log_line({"t": time.time(), "path": self.path, "turn": tn, "step": k, "body": body, "answer": step, "ids": ids})
        if not body.get("stream"):
            return self.send_json(whole(step, ids))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for c in stream_chunks(step, ids):
            self.wfile.write(("data: " + json.dumps(c, ensure_ascii=False) + "\n\n").encode())
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True


def main():
    global ARGS, SCRIPT
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--model", default="fake-model")
    ap.add_argument("--workspace", help="replaces ${WS} in the scripted calls' arguments")
    ARGS = ap.parse_args()
    with open(ARGS.scenario, encoding="utf-8") as f:
        SCRIPT = json.load(f)
    srv = ThreadingHTTPServer(("127.0.0.1", ARGS.port), Handler)
    if ARGS.port_file:
        with open(ARGS.port_file, "w") as f:
            f.write(str(srv.server_address[1]))
    srv.serve_forever()


if __name__ == "__main__":
    main()
