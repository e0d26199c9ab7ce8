#!/usr/bin/env bash
# Run the real aider (pip `aider-chat`), offline, against ../lib/fake_openai_chat.py
# (the kits' shared OpenAI-compatible Chat Completions fake on 127.0.0.1), once per
# run of a scenario, non-interactively (`--message`, `--yes-always`), in a scratch
# git workspace, and keep the chat history it appends to there
# (`.aider.chat.history.md`, one `# aider chat started at …` per run), sanitised,
# with a summary computed from it.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# SCENARIO is a folder of scenarios/ or a path; its scenario.json names the
# version, the runs (`message`, `files` added to the chat, `restore`:
# --restore-chat-history) and the scripted model answers (`turns`).
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/aider/SCENARIO/ holds):
#                    .aider.chat.history.md, .aider.input.history, files.txt, version.txt,
#                    SUMMARY.json, SUMMARY.md, NOTES.md (the scenario's, hand-written)
#   run/demo         the workspace aider worked in (a git repository; run/home: its HOME)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   llm-history.txt  aider's --llm-history-file (every message sent and received)
#   run-N.stdout, run-N.stderr, timings.txt
# Refresh the fixture:  cp -a OUT_DIR/tour/. tests/fixtures/agents/aider/tour/
#
# Env: DECK_AGENTS_ROOT (default ${XDG_CACHE_HOME:-~/.cache}/deck-agents; aider is
# installed once into a venv there: aider/venv-VERSION, pip's downloads cached
# in ${XDG_CACHE_HOME:-~/.cache}/pip), AIDER_RUN_TIMEOUT (default 120 s),
# DECK=path: check.py then runs `DECK inspect` on the capture.
# Needs python3 3.10-3.12 with venv, git.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
RUN_TIMEOUT="${AIDER_RUN_TIMEOUT:-120}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$SCEN/scenario.json" "$1"; }
VERSION="$(jq_ 'd.get("version", "0.86.2")')"
ROOT="${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/deck-agents}"
VENV="$ROOT/aider/venv-$VERSION"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned aider, installed once into its own venv (~690 MB; ~2-3 min on
# 2 cores with a cold pip cache).
if [ "$("$VENV/bin/python" -c 'import aider; print(aider.__version__)' 2>/dev/null)" != "$VERSION" ]; then
  echo "installing aider-chat==$VERSION into $VENV" >&2
  t=$(now)
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  timeout 900 "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    --cache-dir "${XDG_CACHE_HOME:-$HOME/.cache}/pip" "aider-chat==$VERSION" >&2
  echo "install: $(python3 -c "print(f'{$(now) - $t:.0f}')") s" >&2
fi

# 2. A fresh run folder: the workspace, a git repository with one commit (aider
# works in the repository it is started in; its history file goes to the
# repository's root), and a private HOME (aider keeps ~/.aider there).
RUN="$OUT/run"
WS="$RUN/demo"
AH="$RUN/home"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/llm-history.txt" "$OUT/port" "$OUT"/run-*.std* "$OUT/timings.txt"
mkdir -p "$WS" "$AH"
cp -RL "$SCEN/workspace/." "$WS/"
git -C "$WS" -c init.defaultBranch=main init -q
git -C "$WS" config user.name demo && git -C "$WS" config user.email demo@example.invalid
git -C "$WS" add -A && git -C "$WS" commit -q -m "demo: statistics helpers"

# 3. The fake Chat Completions API on 127.0.0.1.
python3 "$HERE/../lib/fake_openai_chat.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" \
  --model aider-fake --port-file "$OUT/port" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

# aider's settings: the fake as an OpenAI-compatible provider (`openai/` model
# names go to --openai-api-base), the `diff` edit format (SEARCH/REPLACE blocks;
# an unknown model would get `whole`), no analytics, update check or release
# notes, no warning about the unknown model (it asks to open a web page, which
# --yes-always answers yes), no colours; git commits as by default
# (--auto-commits: the commit message is asked of the model: the scenario's
# "side" answer). AIDER_* variables from the caller unset.
aider() {
  (cd "$WS" && env $(env | sed -n 's/^\(AIDER_[A-Za-z0-9_]*\)=.*/-u \1/p') \
    -u OPENAI_API_KEY -u OPENAI_API_BASE -u OPENAI_BASE_URL -u ANTHROPIC_API_KEY -u GEMINI_API_KEY \
    -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy -u ALL_PROXY -u all_proxy \
    HOME="$AH" LITELLM_LOCAL_MODEL_COST_MAP=True TERM=xterm NO_COLOR=1 \
    timeout "$RUN_TIMEOUT" "$VENV/bin/aider" \
      --model openai/aider-fake --openai-api-base "http://127.0.0.1:$PORT/v1" --openai-api-key fake \
      --edit-format diff --no-check-update --analytics-disable --no-show-release-notes \
      --no-show-model-warnings --no-pretty --no-fancy-input --yes-always \
      --llm-history-file "$OUT/llm-history.txt" "$@" </dev/null)
}

# 4. The runs: each `aider [--restore-chat-history] --message MESSAGE [FILES]`.
n="$(jq_ 'len(d["runs"])')"
t0=$(now)
for i in $(seq 1 "$n"); do
  MESSAGE="$(jq_ "d['runs'][$((i - 1))]['message']")"
  args=()
  [ "$(jq_ "bool(d['runs'][$((i - 1))].get('restore'))")" = True ] && args+=(--restore-chat-history)
  args+=(--message "$MESSAGE")
  while IFS= read -r f; do [ -n "$f" ] && args+=("$f"); done < <(jq_ "'\n'.join(d['runs'][$((i - 1))].get('files', []))")
  t=$(now)
  rc=0
  aider "${args[@]}" >"$OUT/run-$i.stdout" 2>"$OUT/run-$i.stderr" || rc=$?
  echo "run $i: aider ${args[*]} -> exit $rc, $(python3 -c "print(f'{$(now) - $t:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
  [ "$rc" = 0 ] || { echo "run.sh: run $i failed (exit $rc); see $OUT/run-$i.stdout and .stderr" >&2; tail -5 "$OUT/run-$i.stdout" "$OUT/run-$i.stderr" >&2; exit 1; }
  sleep 1 # the runs' header times are to the second
done
echo "all runs: $(python3 -c "print(f'{$(now) - $t0:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
"$VENV/bin/aider" --version >"$OUT/version.txt"

# 5. The fixture's form: paths sanitised (workspace -> /workspace/demo, HOME ->
# /home/user), commit hashes kept; the summary.
python3 "$HERE/sanitize.py" "$RUN" "$OUT/$NAME"
cp "$OUT/version.txt" "$OUT/$NAME/version.txt"
[ -f "$SCEN/NOTES.md" ] && cp "$SCEN/NOTES.md" "$OUT/$NAME/NOTES.md"
python3 "$HERE/summarize.py" "$OUT/$NAME"
echo "run.sh: capture in $OUT/$NAME" >&2
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
