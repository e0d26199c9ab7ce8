#!/usr/bin/env bash
# Real-host end-to-end test of `deck record`, using the DSH kit in
# tests/e2e/kit (a byte-for-byte copy of the project's reference `dsh/kit`;
# DSH_KIT=DIR runs another copy instead): the real host (npm
# @deepseek-ai/dsh, installed once under DECK_DSH_ROOT, default
# ~/.cache/deck-dsh) plays the four-turn tour against a scripted model.
#   1. deck records the whole session; every event seq the kit's driver saw
#      is in the recording once, with the same views, and `deck render` /
#      `deck inspect` of it equal those of the driver's frames.
#   2. the same through a proxy that cuts every connection mid-session:
#      deck reconnects, backfills from session.history, and the recording
#      still holds every seq exactly once.
#   3. deck drives a session in `workspace-write` mode (tests/e2e/drive.py):
#      `deck connect --new` in tmux sends the prompts (typed,
#      two lines, pasted), answers the kit's question with `1` and its
#      approval with `y`, steers a running turn and cancels it with Ctrl-c;
#      `deck record` beside it shows the host got all of it.
# Fails (never skips) when the host is not installed and npm cannot reach
# its registry.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
KIT=${DSH_KIT:-$REPO/tests/e2e/kit}
[ -f "$KIT/run.sh" ] || { echo "e2e: the DSH kit ($KIT/run.sh) is missing" >&2; exit 1; }
DECK=${DECK:-$REPO/target/debug/deck}
[ -x "$DECK" ] || { echo "e2e: $DECK is not built (cargo build first)" >&2; exit 1; }
ROOT=${DECK_DSH_ROOT:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/deck-dsh}
export DECK_DSH_ROOT=$ROOT # the kit installs and caches the host here
if [ ! -f "$ROOT/node_modules/@deepseek-ai/dsh/lib/bin.js" ]; then
  command -v npm >/dev/null || { echo "e2e: FAIL: npm is needed to install the DSH host into $ROOT (apt-get install npm)" >&2; exit 1; }
  if ! timeout 60 npm ping >/dev/null 2>&1; then
    echo "e2e: FAIL: the DSH host is not installed under $ROOT and the npm registry cannot be reached; the real-host test cannot run" >&2
    exit 1
  fi
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/deck-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export DSH_CLIENT_GRACE_S=${DSH_CLIENT_GRACE_S:-3}

echo "== e2e 1: deck record for the whole session"
OUT=$WORK/run1 DSH_CLIENT_CMD="'$DECK' record \"\$DSH_URL\" -o \"\$OUT/deck-record.jsonl\"" \
  bash "$KIT/run.sh" >"$WORK/kit1.log" 2>&1 || { tail -40 "$WORK/kit1.log" >&2; echo "e2e: FAIL: kit run 1" >&2; exit 1; }
cat "$WORK/run1/client.log"
python3 tests/e2e/check_recording.py "$DECK" "$WORK/run1" "$WORK/run1/deck-record.jsonl" --verbatim

echo "== e2e 2: the link is cut mid-session"
PROXY_CMD="python3 '$REPO/tests/e2e/proxy.py' --target \"\$DSH_URL\" --port-file \"\$OUT/proxy.port\" & \
for i in \$(seq 100); do [ -s \"\$OUT/proxy.port\" ] && break; sleep 0.05; done; \
exec '$DECK' record \"http://127.0.0.1:\$(cat \"\$OUT/proxy.port\")\" -o \"\$OUT/deck-record.jsonl\""
OUT=$WORK/run2 DSH_CLIENT_CMD="$PROXY_CMD" \
  bash "$KIT/run.sh" >"$WORK/kit2.log" 2>&1 || { tail -40 "$WORK/kit2.log" >&2; echo "e2e: FAIL: kit run 2" >&2; exit 1; }
cat "$WORK/run2/client.log"
grep -q "cutting every connection" "$WORK/run2/client.log" || { echo "e2e: FAIL: the proxy never cut the link" >&2; exit 1; }
grep -q "disconnected" "$WORK/run2/client.log" || { echo "e2e: FAIL: deck did not report the disconnect" >&2; exit 1; }
python3 tests/e2e/check_recording.py "$DECK" "$WORK/run2" "$WORK/run2/deck-record.jsonl"

echo "== e2e 3: deck drives a session (workspace-write): prompts, paste, a question, an approval, steer, cancel"
trap 'bash "$KIT/host.sh" stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
DSH_PERMISSION_MODE=workspace-write DSH_HOST_TTL_S=300 bash "$KIT/host.sh" start >"$WORK/host3.log" 2>&1 \
  || { tail -20 "$WORK/host3.log" >&2; echo "e2e: FAIL: the kit's host.sh did not start" >&2; exit 1; }
URL=$(tail -1 "$WORK/host3.log")
python3 tests/e2e/drive.py "$DECK" "$URL" "$ROOT/ws" "$WORK/run3" || { echo "e2e: FAIL: drive" >&2; exit 1; }
bash "$KIT/host.sh" stop >/dev/null 2>&1 || true
echo "e2e: 3 passed, 0 failed"
