#!/usr/bin/env bash
# Run the real Gemini CLI in its own mode (`gemini -p …`, not ACP), offline,
# against the ACP kit's ../gemini/fake_gemini.py, for the user turns of a scenario (scenarios/tour:
# turn 1 a fresh session, turn 2 `--resume latest`, turn 3 `--resume <session
# id>`), and keep the session file(s) it writes, sanitised, with a summary of
# every tool call.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# SCENARIO is a folder of scenarios/ (tour; legacy-json: Gemini CLI 0.20.2,
# which writes the older one-document session-*.json) or a path. Its
# scenario.json names the CLI version ("version") and the turns.
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/gemini-cli/SCENARIO/ holds):
#                    session-<date>-<id8>.jsonl, projects.json, .project_root,
#                    files.txt, version.txt, SUMMARY.json, SUMMARY.md, NOTES.md
#                    (NOTES.md: the scenario's, hand-written)
#   run/demo         the workspace the CLI worked in (run/home: its private HOME)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   turn-N.stdout, turn-N.stderr, timings.txt
# Refresh the fixture:  cp -a OUT_DIR/tour/. tests/fixtures/agents/gemini-cli/tour/
#
# Env: DECK_AGENTS_ROOT (default ~/.cache/deck-agents; the CLI is installed
# once: 0.61.0 into its gemini/, shared with the ACP kit ../gemini, another
# version into gemini-cli-VERSION/), GEMINI_CLI_TURN_TIMEOUT (default 60 s),
# DECK=path: check.py then runs `DECK inspect` on the capture (it fails until
# deck reads Gemini CLI's files; not run by .ci/run).
# Needs node >= 20 + npm (registry reachable once), python3 (stdlib only).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TURN_TIMEOUT="${GEMINI_CLI_TURN_TIMEOUT:-60}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
VERSION="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("version", "0.61.0"))' "$SCEN/scenario.json")"
ROOT="${DECK_AGENTS_ROOT:-$HOME/.cache/deck-agents}"
if [ "$VERSION" = 0.61.0 ]; then AGENTS="$ROOT/gemini"; else AGENTS="$ROOT/gemini-cli-$VERSION"; fi
PKG="$AGENTS/node_modules/@google/gemini-cli/package.json"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned CLI, installed once (same place as the ACP kit's).
if [ "$(node -p "require('$PKG').version" 2>/dev/null)" != "$VERSION" ]; then
  echo "installing @google/gemini-cli@$VERSION into $AGENTS" >&2
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && timeout 600 npm install --no-audit --no-fund --ignore-scripts "@google/gemini-cli@$VERSION" >/dev/null)
fi
# 0.61.0: bundle/gemini.js; 0.20.x: dist/index.js.
CLI="$AGENTS/node_modules/@google/gemini-cli/$(node -p "require('$PKG').bin.gemini")"

# 2. A fresh run folder: the workspace (its folder's name, demo, becomes the
# CLI's project name) and a private HOME.
RUN="$OUT/run"
WS="$RUN/demo"
GH="$RUN/home"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/port" "$OUT"/turn-*.std* "$OUT/timings.txt"
mkdir -p "$RUN" "$GH/.gemini"
mkdir -p "$WS" && cp -RL "$SCEN/workspace/." "$WS/"
# No telemetry, no update check, API-key auth, folder trust off.
cat > "$GH/.gemini/settings.json" <<'JSON'
{
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true, "enableAutoUpdate": false, "enableAutoUpdateNotification": false},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "ui": {"hideTips": true}
}
JSON

# 3. The fake Gemini API on 127.0.0.1.
python3 "$HERE/../gemini/fake_gemini.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --port-file "$OUT/port" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

gemini() {
  (cd "$WS" && env -u GOOGLE_API_KEY -u GOOGLE_CLOUD_PROJECT -u GOOGLE_CLOUD_LOCATION -u GOOGLE_GENAI_USE_VERTEXAI \
    -u GOOGLE_GENAI_USE_GCA -u GOOGLE_APPLICATION_CREDENTIALS -u GEMINI_MODEL -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy \
    HOME="$GH" GEMINI_API_KEY=fake GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
    GEMINI_TELEMETRY_ENABLED=false NO_BROWSER=true GEMINI_CLI_NO_RELAUNCH=true \
    timeout "$TURN_TIMEOUT" node "$CLI" "$@")
}

# 4. The turns: -p PROMPT, --approval-mode yolo (every tool runs unasked);
# turn 1 starts the session, the others resume it.
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["turns"]))' "$SCEN/scenario.json")
SID=""
t0=$(now)
for i in $(seq 1 "$n"); do
  PROMPT="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["turns"][int(sys.argv[2])]["prompt"])' "$SCEN/scenario.json" $((i - 1)))"
  RESUME="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["turns"][int(sys.argv[2])].get("resume") or "")' "$SCEN/scenario.json" $((i - 1)))"
  args=(-p "$PROMPT" --approval-mode yolo)
  case "$RESUME" in
    "") ;;
    SESSION_ID) args+=(--resume "$SID") ;;
    *) args+=(--resume "$RESUME") ;;
  esac
  t=$(now)
  rc=0
  gemini "${args[@]}" >"$OUT/turn-$i.stdout" 2>"$OUT/turn-$i.stderr" || rc=$?
  echo "turn $i: gemini ${args[*]:2} -> exit $rc, $(python3 -c "print(f'{$(now) - $t:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
  [ "$rc" = 0 ] || { echo "run.sh: turn $i failed (exit $rc); see $OUT/turn-$i.stderr" >&2; tail -5 "$OUT/turn-$i.stderr" >&2; exit 1; }
  if [ -z "$SID" ]; then
    files=("$GH"/.gemini/tmp/*/chats/session-*.json*)
    [ -f "${files[0]}" ] || { echo "run.sh: turn 1 wrote no session file" >&2; exit 1; }
    SID="$(python3 -c 'import json,sys; f=open(sys.argv[1]); print(json.loads(f.readline() if sys.argv[1].endswith("l") else f.read())["sessionId"])' "${files[0]}")"
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
# deck does not read Gemini CLI's files yet: the check runs only when asked.
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
