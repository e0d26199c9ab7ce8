#!/usr/bin/env python3
"""SUMMARY.json + SUMMARY.md of an aider chat history, computed from the raw file.

usage: summarize.py DIR

DIR holds .aider.chat.history.md (the fixture's form). The file is markdown,
appended by each run of aider (aider/io.py): a run starts with a blank line
and `# aider chat started at YYYY-MM-DD HH:MM:SS`; aider's own messages are
`> ` lines (blockquotes, two trailing spaces); what the user typed is
`#### ` lines (a multi-line input one `#### ` line each); everything else is
the model's answer, as it came. There are no tool calls: what deck draws as
calls is read from the text, and so is listed here —

  edit   a SEARCH/REPLACE block of an answer (`<<<<<<< SEARCH`, `=======`,
         `>>>>>>> REPLACE`; its file named on a line before it): callId
         `L<line of its <<<<<<< SEARCH>`; status `ok` when a later `> Applied
         edit to <file>` line of the same exchange says so, `error` when a
         `> ` line says the block failed to match or did not conform,
         else `unknown`;
  run    `#### /run CMD` (or `#### !CMD`): callId `L<line>`; the output is
         not in the file, nor the exit code: status `unknown`; `> Added N
         lines of output to the chat.` gives outputLines;
  test   `#### /test CMD`: as run, but aider adds a test's output to the
         chat only when it exits non-zero, so `> Added N lines …` means it
         failed (status `error`, exit code still not said), else `unknown`.
"""
import json
import os
import re
import sys

SEARCH = re.compile(r"^<{5,9} SEARCH>?\s*$")
DIVIDE = re.compile(r"^={5,9}\s*$")
REPLACE = re.compile(r"^>{5,9} REPLACE\s*$")
FAILED = ("failed to exactly match", "did not conform", "SearchReplaceNoExactMatch")


def filename(before):
    """The file a block edits: the last of the (up to 3) lines before it that is not blank or a fence."""
    for line in reversed(before[-3:]):
        s = line.strip().strip("`*#:").strip()
        if s and not line.strip().startswith("```"):
            return s
    return None


def parse(lines):
    runs, prompts, calls, answers = [], [], [], 0
    run = None
    exchange = []  # calls since the last prompt (their results come in `> ` lines after them)
    i = 0
    answer = []  # the answer's lines (number, text) so far
    last_path = None

    def flush_answer():
        nonlocal answer, answers, last_path
        if not any(t.strip() for _, t in answer):
            answer = []
            return
        answers += 1
        k = 0
        while k < len(answer):
            n, t = answer[k]
            if SEARCH.match(t):
                before = [x for _, x in answer[max(0, k - 3):k]]
                path = filename(before) or last_path
                last_path = path
                j = k + 1
                old, new, mode = [], [], "old"
                while j < len(answer) and not REPLACE.match(answer[j][1]):
                    if mode == "old" and DIVIDE.match(answer[j][1]):
                        mode = "new"
                    elif mode == "old":
                        old.append(answer[j][1])
                    else:
                        new.append(answer[j][1])
                    j += 1
                call = {"callId": f"L{n}", "run": len(runs), "tool": "edit", "line": n, "path": path,
                        "searchLines": len(old), "replaceLines": len(new), "newFile": not any(x.strip() for x in old),
                        "closed": j < len(answer), "status": "unknown", "statusFrom": None}
                calls.append(call)
                exchange.append(call)
                k = j + 1
                continue
            k += 1
        answer = []

    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\n")
        if line.startswith("# aider chat started at "):
            flush_answer()
            run = {"line": n, "started": line[len("# aider chat started at "):].strip(), "restored": False,
                   "version": None, "model": None, "prompts": 0}
            runs.append(run)
            exchange = []
            continue
        if run is None:
            continue
        if line.startswith("> "):
            flush_answer()
            text = line[2:].rstrip()
            if text.startswith("Aider v"):
                run["version"] = text[len("Aider v"):]
            elif text.startswith("Model: "):
                run["model"] = text[len("Model: "):]
            elif text == "Restored previous conversation history.":
                run["restored"] = True
            m = re.match(r"Applied edit to (.+)$", text)
            if m:
                for c in exchange:
                    if c["tool"] == "edit" and c["path"] == m.group(1) and c["status"] == "unknown":
                        c["status"], c["statusFrom"] = "ok", f"line {n}: {text}"
                        break
            if any(f in text for f in FAILED):
                for c in exchange:
                    if c["tool"] == "edit" and c["status"] == "unknown":
                        c["status"], c["statusFrom"] = "error", f"line {n}: {text}"
            m = re.match(r"Added (\d+) lines? of output to the chat\.$", text)
            if m:
                for c in exchange:
                    if c["tool"] in ("run", "test") and "outputLines" not in c:
                        c["outputLines"] = int(m.group(1))
                        if c["tool"] == "test":
                            c["status"], c["statusFrom"] = "error", f"line {n}: {text} (a /test's output is added only when it exits non-zero)"
            continue
        if line.startswith("#### "):
            flush_answer()
            text = line[5:].rstrip()
            if prompts and prompts[-1]["line"] + len(prompts[-1]["text"].split("\n")) == n and prompts[-1]["run"] == len(runs):
                prompts[-1]["text"] += "\n" + text  # a multi-line input
                continue
            prompts.append({"line": n, "run": len(runs), "text": text})
            run["prompts"] += 1
            exchange = []
            cmd = None
            if text.startswith("/run ") or text.startswith("/test "):
                tool, cmd = text[1:].split(" ", 1)
            elif text.startswith("!"):
                tool, cmd = "run", text[1:]
            if cmd is not None:
                call = {"callId": f"L{n}", "run": len(runs), "tool": tool, "line": n, "command": cmd,
                        "status": "unknown", "statusFrom": None, "exitCode": None, "outputLogged": False}
                calls.append(call)
                exchange.append(call)
            continue
        answer.append((n, line))
    flush_answer()
    return runs, prompts, calls, answers


def main():
    d = sys.argv[1]
    name = ".aider.chat.history.md"
    with open(os.path.join(d, name), encoding="utf-8") as f:
        lines = f.readlines()
    runs, prompts, calls, answers = parse(lines)
    summary = {"file": name, "lines": len(lines), "runs": runs, "prompts": prompts, "answers": answers, "calls": calls}
    with open(os.path.join(d, "SUMMARY.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2, ensure_ascii=False)
        f.write("\n")
    md = [f"# {name}: {len(lines)} lines, {len(runs)} runs, {len(prompts)} inputs, {answers} model answers, {len(calls)} calls read from the text",
          "", "Computed by tests/e2e/agents/aider/summarize.py from the raw file.", "",
          "| run | line | started | version | model | restored |", "|---|---|---|---|---|---|"]
    for i, r in enumerate(runs, 1):
        md.append(f"| {i} | {r['line']} | {r['started']} | {r['version']} | {r['model']} | {r['restored']} |")
    md += ["", "| callId | run | tool | what | status | from |", "|---|---|---|---|---|---|"]
    for c in calls:
        what = (f"{c['path']} ({c['searchLines']} → {c['replaceLines']} lines{', new file' if c['newFile'] else ''})"
                if c["tool"] == "edit" else f"`{c['command']}` (output {'not ' if not c['outputLogged'] else ''}logged"
                + (f"; {c['outputLines']} lines added to the chat" if "outputLines" in c else "") + ")")
        md.append(f"| {c['callId']} | {c['run']} | {c['tool']} | {what} | {c['status']} | {c['statusFrom'] or '-'} |")
    md += ["", "| line | run | input |", "|---|---|---|"]
    for p in prompts:
        md.append(f"| {p['line']} | {p['run']} | {p['text'][:100]} |")
    with open(os.path.join(d, "SUMMARY.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    print(f"summarize: {len(runs)} runs, {len(calls)} calls", file=sys.stderr)


if __name__ == "__main__":
    main()
