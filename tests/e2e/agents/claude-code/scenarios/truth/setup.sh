#!/usr/bin/env bash
# The truth scenario's workspace, written here rather than kept: two long
# files whose line numbers the scenario's checks name.
#   src/server.py  371 lines (over 10 000 characters: Claude Code keeps no
#                  `originalFile` of it); `DEBUG` on lines 123, 239, 249, 277, 330, 348, 362
#   docs/guide.md  120 lines; line 40 is empty
set -euo pipefail
mkdir -p "$WS/src" "$WS/docs" "$WS/.claude/commands"
python3 - "$WS" <<'PY'
import sys, os
ws = sys.argv[1]
debug = {123, 239, 249, 277, 330, 348, 362}
lines = []
for n in range(1, 372):
    if n in debug:
        lines.append(f"    log(DEBUG, 'step {n}')")
    elif n % 10 == 1:
        lines.append(f"def step_{n}():")
    else:
        lines.append(f"    x_{n} = compute({n}, label='value number {n}')")
open(os.path.join(ws, "src/server.py"), "w").write("\n".join(lines) + "\n")
guide = []
for n in range(1, 121):
    guide.append("" if n % 20 == 0 else f"Guide line {n}.")
open(os.path.join(ws, "docs/guide.md"), "w").write("\n".join(guide) + "\n")
PY
cat > "$WS/.claude/commands/review.md" <<'MD'
---
description: Review the code under a folder
argument-hint: [folder]
---
[truth-2] Review the code in $ARGUMENTS and list the three most important problems.
MD
