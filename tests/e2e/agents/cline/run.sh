#!/usr/bin/env bash
# Run the real Cline CLI (`cline --json PROMPT`, tools auto-approved: the
# CLI's default), offline, against ../lib/fake_openai_chat.py (the kits'
# shared OpenAI-compatible Chat Completions fake on 127.0.0.1), for the user
# turns of a scenario (scenarios/tour: turn 1 a fresh session, turns 2 and 3
# `--id <session id>`, which resumes it), and keep the session it writes
# (~/.cline/data/sessions/<id>/<id>.json, its manifest, and
# <id>.messages.json, its conversation), sanitised, with a summary of every
# tool call.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# SCENARIO is a folder of scenarios/ or a path; its scenario.json names the
# CLI version ("version") and the turns.
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/cline/SCENARIO/ holds):
#                    <id>/<id>.json, <id>/<id>.messages.json, files.txt,
#                    version.txt, SUMMARY.json, SUMMARY.md, NOTES.md (the
#                    scenario's, hand-written)
#   run/demo         the workspace the CLI worked in (run/home: its private HOME)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   turn-N.stdout (the CLI's --json event stream), turn-N.stderr, timings.txt
# Refresh the fixture:  rm -r tests/fixtures/agents/cline/tour/* &&
#                       cp -a OUT_DIR/tour/. tests/fixtures/agents/cline/tour/
#
# Env: DECK_AGENTS_ROOT (default ${XDG_CACHE_HOME:-~/.cache}/deck-agents; the
# CLI is installed once into its cline/ (another version: cline-VERSION/)),
# CLINE_TURN_TIMEOUT (default 90 s), DECK=path: check.py then runs `DECK
# inspect` on the capture.
# Needs node + npm (registry reachable once: the `cline` package is a node
# launcher for a Bun-compiled binary shipped in @cline/cli-linux-x64, an
# optional dependency; node 20 is enough for the launcher, the binary
# embeds its runtime), python3 (stdlib only).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TURN_TIMEOUT="${CLINE_TURN_TIMEOUT:-90}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$SCEN/scenario.json" "$1"; }
VERSION="$(jq_ 'd.get("version", "3.0.65")')"
ROOT="${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/deck-agents}"
if [ "$VERSION" = 3.0.65 ]; then AGENTS="$ROOT/cline"; else AGENTS="$ROOT/cline-$VERSION"; fi
PKG="$AGENTS/node_modules/cline/package.json"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned CLI, installed once. --ignore-scripts: the package's
# postinstall only hard-links the platform binary next to its launcher (a
# cache the launcher does without); nothing is downloaded at run time.
if [ "$(node -p "require('$PKG').version" 2>/dev/null)" != "$VERSION" ]; then
  echo "installing cline@$VERSION into $AGENTS" >&2
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && timeout 900 npm install --no-audit --no-fund --ignore-scripts --loglevel=error "cline@$VERSION" >/dev/null)
fi
BIN="$AGENTS/node_modules/@cline/cli-linux-x64/bin/cline"
[ -x "$BIN" ] || { echo "run.sh: no $BIN (the package's linux-x64 binary)" >&2; exit 1; }

# 2. A fresh run folder: the workspace and a private HOME (the CLI keeps
# everything under ~/.cline: settings, sessions, its SQLite databases, the
# hub daemon's lock).
RUN="$OUT/run"
WS="$RUN/demo"
CH="$RUN/home"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/port" "$OUT"/turn-*.std* "$OUT/timings.txt"
mkdir -p "$RUN" "$CH"
mkdir -p "$WS" && cp -RL "$SCEN/workspace/." "$WS/"

# The scenario's fetch goes to http://127.0.0.1:47319/ (not a port fetch()
# refuses as "bad", like 9): it must be refused, so nothing may listen there.
if python3 -c 'import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(0 if s.connect_ex(("127.0.0.1", 47319)) == 0 else 1)'; then
  echo "run.sh: something listens on 127.0.0.1:47319; the scenario's fetch must fail there" >&2; exit 1
fi

# 3. The fake Chat Completions API on 127.0.0.1.
python3 "$HERE/../lib/fake_openai_chat.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --model cline-fake \
  --port-file "$OUT/port" --var "WS=$WS" &
SRV=$!
# The CLI starts a hub daemon (`cline --cline-hub-daemon`, its pid in
# ~/.cline/data/locks/hub/production.json) that outlives each turn: stopped
# here, with the fake.
stop() {
  local hub
  hub="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("pid") or "")' \
    "$CH/.cline/data/locks/hub/production.json" 2>/dev/null || true)"
  [ -n "$hub" ] && kill "$hub" 2>/dev/null || true
  kill "$SRV" 2>/dev/null || true
}
trap stop EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

cline() {
  (cd "$WS" && env -u CLINE_DIR -u CLINE_DATA_DIR -u CLINE_SESSION_DATA_DIR -u CLINE_BIN_PATH \
    -u OPENAI_API_KEY -u OPENAI_BASE_URL -u ANTHROPIC_API_KEY -u OPENROUTER_API_KEY -u GEMINI_API_KEY \
    -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy -u ALL_PROXY -u all_proxy \
    HOME="$CH" NO_BROWSER=true \
    timeout "$TURN_TIMEOUT" "$BIN" "$@")
}

# 4. The provider: OpenAI Compatible at the fake, through the CLI's own
# `auth` (it writes ~/.cline/data/settings/providers.json).
cline auth openai-compatible --apikey fake --modelid cline-fake --baseurl "http://127.0.0.1:$PORT/v1" \
  >"$OUT/auth.stdout" 2>"$OUT/auth.stderr"

# 5. The turns: turn 1 `--json PROMPT` (act mode, every tool auto-approved:
# the default), a fresh session; the others resume it. 3.0.65 resumes a
# session (`--id ID`) only in its terminal UI, so a resumed turn goes through
# its ACP mode (`--acp --auto-approve true`: session/load, then
# session/prompt; acp_turn.py), which appends to the same session's files.
# ACP mode asks for an `authenticate` (OAuth) unless $CLINE_API_KEY is set;
# $CLINE_PROVIDER picks the provider whose settings `cline auth` saved.
n="$(jq_ 'len(d["turns"])')"
SID=""
t0=$(now)
for i in $(seq 1 "$n"); do
  PROMPT="$(jq_ "d['turns'][$((i - 1))]['prompt']")"
  RESUME="$(jq_ "d['turns'][$((i - 1))].get('resume') or ''")"
  t=$(now)
  rc=0
  case "$RESUME" in
    "") how="--json PROMPT"
        cline --json "$PROMPT" >"$OUT/turn-$i.stdout" 2>"$OUT/turn-$i.stderr" || rc=$? ;;
    *)  [ "$RESUME" = SESSION_ID ] || SID="$RESUME"
        how="--acp: session/load $SID, session/prompt"
        (cd "$WS" && python3 "$HERE/acp_turn.py" "$OUT/turn-$i.acp.jsonl" "$SID" "$WS" "$PROMPT" -- \
          env -u CLINE_DIR -u CLINE_DATA_DIR -u CLINE_SESSION_DATA_DIR -u OPENAI_API_KEY -u OPENAI_BASE_URL \
          -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy -u ALL_PROXY -u all_proxy \
          HOME="$CH" NO_BROWSER=true CLINE_PROVIDER=openai-compatible CLINE_API_KEY=fake \
          timeout "$TURN_TIMEOUT" "$BIN" --acp --auto-approve true) \
          >"$OUT/turn-$i.stdout" 2>"$OUT/turn-$i.stderr" || rc=$? ;;
  esac
  echo "turn $i: cline $how -> exit $rc, $(python3 -c "print(f'{$(now) - $t:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
  [ "$rc" = 0 ] || { echo "run.sh: turn $i failed (exit $rc); see $OUT/turn-$i.stderr" >&2; tail -5 "$OUT/turn-$i.stderr" >&2; exit 1; }
  if [ -z "$SID" ]; then
    dirs=("$CH"/.cline/data/sessions/*/)
    [ -d "${dirs[0]}" ] || { echo "run.sh: turn 1 wrote no session folder" >&2; exit 1; }
    SID="$(basename "${dirs[0]}")"
  fi
done
echo "all turns: $(python3 -c "print(f'{$(now) - $t0:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
"$BIN" --version >"$OUT/version.txt"
stop
trap - EXIT

# 6. The fixture's form: paths sanitised (workspace -> /workspace/demo,
# private HOME -> /home/user), every file checked to parse; the summary.
python3 "$HERE/sanitize.py" "$RUN" "$OUT/$NAME"
cp "$OUT/version.txt" "$OUT/$NAME/version.txt"
[ -f "$SCEN/NOTES.md" ] && cp "$SCEN/NOTES.md" "$OUT/$NAME/NOTES.md"
python3 "$HERE/summarize.py" "$OUT/$NAME"
echo "run.sh: capture in $OUT/$NAME" >&2
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
