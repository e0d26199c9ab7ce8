#!/usr/bin/env bash
# End-to-end test of deck against the real Claude Code and Codex CLIs, with
# the kits in tests/e2e/agents/{claude-code,codex} (copies of the project's
# capture kits): each CLI, pinned (Claude Code 2.1.328, Codex 0.169.0) and
# installed from npm once into DECK_AGENTS_ROOT (default
# ~/.cache/deck-agents), plays its kit's three-turn tour offline against a
# scripted model on 127.0.0.1, running real tools on real files. For each:
#   1. `deck follow`, started before the CLI, sees every call while the CLI
#      runs (follow.py: deck in tmux, its screen read);
#   2. `deck inspect` of the files the CLI wrote lists every call the
#      scenario makes, with its card and key fields (check_inspect.py).
# DECK_E2E_AGENTS="claude-code codex" (the default) picks the agents.
# Fails (never skips) when a CLI is not installed and npm cannot reach its
# registry.
set -euo pipefail
cd "$(dirname "$0")/../../.."
REPO=$(pwd)
HERE=$REPO/tests/e2e/agents
DECK=${DECK:-$REPO/target/debug/deck}
[ -x "$DECK" ] || { echo "e2e agents: $DECK is not built (cargo build first)" >&2; exit 1; }
for tool in npm node python3 tmux timeout; do
  command -v "$tool" >/dev/null || { echo "e2e agents: FAIL: $tool is needed" >&2; exit 1; }
done
ROOT=${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/deck-agents}
export DECK_AGENTS_ROOT=$ROOT # the kits install and cache the CLIs here
AGENTS=${DECK_E2E_AGENTS:-claude-code codex}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/deck-e2e-agents.XXXXXX")
WORK=$(cd "$WORK" && pwd -P) # the CLIs record their cwd without symlinks
trap 'rm -rf "$WORK"' EXIT

installed() {
  case $1 in
    claude-code) [ -f "$ROOT/claude/node_modules/@anthropic-ai/claude-code/package.json" ] ;;
    codex) [ -f "$ROOT/codex/node_modules/@openai/codex/package.json" ] ;;
  esac
}
for agent in $AGENTS; do
  if ! installed "$agent" && ! timeout 60 npm ping >/dev/null 2>&1; then
    echo "e2e agents: FAIL: $agent is not installed under $ROOT and the npm registry cannot be reached; the real-CLI test cannot run" >&2
    exit 1
  fi
done

secs() { echo $(($(date +%s) - $1)); }

claude_code() {
  local kit=$HERE/claude-code scen=$HERE/claude-code/scenarios/tour
  local work=$WORK/claude-code
  local ws=$work/run/ws home=$work/run/home
  local sid project session
  mkdir -p "$work"
  sid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["session_id"])' "$scen/scenario.json")
  # Claude Code keeps a session in ~/.claude/projects/<cwd, every character
  # but letters and digits as ->/<session id>.jsonl; the kit gives the CLI a
  # private HOME and fixes the id, so the path is known before the CLI runs
  # (deck follow waits for it to appear).
  project=$(printf '%s' "$ws" | sed 's/[^A-Za-z0-9]/-/g')
  session=$home/.claude/projects/$project/$sid.jsonl
  local t=$(date +%s)
  python3 "$HERE/follow.py" --deck "$DECK" --agent claude-code --scenario "$scen" --ws "$ws" \
    --cwd "$work" --out "$work/follow" --follow "$session" -- \
    env CC_WORK="$work/run" OUT="$work/out" bash "$kit/run.sh" "$scen" || return 1
  echo "e2e agents: claude-code: the kit (install if needed, the tour) under deck follow: $(secs "$t") s"
  python3 "$HERE/check_inspect.py" "$DECK" claude-code "$scen" "$ws" "$session" \
    "${session%.jsonl}"/subagents/agent-*.jsonl
}

codex() {
  local kit=$HERE/codex scen=$HERE/codex/scenarios/tour
  local work=$WORK/codex
  local run=$work/run ch=$work/codex-home
  local ws=$run/ws/demo
  mkdir -p "$ws" "$ch"
  local t=$(date +%s)
  # A rollout's name holds its start time and thread id: deck follow
  # --latest codex, in the workspace with the kit's CODEX_HOME, waits for
  # the first rollout whose cwd is this directory.
  python3 "$HERE/follow.py" --deck "$DECK" --agent codex --scenario "$scen" --ws "$ws" \
    --cwd "$ws" --out "$work/follow" --env "CODEX_HOME=$ch" --follow=--latest --follow=codex -- \
    env CODEX_RUN="$run" CODEX_KIT_HOME="$ch" bash "$kit/run.sh" "$scen" "$work/out" || return 1
  echo "e2e agents: codex: the kit (install if needed, the tour) under deck follow: $(secs "$t") s"
  local rollouts=("$ch"/sessions/*/*/*/rollout-*.jsonl)
  [ ${#rollouts[@]} -eq 1 ] || { echo "e2e agents: FAIL: codex wrote ${#rollouts[@]} rollouts: ${rollouts[*]}" >&2; return 1; }
  python3 "$HERE/check_inspect.py" "$DECK" codex "$scen" "$ws" "${rollouts[0]}"
}

failed=()
for agent in $AGENTS; do
  echo "== e2e agents: $agent"
  case $agent in
    claude-code) claude_code || failed+=("$agent") ;;
    codex) codex || failed+=("$agent") ;;
    *) echo "e2e agents: unknown agent $agent" >&2; failed+=("$agent") ;;
  esac
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "e2e agents: FAIL: ${failed[*]}" >&2
  exit 1
fi
echo "e2e agents: passed: $AGENTS"
