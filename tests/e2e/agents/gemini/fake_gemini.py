#!/usr/bin/env python3
"""Fake Gemini API (generateContent / streamGenerateContent) for Gemini CLI, offline.

Stdlib only. Binds 127.0.0.1 (port 0 = any; the chosen port is written to
--port-file). Plays scenario.json:

  {"turns": [{"match": "[gem-1]", "steps": [{"parts": [...Gemini parts...]}, ...]}]}

Which step is played: the server finds the last user text in the request's
`contents` that holds a turn's "match" marker, then counts the model messages
after it; that count is the step index (each scripted step is one model
message: text, functionCall parts, or both). A request that asks for
`responseMimeType: application/json` (the CLI's routing classifier, which
also carries the user's prompt) is never scripted. Past the last step, or for a
request that matches no turn (the CLI's side calls: next-speaker checks,
routing, titles), it answers a short JSON or text: JSON when the request asks
for `responseMimeType: application/json`.

`:streamGenerateContent?alt=sse` answers Server-Sent Events (one `data:` line
per chunk); `:generateContent` answers one JSON object; `:countTokens` answers
a rough count. Every request is appended to --log (JSON lines).
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


def texts(content):
    return [p.get("text", "") for p in content.get("parts", []) if isinstance(p, dict) and "text" in p]


def pick_step(body):
    contents = body.get("contents") or []
    for turn in reversed(SCRIPT["turns"]):
        for i in range(len(contents) - 1, -1, -1):
            c = contents[i]
            if c.get("role") == "user" and any(turn["match"] in t for t in texts(c)):
                k = sum(1 for c2 in contents[i + 1:] if c2.get("role") == "model")
                if k < len(turn["steps"]):
                    return turn["match"], k, turn["steps"][k]["parts"]
                return turn["match"], k, None
    return None, None, None


def side_answer(body):
    cfg = body.get("generationConfig") or {}
    if cfg.get("responseMimeType") == "application/json":
        schema = json.dumps(cfg.get("responseSchema") or cfg.get("responseJsonSchema") or {})
        if "next_speaker" in schema:
            return [{"text": json.dumps({"reasoning": "The model finished its turn.", "next_speaker": "user"})}]
        if "complexity_score" in schema:
            return [{"text": json.dumps({"complexity_reasoning": "Scripted.", "complexity_score": 10})}]
        if "model_choice" in schema:
            return [{"text": json.dumps({"reasoning": "Simple task.", "model_choice": "flash"})}]
        return [{"text": "{}"}]
    return [{"text": "OK."}]


def chunk(parts, final=True):
    c = {"content": {"role": "model", "parts": parts}, "index": 0}
    if final:
        c["finishReason"] = "STOP"
    out = {"candidates": [c], "modelVersion": "gemini-fake"}
    if final:
        out["usageMetadata"] = {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120}
    return out


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
        self.send_json({"models": []} if "/models" in self.path else {}, 200)

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path
        if ":countTokens" in path:
            log_line({"t": time.time(), "path": path, "answer": "countTokens"})
            return self.send_json({"totalTokens": max(1, len(raw) // 4)})
        cfg = body.get("generationConfig") or {}
        if cfg.get("responseMimeType") == "application/json":  # routing, next-speaker: never scripted
            match, k, parts = None, None, None
        else:
            match, k, parts = pick_step(body)
        answer = parts if parts is not None else side_answer(body)
        log_line({"t": time.time(), "path": path, "match": match, "step": k, "body": body, "answer": answer})
        if ":streamGenerateContent" in path:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            text = [p for p in answer if "text" in p]
            calls = [p for p in answer if "text" not in p]
            chunks = []
            for p in text:  # stream text in two pieces, like the real API (a thought stays a thought)
                t = p["text"]
                half = len(t) // 2
                chunks += [[dict(p, text=t[:half])], [dict(p, text=t[half:])]]
            if calls:
                chunks.append(calls)
            if not chunks:
                chunks = [[{"text": ""}]]
            for i, ps in enumerate(chunks):
                ev = "data: " + json.dumps(chunk(ps, i == len(chunks) - 1)) + "\r\n\r\n"
                self.wfile.write(ev.encode())
                self.wfile.flush()
            self.close_connection = True
        else:
            self.send_json(chunk(answer))


def main():
    global ARGS, SCRIPT
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
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
