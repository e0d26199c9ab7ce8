#!/usr/bin/env python3
"""Fake OpenAI Chat Completions API for the kits of agents that speak it (Qwen Code, OpenCode, pi, …), offline.

Stdlib only. Binds 127.0.0.1 (port 0 = any; the chosen port is written to
--port-file). Serves POST /v1/chat/completions (streamed as Server-Sent Events
when the request says `stream: true`, else one JSON object) and GET /v1/models.
Plays scenario.json:

  {"turns": [{"match": "[qw-1]", "prompt": "...", "steps": [STEP, ...]}, ...]}

  STEP = {"reasoning": "text"      (optional: streamed as `reasoning_content` deltas)
          "text": "markdown"       (optional: streamed as `content` deltas)
          "calls": [{"name": "tool", "args": {...}}, ...]}   (optional: streamed `tool_calls` deltas)

Which step is played: the server finds the last `user` message in the
request's `messages` whose text holds a turn's "match" marker, then counts the
`assistant` messages after it; that count is the step index (each scripted
step is one assistant message). The tool calls get ids `call_<turn>_<step>_<i>`
(turn from 1, step and i from 0), so a capture's ids are stable. `--var
NAME=VALUE` replaces `{NAME}` in every string of the scenario (run.sh passes
`WS=<workspace path>`: Qwen Code's file tools want absolute paths).

A scenario's top-level "title", when it has one, answers every request that
offers no tools (a CLI's session-title generator, which quotes the prompt:
OpenCode's). A request that is not a scripted step (no marker; past the last step; a
Optional side answers (`"side": [{"match": "text", "text": "answer"}, ...]`
beside "turns"): a request any of whose messages (of any role, the system
prompt too) holds a side's "match" gets that side's text, before any turn is
looked at — for an agent's own side requests that carry the turn's prompt
(aider's commit message request quotes it). Scenarios without "side" play as
before.

A request that is not a scripted step (no marker; past the last step; a
request with `response_format`, or one that offers no tools while a scripted
step has calls: the CLI's side requests such as session titles or
next-speaker checks) gets a short answer: `{}`-ish JSON when it asks for JSON,
else "OK.". Every request is appended to --log (JSON lines) with the step that
answered it.

Streaming: one chunk with `role`, then the reasoning in two pieces, the text in
two pieces, each tool call as a first delta {index, id, type, function: {name,
arguments: ""}} and its arguments in two pieces, then a chunk with
`finish_reason` (`tool_calls` or `stop`), then (when `stream_options.
include_usage`) a usage chunk with empty `choices`, then `data: [DONE]`.
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
    """(turn index, step index, step) or (turn, k, None) past the end, or (None, None, None)."""
    msgs = body.get("messages") or []
    for ti in range(len(SCRIPT["turns"]) - 1, -1, -1):
        turn = SCRIPT["turns"][ti]
        for i in range(len(msgs) - 1, -1, -1):
            m = msgs[i]
            if m.get("role") == "user" and turn["match"] in text_of(m.get("content")):
                k = sum(1 for m2 in msgs[i + 1:] if m2.get("role") == "assistant")
                if k < len(turn["steps"]):
                    return ti, k, turn["steps"][k]
                return ti, k, None
    return None, None, None


def pick_side(body):
    """The scenario's side answer whose "match" a message of the request holds, or None."""
    texts = [text_of(m.get("content")) for m in body.get("messages") or []]
    for i, side in enumerate(SCRIPT.get("side") or []):
        if any(side["match"] in t for t in texts):
            return i, {"text": side["text"]}
    return None


def side_answer(body):
    rf = body.get("response_format") or {}
    if rf.get("type") in ("json_object", "json_schema"):
        schema = json.dumps(rf.get("json_schema") or {})
        if "next_speaker" in schema:
            return {"text": json.dumps({"reasoning": "The model finished its turn.", "next_speaker": "user"})}
        return {"text": "{}"}
    return {"text": "OK."}


def halves(s):
    h = len(s) // 2
    return [p for p in (s[:h], s[h:]) if p]


def usage():
    return {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}


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
            log_line({"t": time.time(), "path": self.path, "answer": "404"})
            return self.send_json({"error": {"message": "not found"}}, 404)
        side = pick_side(body)
        ti, k, step = (None, None, None) if body.get("response_format") or side else pick_step(body)
        untooled = not body.get("tools")
        if step is not None and untooled and (step.get("calls") or "title" in SCRIPT):
            ti, k, step = None, None, None  # a side request that happens to carry the prompt
        if side:
            answer = side[1]
        elif step is None and untooled and "title" in SCRIPT:
            answer = {"text": SCRIPT["title"]}  # the CLI's title generator
        else:
            answer = step if step is not None else side_answer(body)
        calls = []
        for i, c in enumerate(answer.get("calls") or []):
            calls.append({"id": f"call_{ti + 1}_{k}_{i}", "type": "function",
                          "function": {"name": c["name"], "arguments": json.dumps(c.get("args") or {})}})
        log_line({"t": time.time(), "path": self.path, "turn": None if ti is None else ti + 1, "step": k,
                  "scripted": step is not None, "side": side[0] if side else None, "body": body, "answer": answer})
        cid = f"chatcmpl-{int(time.time() * 1000)}"
        created = int(time.time())
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            msg = {"role": "assistant", "content": answer.get("text") or None}
            if answer.get("reasoning"):
                msg["reasoning_content"] = answer["reasoning"]
            if calls:
                msg["tool_calls"] = calls
            return self.send_json({"id": cid, "object": "chat.completion", "created": created, "model": ARGS.model,
                                   "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
                                   "usage": usage()})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()

        def ev(delta, finish_reason=None, **extra):
            obj = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": ARGS.model,
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
            obj.update(extra)
            self.wfile.write(("data: " + json.dumps(obj) + "\n\n").encode())
            self.wfile.flush()

        ev({"role": "assistant", "content": ""})
        for piece in halves(answer.get("reasoning") or ""):
            ev({"reasoning_content": piece})
        for piece in halves(answer.get("text") or ""):
            ev({"content": piece})
        for i, c in enumerate(calls):
            ev({"tool_calls": [{"index": i, "id": c["id"], "type": "function",
                                "function": {"name": c["function"]["name"], "arguments": ""}}]})
            for piece in halves(c["function"]["arguments"]):
                ev({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
        ev({}, finish)
        if (body.get("stream_options") or {}).get("include_usage"):
            self.wfile.write(("data: " + json.dumps({"id": cid, "object": "chat.completion.chunk", "created": created,
                                                     "model": ARGS.model, "choices": [], "usage": usage()}) + "\n\n").encode())
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
    ap.add_argument("--model", default="fake-chat", help="the model id it answers as and lists")
    ap.add_argument("--var", action="append", default=[], metavar="NAME=VALUE")
    ARGS = ap.parse_args()
    with open(ARGS.scenario, encoding="utf-8") as f:
        SCRIPT = json.load(f)
    subs = [("{" + v.split("=", 1)[0] + "}", v.split("=", 1)[1]) for v in ARGS.var]

    def fill(x):
        if isinstance(x, str):
            for a, b in subs:
                x = x.replace(a, b)
            return x
        if isinstance(x, list):
            return [fill(y) for y in x]
        if isinstance(x, dict):
            return {k: fill(v) for k, v in x.items()}
        return x
    SCRIPT = fill(SCRIPT)
    srv = ThreadingHTTPServer(("127.0.0.1", ARGS.port), Handler)
    if ARGS.port_file:
        with open(ARGS.port_file, "w") as f:
            f.write(str(srv.server_address[1]))
    srv.serve_forever()


if __name__ == "__main__":
    main()
