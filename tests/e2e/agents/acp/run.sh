#!/usr/bin/env bash
# End-to-end test of `deck acp` against the real Claude Code ACP adapter
# (@zed-industries/claude-code-acp, pinned 0.16.2: Claude Agent SDK 0.2.44,
# Claude Code cli.js 2.1.44), installed from npm once into
# $DECK_AGENTS_ROOT/acp (default ~/.cache/deck-agents/acp), offline against
# the scripted model ../claude-code/fake_anthropic.py (the kit in this directory, a copy of
# the project's ACP capture kit with deck in place of its scripted client):
#   1. drive.py: `deck acp` runs the adapter in tmux; the scenario's prompts
#      are typed into deck's composer, its permission requests answered with
#      y / n on the focused card (one rejected, by the scenario's rules), and
#      the turn running the long command cancelled with Ctrl-c;
#   2. check.py: deck's recording, `deck inspect` of it, the workspace and
#      what deck's screen showed agree (every call at its final status, with
#      its card; the rejected command not run; the files edited on disk as
#      the diff cards show).
# Fails (never skips) when the adapter is not installed and cannot be.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
REPO=$(pwd)
HERE=$REPO/tests/e2e/agents/acp
DECK=${DECK:-$REPO/target/debug/deck}
VERSION=${ACP_ADAPTER_VERSION:-0.16.2}
NODE=${NODE:-node}
[ -x "$DECK" ] || { echo "e2e acp: FAIL: $DECK is not built (cargo build first)" >&2; exit 1; }
for tool in npm "$NODE" python3 tmux timeout; do
  command -v "$tool" >/dev/null || { echo "e2e acp: FAIL: $tool is needed" >&2; exit 1; }
done
ROOT=${DECK_AGENTS_ROOT:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/deck-agents}
PREFIX=$ROOT/acp
PKG=$PREFIX/node_modules/@zed-industries/claude-code-acp/package.json
have() { [ -f "$PKG" ] && python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$PKG" || true; }
if [ "$(have)" != "$VERSION" ]; then
  echo "e2e acp: installing @zed-industries/claude-code-acp@$VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  if ! timeout 600 npm install --no-audit --no-fund --prefix "$PREFIX" "@zed-industries/claude-code-acp@$VERSION" >&2 \
    || [ "$(have)" != "$VERSION" ]; then
    echo "e2e acp: FAIL: @zed-industries/claude-code-acp@$VERSION could not be installed into $PREFIX (npm registry unreachable?); the real-agent test cannot run" >&2
    exit 1
  fi
fi
ADAPTER=$PREFIX/node_modules/@zed-industries/claude-code-acp/dist/index.js
WORK=$(mktemp -d "${TMPDIR:-/tmp}/deck-e2e-acp.XXXXXX")
WORK=$(cd "$WORK" && pwd -P) # the agent reports its cwd without symlinks
t=$(date +%s)
if ! python3 "$HERE/drive.py" --deck "$DECK" --node "$(command -v "$NODE")" --adapter "$ADAPTER" \
  --scenario "$HERE/scenarios/tour" --work "$WORK" \
  || ! python3 "$HERE/check.py" "$DECK" "$HERE/scenarios/tour" "$WORK"; then
  echo "e2e acp: FAIL; the recording, deck's screens and the workspace are kept in $WORK" >&2
  exit 1
fi
rm -rf "$WORK"
echo "e2e acp: passed in $(($(date +%s) - t)) s: deck acp drove claude-code-acp@$VERSION through the tour"
