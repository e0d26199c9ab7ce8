#!/usr/bin/env bash
# Drive the real Gemini CLI (`--acp`) with `deck acp --prompt … --allow`, offline,
# against fake_gemini.py, then check the run (check.py). Usage: run.sh [OUT_DIR]
# (default: a fresh temporary directory; leaves OUT_DIR/acp-trace.jsonl,
# OUT_DIR/deck-stdout.txt, OUT_DIR/agent-stderr.txt, OUT_DIR/api-log.jsonl, OUT_DIR/ws).
# Needs target/debug/deck (cargo build) or DECK=path; node >= 20 and npm.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../../.." && pwd)"
VERSION=0.61.0
AGENTS="${DECK_AGENTS_ROOT:-$HOME/.cache/deck-agents}/gemini"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd)"; else OUT="$(mktemp -d)"; fi
DECK="${DECK:-$ROOT/target/debug/deck}"
CLI="$AGENTS/node_modules/@google/gemini-cli/bundle/gemini.js"
if [ "$(node -p "require('$AGENTS/node_modules/@google/gemini-cli/package.json').version" 2>/dev/null)" != "$VERSION" ]; then
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && npm install --no-audit --no-fund --ignore-scripts "@google/gemini-cli@$VERSION" >/dev/null)
fi
SCEN="$HERE/scenarios/tour"
rm -rf "$OUT/ws" "$OUT/home" "$OUT/acp-trace.jsonl" "$OUT/api-log.jsonl"
cp -r "$SCEN/workspace" "$OUT/ws"
mkdir -p "$OUT/home/.gemini"
# No telemetry, no update check, API-key auth; folder trust off (the scratch folder is not trusted otherwise).
cat > "$OUT/home/.gemini/settings.json" <<'JSON'
{
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true, "enableAutoUpdate": false, "enableAutoUpdateNotification": false},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "ui": {"hideTips": true}
}
JSON
python3 "$HERE/fake_gemini.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --port-file "$OUT/port" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"
PROMPT="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["prompt"])' "$SCEN/scenario.json")"
env -u GOOGLE_API_KEY -u GOOGLE_CLOUD_PROJECT -u GOOGLE_GENAI_USE_VERTEXAI -u GOOGLE_GENAI_USE_GCA \
  HOME="$OUT/home" GEMINI_API_KEY=fake GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
  GEMINI_TELEMETRY_ENABLED=false NO_BROWSER=true GEMINI_CLI_NO_RELAUNCH=true \
  timeout 120 "$DECK" acp --cwd "$OUT/ws" --record "$OUT/acp-trace.jsonl" --prompt "$PROMPT" --allow \
  -- node "$CLI" --acp >"$OUT/deck-stdout.txt" 2>"$OUT/agent-stderr.txt"
# The fixture's form: scratch paths become /workspace/demo and /home/user.
sed -e "s#$OUT/ws#/workspace/demo#g" -e "s#$OUT/home#/home/user#g" "$OUT/acp-trace.jsonl" >"$OUT/acp-trace.sanitized.jsonl"
python3 "$HERE/check.py" "$DECK" "$OUT"
