#!/usr/bin/env bash
# Run the real Kimi Code CLI (PyPI `kimi-cli`, `kimi --print -p …`), offline,
# against ../lib/fake_openai_chat.py (the kits' shared OpenAI-compatible Chat
# Completions fake on 127.0.0.1, as a provider of type `kimi`), for the user
# turns of a scenario (scenarios/tour: turn 1 a fresh session, turn 2
# `--continue`, turn 3 `--session <session id>`), and keep the session folder
# it writes ($KIMI_SHARE_DIR/sessions/<md5 of the work dir>/<session id>/:
# wire.jsonl, context.jsonl, state.json), sanitised, with a summary of every
# tool call.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/kimi/SCENARIO/ holds):
#                    sessions/<md5 of /workspace/demo>/<session id>/{wire.jsonl,
#                    state.json}, kimi.json, files.txt, version.txt,
#                    SUMMARY.json, SUMMARY.md, NOTES.md (the scenario's, hand-written)
#   run/demo         the workspace the CLI worked in (run/home: its private HOME,
#                    run/home/.kimi its KIMI_SHARE_DIR)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   turn-N.stdout, turn-N.stderr, timings.txt
# Refresh the fixture:  rm -rf tests/fixtures/agents/kimi/tour/sessions &&
#                       cp -a OUT_DIR/tour/. tests/fixtures/agents/kimi/tour/
#
# Env: DECK_AGENTS_ROOT (default ${XDG_CACHE_HOME:-~/.cache}/deck-agents; the
# CLI is installed once into a venv there: kimi/venv-VERSION, with PyPI's
# `ripgrep` for its Grep tool, which otherwise downloads rg), KIMI_TURN_TIMEOUT
# (default 120 s), KIMI_PYTHON (a python >= 3.12; else python3.13, python3.12
# or pyenv's), DECK=path: check.py then runs `DECK inspect` on the capture.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TURN_TIMEOUT="${KIMI_TURN_TIMEOUT:-120}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$SCEN/scenario.json" "$1"; }
VERSION="$(jq_ 'd.get("version", "1.49.0")')"
RG_VERSION=14.1.0
ROOT="${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/deck-agents}"
VENV="$ROOT/kimi/venv-$VERSION"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned CLI, installed once into its own venv (Python >= 3.12).
py312() {
  local c
  for c in "${KIMI_PYTHON:-}" python3.13 python3.12 python3 \
    $(ls -rd "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3 2>/dev/null); do
    [ -n "$c" ] || continue
    if "$c" -c 'import sys, venv; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then echo "$c"; return; fi
  done
  return 1
}
if [ "$("$VENV/bin/kimi" --version 2>/dev/null)" != "kimi, version $VERSION" ] || [ ! -x "$VENV/bin/rg" ]; then
  PY="$(py312)" || { echo "run.sh: kimi-cli needs Python >= 3.12 (set KIMI_PYTHON)" >&2; exit 1; }
  echo "installing kimi-cli==$VERSION into $VENV with $PY" >&2
  t=$(now)
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
  timeout 900 "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    --cache-dir "${XDG_CACHE_HOME:-$HOME/.cache}/pip" --only-binary=ripgrep "kimi-cli==$VERSION" "ripgrep==$RG_VERSION" >&2
  echo "install: $(python3 -c "print(f'{$(now) - $t:.0f}')") s" >&2
fi

# 2. A fresh run folder: the workspace and a private HOME whose .kimi is the
# CLI's share folder (KIMI_SHARE_DIR: config, sessions, logs).
RUN="$OUT/run"
WS="$RUN/demo"
KH="$RUN/home"
SHARE="$KH/.kimi"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/port" "$OUT"/turn-*.std* "$OUT/timings.txt"
mkdir -p "$SHARE" "$WS"
cp -RL "$SCEN/workspace/." "$WS/"

# The scenario's FetchURL goes to http://127.0.0.1:47319/: it must be refused.
if python3 -c 'import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(0 if s.connect_ex(("127.0.0.1", 47319)) == 0 else 1)'; then
  echo "run.sh: something listens on 127.0.0.1:47319; the scenario's FetchURL must fail there" >&2; exit 1
fi

# 3. The fake Chat Completions API on 127.0.0.1.
python3 "$HERE/../lib/fake_openai_chat.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --model kimi-fake \
  --port-file "$OUT/port" --var "WS=$WS" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

# The fake as a provider of type `kimi` (Moonshot's API is Chat Completions);
# no telemetry; no search or fetch service (FetchURL then fetches itself).
cat > "$SHARE/config.toml" <<TOML
default_model = "fake"
telemetry = false

[models.fake]
provider = "fake"
model = "kimi-fake"
max_context_size = 131072

[providers.fake]
type = "kimi"
base_url = "http://127.0.0.1:$PORT/v1"
api_key = "fake"
TOML

kimi() {
  (cd "$WS" && env -u KIMI_API_KEY -u KIMI_BASE_URL -u KIMI_MODEL_NAME -u OPENAI_API_KEY -u OPENAI_BASE_URL \
    -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy -u ALL_PROXY -u all_proxy \
    HOME="$KH" KIMI_SHARE_DIR="$SHARE" PATH="$VENV/bin:$PATH" NO_COLOR=1 \
    timeout "$TURN_TIMEOUT" "$VENV/bin/kimi" "$@")
}

# 4. The turns: --print (non-interactive; every tool runs unasked) -p PROMPT;
# turn 1 starts the session, the others continue or resume it.
n="$(jq_ 'len(d["turns"])')"
SID=""
t0=$(now)
for i in $(seq 1 "$n"); do
  PROMPT="$(jq_ "d['turns'][$((i - 1))]['prompt']")"
  RESUME="$(jq_ "d['turns'][$((i - 1))].get('resume') or ''")"
  args=(--print -p "$PROMPT")
  case "$RESUME" in
    "") ;;
    continue) args+=(--continue) ;;
    SESSION_ID) args+=(--session "$SID") ;;
    *) args+=(--session "$RESUME") ;;
  esac
  t=$(now)
  rc=0
  kimi "${args[@]}" >"$OUT/turn-$i.stdout" 2>"$OUT/turn-$i.stderr" || rc=$?
  echo "turn $i: kimi ${args[*]:3} -> exit $rc, $(python3 -c "print(f'{$(now) - $t:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
  [ "$rc" = 0 ] || { echo "run.sh: turn $i failed (exit $rc); see $OUT/turn-$i.stderr" >&2; tail -5 "$OUT/turn-$i.stderr" >&2; exit 1; }
  if [ -z "$SID" ]; then
    files=("$SHARE"/sessions/*/*/wire.jsonl)
    [ -f "${files[0]}" ] || { echo "run.sh: turn 1 wrote no wire.jsonl" >&2; exit 1; }
    SID="$(basename "$(dirname "${files[0]}")")"
  fi
done
echo "all turns: $(python3 -c "print(f'{$(now) - $t0:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
"$VENV/bin/kimi" --version >"$OUT/version.txt"

# 5. The fixture's form: paths sanitised (workspace -> /workspace/demo,
# private HOME -> /home/user, the work dir's md5 folder -> md5 of
# /workspace/demo), every line checked to parse; the summary.
python3 "$HERE/sanitize.py" "$RUN" "$OUT/$NAME"
cp "$OUT/version.txt" "$OUT/$NAME/version.txt"
[ -f "$SCEN/NOTES.md" ] && cp "$SCEN/NOTES.md" "$OUT/$NAME/NOTES.md"
python3 "$HERE/summarize.py" "$OUT/$NAME"
echo "run.sh: capture in $OUT/$NAME" >&2
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
