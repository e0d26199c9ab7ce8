#!/usr/bin/env bash
# Run the real mini-swe-agent CLI (`mini`, pip `mini-swe-agent`), offline, against
# ../lib/fake_openai_chat.py (the kits' shared OpenAI-compatible Chat Completions fake on
# 127.0.0.1; mini 2.x's default model class speaks to it through litellm with a `bash`
# tool, non-streamed), in its default confirm mode under a pseudo-terminal (drive.py
# answers its prompts: Enter to run an action, a comment to reject one, a new task when
# the agent submits), and keep the trajectory it writes
# ($MSWEA_GLOBAL_CONFIG_DIR/last_mini_run.traj.json), sanitised, with a summary of
# every action.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# SCENARIO is a folder of scenarios/ or a path; its scenario.json names the
# version ("version"), the model's turns (the first turn's prompt is `--task`;
# the others are typed as new tasks at the "Agent wants to finish" prompt) and
# the answers typed at the prompts ("answers").
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/mini-swe-agent/SCENARIO/ holds):
#                    last_mini_run.traj.json, version.txt, SUMMARY.json, SUMMARY.md,
#                    NOTES.md (the scenario's, hand-written)
#   run/demo         the workspace the CLI worked in (run/home: its private HOME)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   transcript.txt   what the CLI printed on its terminal; timings.txt
# Refresh the fixture:  cp -a OUT_DIR/tour/. tests/fixtures/agents/mini-swe-agent/tour/
#
# Env: DECK_AGENTS_ROOT (default ${XDG_CACHE_HOME:-~/.cache}/deck-agents; the
# CLI is installed once into a venv in its mini-swe-agent/ (another version:
# mini-swe-agent-VERSION/), pip's downloads cached in ~/.cache/pip),
# MINI_SWE_AGENT_TIMEOUT (default 120 s), DECK=path: check.py then runs
# `DECK inspect` on the capture and compares it with SUMMARY.json.
# Needs python3 >= 3.10 with venv (registry reachable once).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TIMEOUT="${MINI_SWE_AGENT_TIMEOUT:-120}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$SCEN/scenario.json" "$1"; }
VERSION="$(jq_ 'd.get("version", "2.4.6")')"
ROOT="${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/deck-agents}"
if [ "$VERSION" = 2.4.6 ]; then AGENTS="$ROOT/mini-swe-agent"; else AGENTS="$ROOT/mini-swe-agent-$VERSION"; fi
VENV="$AGENTS/venv"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned CLI, installed once into its own venv.
if [ "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mini-swe-agent"))' 2>/dev/null)" != "$VERSION" ]; then
  echo "installing mini-swe-agent==$VERSION into $VENV" >&2
  mkdir -p "$AGENTS"
  python3 -m venv "$VENV"
  PIP_CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/pip" timeout 600 "$VENV/bin/pip" install -q --disable-pip-version-check "mini-swe-agent==$VERSION" >&2
fi

# 2. A fresh run folder: the workspace and a private HOME (the global config
# folder, where the trajectory and the prompt history go, is inside it).
RUN="$OUT/run"
WS="$RUN/demo"
MH="$RUN/home"
CFG="$MH/.config/mini-swe-agent"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/port" "$OUT/transcript.txt" "$OUT/timings.txt"
mkdir -p "$WS" "$CFG"
cp -RL "$SCEN/workspace/." "$WS/"

# The scenario's curl goes to http://127.0.0.1:47319/: it must be refused, so nothing may listen there.
if python3 -c 'import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(0 if s.connect_ex(("127.0.0.1", 47319)) == 0 else 1)'; then
  echo "run.sh: something listens on 127.0.0.1:47319; the scenario's curl must fail there" >&2; exit 1
fi

# 3. The fake Chat Completions API on 127.0.0.1.
python3 "$HERE/../lib/fake_openai_chat.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --model mini-fake \
  --port-file "$OUT/port" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

# 4. One run of `mini`: the task of turn 1, confirm mode (the default), the
# model `openai/mini-fake` at the fake's address; no first-time setup
# (MSWEA_CONFIGURED), no cost registry look-up (the fake model has no price:
# MSWEA_COST_TRACKING=ignore_errors; LITELLM_LOCAL_MODEL_COST_MAP keeps litellm
# from fetching its price list), no retries against a fake that answered wrong.
PROMPT="$(jq_ "d['turns'][0]['prompt']")"
t0=$(now)
rc=0
(cd "$WS" && env -i PATH="$PATH" LANG=C.UTF-8 TERM=dumb HOME="$MH" \
  MSWEA_GLOBAL_CONFIG_DIR="$CFG" MSWEA_CONFIGURED=true MSWEA_COST_TRACKING=ignore_errors \
  MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT=1 LITELLM_LOCAL_MODEL_COST_MAP=True OPENAI_API_KEY=fake \
  python3 "$HERE/drive.py" "$SCEN/scenario.json" "$OUT/transcript.txt" "$TIMEOUT" -- \
  "$VENV/bin/mini" -m openai/mini-fake -t "$PROMPT" \
  -c mini.yaml -c "model.model_kwargs.api_base=http://127.0.0.1:$PORT/v1") || rc=$?
echo "mini: exit $rc, $(python3 -c "print(f'{$(now) - $t0:.1f}')") s" | tee "$OUT/timings.txt" >&2
[ "$rc" = 0 ] || { echo "run.sh: mini failed (exit $rc); see $OUT/transcript.txt" >&2; tail -20 "$OUT/transcript.txt" >&2; exit 1; }
[ -f "$CFG/last_mini_run.traj.json" ] || { echo "run.sh: no trajectory in $CFG" >&2; exit 1; }
"$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mini-swe-agent"))' >"$OUT/version.txt"

# 5. The fixture's form: paths sanitised (workspace -> /workspace/demo,
# private HOME -> /home/user), checked to parse; the summary.
python3 "$HERE/sanitize.py" "$RUN" "$CFG/last_mini_run.traj.json" "$OUT/$NAME/last_mini_run.traj.json"
cp "$OUT/version.txt" "$OUT/$NAME/version.txt"
[ -f "$SCEN/NOTES.md" ] && cp "$SCEN/NOTES.md" "$OUT/$NAME/NOTES.md"
python3 "$HERE/summarize.py" "$OUT/$NAME"
echo "run.sh: capture in $OUT/$NAME" >&2
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
