"""Writing DSH frame logs the way the host sends them (for the generators).

Each line is a `server-request` envelope around a `session/event` frame,
with the view (`{"for": "call"|"result", "view": …}`) beside the event, as
in `demo-sessions/tour.frames.jsonl`. Deterministic: rpc ids and times are
counters, never clocks or uuids. Python 3 standard library only.
"""
import json


class FrameLog:
    def __init__(self, out, session_id="session-bench", t0=1796000000000):
        self.out = out
        self.sid = session_id
        self.seq = 0
        self.t = t0

    def emit(self, kind, data, view=None, dt=7, source_seqs=None):
        self.t += dt
        event = {"type": kind, "seq": self.seq, "time": self.t, "data": data}
        if source_seqs is not None:
            event["sourceEventSeqs"] = source_seqs
            event["surfaceOp"] = "append"
        payload = {"type": "session/event", "sessionId": self.sid, "event": event}
        if view is not None:
            payload["view"] = view
        self.seq += 1
        self.out.write(json.dumps({"type": "server-request", "rpcId": f"r{self.seq}", "method": "session/event",
                                   "payload": payload}, separators=(",", ":"), ensure_ascii=False))
        self.out.write("\n")
        return self.seq - 1

    def turn_open(self, turn, text):
        self.emit("turn/start", {"turn": turn})
        self.emit("user/message", {"content": [{"type": "text", "text": text}], "source": {"kind": "user"},
                                   "role": "user"})

    def step_open(self, turn, step, text):
        self.emit("step/start", {"turn": turn, "step": step})
        self.emit("assistant/message", {"turn": turn, "step": step,
                                        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}})

    def step_close(self, turn, step):
        self.emit("step/end", {"turn": turn, "step": step})

    def turn_close(self, turn):
        self.emit("turn/end", {"turn": turn, "reason": {"kind": "completed"}})

    def call(self, turn, step, call_id, name, arguments, view):
        return self.emit("tool/call", {"turn": turn, "step": step, "callId": call_id, "name": name,
                                       "arguments": json.dumps(arguments)},
                         {"for": "call", "view": view})

    def result(self, turn, step, call_id, call_seq, text, view, meta=None, dt=40):
        data = {"turn": turn, "step": step,
                "message": {"source": {"kind": "tool", "callId": call_id},
                            "content": [{"type": "tool-result", "toolCallId": call_id,
                                         "content": [{"type": "text", "text": text}], "isError": False}],
                            "role": "user"}}
        if meta is not None:
            data["meta"] = meta
        return self.emit("tool/result", data, {"for": "result", "view": view}, dt=dt, source_seqs=[call_seq])
