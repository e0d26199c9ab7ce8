#!/usr/bin/env bash
# Run the real pi coding agent (`pi -p …`, print mode), offline, against
# ../lib/fake_openai_chat.py (the kits' shared OpenAI-compatible Chat
# Completions fake on 127.0.0.1, as a custom provider of models.json), for the
# user turns of a scenario (scenarios/tour: turn 1 a fresh session, turn 2
# `--continue`, turn 3 `--session <id>` after moving the leaf back to the end
# of turn 1, so the file's tree has two branches), and keep the session file it
# writes (~/.pi/agent/sessions/--<cwd>--/<timestamp>_<id>.jsonl), sanitised,
# with a summary of every tool call.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# SCENARIO is a folder of scenarios/ or a path; its scenario.json names the
# CLI version ("version") and the turns (a turn's "branch": "TURN_1_END" moves
# the leaf to turn 1's last entry first, through branch-extension.ts).
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/pi/SCENARIO/ holds):
#                    <timestamp>_<session id>.jsonl, files.txt, version.txt,
#                    SUMMARY.json, SUMMARY.md, NOTES.md (the scenario's, hand-written)
#   run/demo         the workspace the CLI worked in (run/home: its private HOME)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   turn-N.stdout, turn-N.stderr, timings.txt
# Refresh the fixture:  rm tests/fixtures/agents/pi/tour/*.jsonl &&
#                       cp -a OUT_DIR/tour/. tests/fixtures/agents/pi/tour/
#
# Env: DECK_AGENTS_ROOT (default ${XDG_CACHE_HOME:-~/.cache}/deck-agents; the
# CLI is installed once into its pi/ (another version: pi-VERSION/)),
# PI_TURN_TIMEOUT (default 60 s), DECK=path: check.py then runs `DECK inspect`
# on the capture and exits with its status.
# Needs node >= 20.6 + npm (registry reachable once), python3 (stdlib only),
# and ripgrep + fd on PATH (pi's grep and find tools run `rg` and `fd`/`fdfind`;
# without them pi would try to download them): when missing and run as root,
# they are installed from Debian's packages (ripgrep, fd-find).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TURN_TIMEOUT="${PI_TURN_TIMEOUT:-60}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$SCEN/scenario.json" "$1"; }
VERSION="$(jq_ 'd.get("version", "0.73.1")')"
ROOT="${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/deck-agents}"
if [ "$VERSION" = 0.73.1 ]; then AGENTS="$ROOT/pi"; else AGENTS="$ROOT/pi-$VERSION"; fi
PKG="$AGENTS/node_modules/@mariozechner/pi-coding-agent/package.json"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned CLI, installed once. --ignore-scripts: pi's own package has no
# install script; its dependencies' (protobufjs, koffi…) are not needed by `pi -p`.
if [ "$(node -p "require('$PKG').version" 2>/dev/null)" != "$VERSION" ]; then
  echo "installing @mariozechner/pi-coding-agent@$VERSION into $AGENTS" >&2
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && timeout 600 npm install --no-audit --no-fund --ignore-scripts "@mariozechner/pi-coding-agent@$VERSION" >/dev/null)
fi
CLI="$AGENTS/node_modules/@mariozechner/pi-coding-agent/$(node -p "require('$PKG').bin.pi")"
# grep and find shell out to rg and fd (or Debian's fdfind).
if ! command -v rg >/dev/null || ! { command -v fd >/dev/null || command -v fdfind >/dev/null; }; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing ripgrep and fd-find (pi's grep and find run them)" >&2
    (apt-get install -y -qq ripgrep fd-find >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq ripgrep fd-find >/dev/null; })
  else
    echo "run.sh: pi's grep and find need rg and fd (Debian: ripgrep, fd-find) on PATH" >&2; exit 1
  fi
fi

# 2. A fresh run folder: the workspace (its path names the session folder,
# ~/.pi/agent/sessions/--<path without its leading /, / -> ->--/) and a private HOME.
RUN="$OUT/run"
WS="$RUN/demo"
PH="$RUN/home"
AD="$PH/.pi/agent"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/port" "$OUT"/turn-*.std* "$OUT/timings.txt"
mkdir -p "$AD"
mkdir -p "$WS" && cp -RL "$SCEN/workspace/." "$WS/"

# 3. The fake Chat Completions API on 127.0.0.1.
python3 "$HERE/../lib/fake_openai_chat.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --model pi-fake \
  --port-file "$OUT/port" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

# The fake as a custom provider (models.json); no update check, no telemetry.
cat > "$AD/models.json" <<JSON
{
  "providers": {
    "fake": {
      "baseUrl": "http://127.0.0.1:$PORT/v1",
      "api": "openai-completions",
      "apiKey": "fake",
      "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
      "models": [{"id": "pi-fake", "name": "pi fake", "reasoning": false, "contextWindow": 128000, "maxTokens": 8192}]
    }
  }
}
JSON
cat > "$AD/settings.json" <<'JSON'
{"enableInstallTelemetry": false}
JSON
# pi 0.73's find passes `--no-require-git` (fd >= 8.7); Debian 12's fd-find is
# 8.6, which refuses it. pi looks in ~/.pi/agent/bin/ before PATH: a wrapper
# there drops that one flag (the workspace has no .gitignore: same result).
FD="$(command -v fd || command -v fdfind)"
if ! "$FD" --help 2>/dev/null | grep -q -- --no-require-git; then
  mkdir -p "$AD/bin"
  cat > "$AD/bin/fd" <<SH
#!/bin/sh
# run.sh's wrapper: $FD without --no-require-git (fd < 8.7 does not know it)
for a; do shift; [ "\$a" = --no-require-git ] || set -- "\$@" "\$a"; done
exec "$FD" "\$@"
SH
  chmod +x "$AD/bin/fd"
fi

pi_() {
  (cd "$WS" && env -u PI_CODING_AGENT_DIR -u PI_CODING_AGENT_SESSION_DIR -u PI_PACKAGE_DIR \
    -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u GEMINI_API_KEY -u GOOGLE_API_KEY \
    -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy -u ALL_PROXY -u all_proxy \
    HOME="$PH" PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1 PI_TELEMETRY=0 \
    timeout "$TURN_TIMEOUT" node "$CLI" "$@" </dev/null)
}

# 4. The turns: -p PROMPT with every built-in tool on; turn 1 starts the
# session, the others continue it or open it by id.
n="$(jq_ 'len(d["turns"])')"
SFILE=""
SID=""
t0=$(now)
for i in $(seq 1 "$n"); do
  PROMPT="$(jq_ "d['turns'][$((i - 1))]['prompt']")"
  RESUME="$(jq_ "d['turns'][$((i - 1))].get('resume') or ''")"
  BRANCH="$(jq_ "d['turns'][$((i - 1))].get('branch') or ''")"
  args=(-p --provider fake --model pi-fake --tools read,bash,edit,write,grep,find,ls --no-context-files)
  case "$RESUME" in
    "") ;;
    continue) args+=(--continue) ;;
    SESSION_ID) args+=(--session "$SID") ;;
    *) args+=(--session "$RESUME") ;;
  esac
  msgs=()
  case "$BRANCH" in
    "") ;;
    TURN_1_END)
      # The last entry before turn 2's prompt: turn 1's final answer.
      target="$(python3 - "$SFILE" <<'PY'
import json, sys
prev = None
prompts = 0
for line in open(sys.argv[1], encoding="utf-8"):
    e = json.loads(line)
    if e.get("type") == "message" and (e.get("message") or {}).get("role") == "user":
        prompts += 1
        if prompts == 2:
            print(prev)
            break
    if "id" in e and e.get("type") != "session":
        prev = e["id"]
PY
)"
      [ -n "$target" ] || { echo "run.sh: no entry to branch from" >&2; exit 1; }
      args+=(-e "$HERE/branch-extension.ts")
      msgs+=("/deck-branch $target") ;;
    *) echo "run.sh: unknown branch $BRANCH" >&2; exit 1 ;;
  esac
  msgs+=("$PROMPT")
  t=$(now)
  rc=0
  pi_ "${args[@]}" "${msgs[@]}" >"$OUT/turn-$i.stdout" 2>"$OUT/turn-$i.stderr" || rc=$?
  echo "turn $i: pi ${args[*]:6} ${msgs[*]:0:${#msgs[@]}-1} -> exit $rc, $(python3 -c "print(f'{$(now) - $t:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
  [ "$rc" = 0 ] || { echo "run.sh: turn $i failed (exit $rc); see $OUT/turn-$i.stderr" >&2; tail -5 "$OUT/turn-$i.stderr" >&2; exit 1; }
  if [ -z "$SFILE" ]; then
    files=("$AD"/sessions/*/*.jsonl)
    [ -f "${files[0]}" ] || { echo "run.sh: turn 1 wrote no session file" >&2; exit 1; }
    SFILE="${files[0]}"
    SID="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["id"])' "$SFILE")"
  fi
done
echo "all turns: $(python3 -c "print(f'{$(now) - $t0:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
node "$CLI" --version >"$OUT/version.txt" 2>&1 </dev/null

# 5. The fixture's form: paths sanitised (workspace -> /workspace/demo,
# private HOME -> /home/user), every line checked to parse; the summary.
python3 "$HERE/sanitize.py" "$RUN" "$OUT/$NAME"
cp "$OUT/version.txt" "$OUT/$NAME/version.txt"
[ -f "$SCEN/NOTES.md" ] && cp "$SCEN/NOTES.md" "$OUT/$NAME/NOTES.md"
python3 "$HERE/summarize.py" "$OUT/$NAME"
echo "run.sh: capture in $OUT/$NAME" >&2
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
