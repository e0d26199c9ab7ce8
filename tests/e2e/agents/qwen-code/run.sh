#!/usr/bin/env bash
# Run the real Qwen Code CLI (`qwen -p … --yolo`), offline, against
# ../lib/fake_openai_chat.py (the kits' shared OpenAI-compatible Chat Completions fake on
# 127.0.0.1), for the user turns of a scenario (scenarios/tour: turn 1 a fresh
# session, turn 2 `--continue`, turn 3 `--resume <session id>`), and keep the
# session file it writes (~/.qwen/projects/<project>/chats/<session id>.jsonl),
# sanitised, with a summary of every tool call.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# SCENARIO is a folder of scenarios/ or a path; its scenario.json names the
# CLI version ("version") and the turns.
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/qwen-code/SCENARIO/ holds):
#                    <session id>.jsonl, usage_record.jsonl, files.txt, version.txt,
#                    SUMMARY.json, SUMMARY.md, NOTES.md (the scenario's, hand-written)
#   run/demo         the workspace the CLI worked in (run/home: its private HOME)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   turn-N.stdout, turn-N.stderr, timings.txt
# Refresh the fixture:  rm tests/fixtures/agents/qwen-code/tour/*.jsonl &&
#                       cp -a OUT_DIR/tour/. tests/fixtures/agents/qwen-code/tour/
#
# Env: DECK_AGENTS_ROOT (default ${XDG_CACHE_HOME:-~/.cache}/deck-agents; the
# CLI is installed once into its qwen/ (another version: qwen-code-VERSION/),
# QWEN_CODE_TURN_TIMEOUT (default 60 s), DECK=path: check.py then runs `DECK
# inspect` on the capture (it fails until deck reads Qwen Code's files; not run
# by .ci/run).
# Needs node + npm (registry reachable once; the package asks for node >= 22
# but 0.24.4 runs on node 20), python3 (stdlib only).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TURN_TIMEOUT="${QWEN_CODE_TURN_TIMEOUT:-60}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$SCEN/scenario.json" "$1"; }
VERSION="$(jq_ 'd.get("version", "0.24.4")')"
ROOT="${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/deck-agents}"
if [ "$VERSION" = 0.24.4 ]; then AGENTS="$ROOT/qwen"; else AGENTS="$ROOT/qwen-code-$VERSION"; fi
PKG="$AGENTS/node_modules/@qwen-code/qwen-code/package.json"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned CLI, installed once. --ignore-scripts: the package has no
# scripts of its own; its optional native dependencies (node-pty, clipboard,
# sharp, audio capture) are not needed by `qwen -p`.
if [ "$(node -p "require('$PKG').version" 2>/dev/null)" != "$VERSION" ]; then
  echo "installing @qwen-code/qwen-code@$VERSION into $AGENTS" >&2
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && timeout 600 npm install --no-audit --no-fund --ignore-scripts "@qwen-code/qwen-code@$VERSION" >/dev/null)
fi
CLI="$AGENTS/node_modules/@qwen-code/qwen-code/$(node -p "require('$PKG').bin.qwen")"

# 2. A fresh run folder: the workspace (its path names the CLI's project
# folder, ~/.qwen/projects/<path with / -> ->/) and a private HOME.
RUN="$OUT/run"
WS="$RUN/demo"
QH="$RUN/home"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/port" "$OUT"/turn-*.std* "$OUT/timings.txt"
mkdir -p "$RUN" "$QH/.qwen"
mkdir -p "$WS" && cp -RL "$SCEN/workspace/." "$WS/"
# OpenAI-compatible auth; no usage statistics, telemetry or update check;
# list_directory on (0.24.4 leaves it off by default: "glob covers directory
# listing in most cases"); no systemd-inhibit around each model response and tool.
cat > "$QH/.qwen/settings.json" <<'JSON'
{
  "security": {"auth": {"selectedType": "openai"}},
  "model": {"name": "qwen-fake"},
  "general": {"enableAutoUpdate": false, "preventSystemSleep": false},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "tools": {"listDirectory": {"enabled": true}}
}
JSON

# The scenario's web_fetch goes to http://127.0.0.1:47319/ (not a port
# fetch() refuses as "bad", like 9): it must be refused, so nothing may listen there.
if python3 -c 'import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(0 if s.connect_ex(("127.0.0.1", 47319)) == 0 else 1)'; then
  echo "run.sh: something listens on 127.0.0.1:47319; the scenario's web_fetch must fail there" >&2; exit 1
fi

# 3. The fake Chat Completions API on 127.0.0.1.
python3 "$HERE/../lib/fake_openai_chat.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --model qwen-fake \
  --port-file "$OUT/port" --var "WS=$WS" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

qwen() {
  (cd "$WS" && env -u DASHSCOPE_API_KEY -u QWEN_MODEL -u QWEN_HOME -u OPENAI_ORG_ID -u OPENAI_PROJECT_ID \
    -u ANTHROPIC_API_KEY -u GEMINI_API_KEY -u GOOGLE_API_KEY -u QWEN_DEFAULT_AUTH_TYPE \
    -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy -u ALL_PROXY -u all_proxy \
    HOME="$QH" OPENAI_API_KEY=fake OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1" OPENAI_MODEL=qwen-fake \
    QWEN_USAGE_STATISTICS_ENABLED=false NO_BROWSER=true \
    timeout "$TURN_TIMEOUT" node "$CLI" "$@")
}

# 4. The turns: -p PROMPT, --yolo (every tool runs unasked); turn 1 starts the
# session, the others continue or resume it.
n="$(jq_ 'len(d["turns"])')"
SID=""
t0=$(now)
for i in $(seq 1 "$n"); do
  PROMPT="$(jq_ "d['turns'][$((i - 1))]['prompt']")"
  RESUME="$(jq_ "d['turns'][$((i - 1))].get('resume') or ''")"
  args=(-p "$PROMPT" --yolo)
  case "$RESUME" in
    "") ;;
    continue) args+=(--continue) ;;
    SESSION_ID) args+=(--resume "$SID") ;;
    *) args+=(--resume "$RESUME") ;;
  esac
  t=$(now)
  rc=0
  qwen "${args[@]}" >"$OUT/turn-$i.stdout" 2>"$OUT/turn-$i.stderr" || rc=$?
  echo "turn $i: qwen ${args[*]:2} -> exit $rc, $(python3 -c "print(f'{$(now) - $t:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
  [ "$rc" = 0 ] || { echo "run.sh: turn $i failed (exit $rc); see $OUT/turn-$i.stderr" >&2; tail -5 "$OUT/turn-$i.stderr" >&2; exit 1; }
  if [ -z "$SID" ]; then
    files=("$QH"/.qwen/projects/*/chats/*.jsonl)
    [ -f "${files[0]}" ] || { echo "run.sh: turn 1 wrote no session file" >&2; exit 1; }
    SID="$(basename "${files[0]}" .jsonl)"
  fi
done
echo "all turns: $(python3 -c "print(f'{$(now) - $t0:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
node "$CLI" --version >"$OUT/version.txt"

# 5. The fixture's form: paths sanitised (workspace -> /workspace/demo,
# private HOME -> /home/user), every line checked to parse; the summary.
python3 "$HERE/sanitize.py" "$RUN" "$OUT/$NAME"
cp "$OUT/version.txt" "$OUT/$NAME/version.txt"
[ -f "$SCEN/NOTES.md" ] && cp "$SCEN/NOTES.md" "$OUT/$NAME/NOTES.md"
python3 "$HERE/summarize.py" "$OUT/$NAME"
echo "run.sh: capture in $OUT/$NAME" >&2
# deck does not read Qwen Code's files yet: the check runs only when asked.
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
