#!/usr/bin/env bash
# Run the real GitHub Copilot CLI (`copilot -p … --allow-all-tools`), offline
# (COPILOT_OFFLINE=true: no GitHub login, telemetry, web tools or update
# check) with its custom-provider mode (BYOK: COPILOT_PROVIDER_BASE_URL, an
# OpenAI-compatible endpoint) pointed at ../lib/fake_openai_chat.py on
# 127.0.0.1, for the user turns of a scenario (scenarios/tour: turn 1 a fresh
# session, turn 2 `--continue`, turn 3 `--resume=<session id>`), and keep the
# session it writes (~/.copilot/session-state/<id>/events.jsonl and
# workspace.yaml), sanitised, with a summary of every tool call.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# SCENARIO is a folder of scenarios/ or a path; its scenario.json names the
# CLI version ("version") and the turns.
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/copilot-cli/SCENARIO/ holds):
#                    events.jsonl, workspace.yaml, files.txt, version.txt,
#                    SUMMARY.json, SUMMARY.md, NOTES.md (the scenario's, hand-written)
#   run/demo         the workspace the CLI worked in (run/home: its private HOME)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   turn-N.stdout, turn-N.stderr, timings.txt
# Refresh the fixture:  rm -r tests/fixtures/agents/copilot-cli/tour &&
#                       cp -a OUT_DIR/tour tests/fixtures/agents/copilot-cli/tour
#
# Env: DECK_AGENTS_ROOT (default ${XDG_CACHE_HOME:-~/.cache}/deck-agents; the
# CLI is installed once into its copilot-cli/ (another version:
# copilot-cli-VERSION/); the native binary unpacks its JavaScript once into
# pkg-cache/ there), COPILOT_CLI_TURN_TIMEOUT (default 90 s), DECK=path:
# check.py then runs `DECK inspect` on the capture.
# Needs node + npm (registry reachable once), python3 (stdlib only); linux-x64
# or arm64 (the package's platform binary).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TURN_TIMEOUT="${COPILOT_CLI_TURN_TIMEOUT:-90}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$SCEN/scenario.json" "$1"; }
VERSION="$(jq_ 'd.get("version", "1.0.102")')"
ROOT="${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/deck-agents}"
if [ "$VERSION" = 1.0.102 ]; then AGENTS="$ROOT/copilot-cli"; else AGENTS="$ROOT/copilot-cli-$VERSION"; fi
PKG="$AGENTS/node_modules/@github/copilot/package.json"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned CLI, installed once (@github/copilot: a loader and, as an
# optional dependency, the platform's native binary, which unpacks its
# JavaScript into COPILOT_PKG_CACHE_HOME on first start).
if [ "$(node -p "require('$PKG').version" 2>/dev/null)" != "$VERSION" ]; then
  echo "installing @github/copilot@$VERSION into $AGENTS" >&2
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && timeout 600 npm install --no-audit --no-fund --prefix . "@github/copilot@$VERSION" >/dev/null)
fi
CLI="$AGENTS/node_modules/@github/copilot/$(node -p "require('$PKG').bin.copilot")"

# 2. A fresh run folder: the workspace and a private HOME (~/.copilot in it).
RUN="$OUT/run"
WS="$RUN/demo"
CH="$RUN/home"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/port" "$OUT"/turn-*.std* "$OUT/timings.txt"
mkdir -p "$RUN" "$CH"
mkdir -p "$WS" && cp -RL "$SCEN/workspace/." "$WS/"

# The scenario's fetch goes to http://127.0.0.1:47319/: it must fail, so nothing may listen there.
if python3 -c 'import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(0 if s.connect_ex(("127.0.0.1", 47319)) == 0 else 1)'; then
  echo "run.sh: something listens on 127.0.0.1:47319; the scenario's fetch must fail there" >&2; exit 1
fi

# 3. The fake Chat Completions API on 127.0.0.1.
python3 "$HERE/../lib/fake_openai_chat.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --model copilot-fake \
  --port-file "$OUT/port" --var "WS=$WS" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

copilot() {
  (cd "$WS" && env -u COPILOT_HOME -u COPILOT_GITHUB_TOKEN -u GH_TOKEN -u GITHUB_TOKEN -u COPILOT_MODEL \
    -u COPILOT_PROVIDER_BEARER_TOKEN -u COPILOT_PROVIDER_API_KEY_COMMAND -u COPILOT_PROVIDER_WIRE_API \
    -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy -u ALL_PROXY -u all_proxy \
    HOME="$CH" COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false COPILOT_PKG_CACHE_HOME="$AGENTS/pkg-cache" \
    COPILOT_PROVIDER_TYPE=openai COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$PORT/v1" \
    COPILOT_PROVIDER_API_KEY=fake COPILOT_MODEL=copilot-fake NO_COLOR=1 \
    timeout "$TURN_TIMEOUT" node "$CLI" "$@")
}

# 4. The turns: -p PROMPT, --allow-all-tools (every tool runs unasked); turn 1
# starts the session, the others continue or resume it.
n="$(jq_ 'len(d["turns"])')"
SID=""
t0=$(now)
for i in $(seq 1 "$n"); do
  PROMPT="$(jq_ "d['turns'][$((i - 1))]['prompt']")"
  RESUME="$(jq_ "d['turns'][$((i - 1))].get('resume') or ''")"
  args=(-p "$PROMPT" --allow-all-tools)
  case "$RESUME" in
    "") ;;
    continue) args+=(--continue) ;;
    SESSION_ID) args+=("--resume=$SID") ;;
    *) args+=("--resume=$RESUME") ;;
  esac
  t=$(now)
  rc=0
  copilot "${args[@]}" >"$OUT/turn-$i.stdout" 2>"$OUT/turn-$i.stderr" || rc=$?
  echo "turn $i: copilot ${args[*]:2} -> exit $rc, $(python3 -c "print(f'{$(now) - $t:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
  [ "$rc" = 0 ] || { echo "run.sh: turn $i failed (exit $rc); see $OUT/turn-$i.stderr" >&2; tail -5 "$OUT/turn-$i.stderr" >&2; exit 1; }
  if [ -z "$SID" ]; then
    files=("$CH"/.copilot/session-state/*/events.jsonl)
    [ -f "${files[0]}" ] || { echo "run.sh: turn 1 wrote no session" >&2; exit 1; }
    SID="$(basename "$(dirname "${files[0]}")")"
  fi
done
echo "all turns: $(python3 -c "print(f'{$(now) - $t0:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
copilot --version >"$OUT/version.txt"

# 5. The fixture's form: paths sanitised (workspace -> /workspace/demo,
# private HOME -> /home/user), every line checked to parse; the summary.
python3 "$HERE/sanitize.py" "$RUN" "$OUT/$NAME"
cp "$OUT/version.txt" "$OUT/$NAME/version.txt"
[ -f "$SCEN/NOTES.md" ] && cp "$SCEN/NOTES.md" "$OUT/$NAME/NOTES.md"
python3 "$HERE/summarize.py" "$OUT/$NAME"
echo "run.sh: capture in $OUT/$NAME" >&2
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
