#!/usr/bin/env bash
# Soak test (not run in CI): does deck's memory stay flat over a long replay?
#
# Plays the real tour capture in `deck replay --speed 64` inside a detached
# tmux session, and every time the replay reaches its end (the timeline shows
# ⏸) presses space, which starts it again from the beginning; every few
# replays it also seeks (`5`, `←`, `,`), cycles the densities (`O`) and moves
# the focus (`j`, `G`), so the layout caches and the player's snapshots churn.
# deck's RSS is read from /proc every SOAK_SAMPLE seconds and printed.
#
# Fails (exit 1) when the RSS at the end exceeds the RSS at SOAK_BASELINE
# seconds (after warm-up) by more than SOAK_MARGIN percent. Exit 2: the
# harness broke (no tmux, deck died, no capture).
#
#   bench/soak.sh                                # 10 minutes
#   SOAK_SECS=60 SOAK_BASELINE=20 bench/soak.sh  # a quick check
#
# Settings (environment):
#   SOAK_SECS      total duration in seconds           (600)
#   SOAK_BASELINE  when the reference RSS is taken, s  (60; at most SOAK_SECS/2)
#   SOAK_SAMPLE    seconds between RSS samples         (5)
#   SOAK_MARGIN    allowed growth over the reference,% (20)
#   SOAK_CAPTURE   frame log to replay (demo-sessions/tour.frames.jsonl)
#   DECK           deck binary (default: built with `cargo build --release --locked`)
set -euo pipefail
cd "$(dirname "$0")/.."

SECS=${SOAK_SECS:-600}
BASELINE=${SOAK_BASELINE:-60}
SAMPLE=${SOAK_SAMPLE:-5}
MARGIN=${SOAK_MARGIN:-20}
if [ "$BASELINE" -gt $((SECS / 2)) ]; then BASELINE=$((SECS / 2)); fi

CAPTURE=${SOAK_CAPTURE:-demo-sessions/tour.frames.jsonl}
[ -f "$CAPTURE" ] || { echo "soak: no capture to replay (set SOAK_CAPTURE)" >&2; exit 2; }
command -v tmux >/dev/null || { echo "soak: tmux is needed (apt-get install tmux)" >&2; exit 2; }

if [ -z "${DECK:-}" ]; then
  cargo build --release --locked --bin deck >&2
  DECK="${CARGO_TARGET_DIR:-$PWD/target}/release/deck"
fi
CAPTURE=$(realpath "$CAPTURE")

SESSION="deck-soak-$$"
cleanup() { tmux kill-session -t "$SESSION" 2>/dev/null || true; }
trap cleanup EXIT
tmux new-session -d -s "$SESSION" -x 120 -y 40 \
  "exec '$DECK' replay '$CAPTURE' --speed 64 --theme dark"
PID=$(tmux list-panes -t "$SESSION" -F '#{pane_pid}')

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$PID/status" 2>/dev/null; }
key() { tmux send-keys -t "$SESSION" "$@"; }

echo "soak: deck pid $PID, replaying $CAPTURE at 64× for ${SECS}s (reference at ${BASELINE}s, margin ${MARGIN}%)"
echo "  time_s  rss_kb  replays"
start=$(date +%s)
next_sample=0
replays=0
base=""
last=""
while :; do
  now=$(( $(date +%s) - start ))
  [ -d "/proc/$PID" ] || { echo "soak: deck exited after ${now}s" >&2; exit 2; }
  if [ "$now" -ge "$next_sample" ]; then
    last=$(rss_kb)
    printf '%8d %7s %8d\n' "$now" "$last" "$replays"
    if [ -z "$base" ] && [ "$now" -ge "$BASELINE" ]; then base=$last; fi
    next_sample=$((next_sample + SAMPLE))
  fi
  [ "$now" -ge "$SECS" ] && break
  # At the end of the replay the timeline shows ⏸: start it again.
  if tmux capture-pane -p -t "$SESSION" | grep -q '⏸'; then
    replays=$((replays + 1))
    case $((replays % 8)) in
      2) key 5 ;;        # seek to 50 % (paused there), then play on
      4) key O ;;        # next density for every card
      6) key j j G ;;    # move the focus, back to the tail
      0) key Left , ;;   # seek back 5 s, step one event back
    esac
    key Space
  fi
  sleep 0.1
done

[ -n "$base" ] || base=$last
limit=$((base * (100 + MARGIN) / 100))
echo "soak: ${replays} replays; RSS ${base} kB at ${BASELINE}s, ${last} kB at the end (limit ${limit} kB)"
if [ "$last" -gt "$limit" ]; then
  echo "soak: FAIL: RSS grew by more than ${MARGIN}%" >&2
  exit 1
fi
echo "soak: PASS"
