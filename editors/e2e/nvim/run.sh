#!/bin/sh
# Headless Neovim test (Debian's nvim 0.7.2 or newer): copies the test workspace to a temp
# dir and runs test.lua, which prints TAP-like lines and "N passed, N failed".
#   CHARTER_LSP  server binary (default: <repo>/bin/charter-lsp)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
BIN=${CHARTER_LSP:-$REPO/bin/charter-lsp}
[ -x "$BIN" ] || { echo "nvim e2e: server binary not found: $BIN (go build -o bin/charter-lsp ./cmd/charter-lsp)" >&2; exit 2; }
command -v nvim >/dev/null || { echo "nvim e2e: nvim not installed (apt-get install -y neovim)" >&2; exit 2; }
WS=$(mktemp -d "${TMPDIR:-/tmp}/charter-nvim-XXXXXX")
STATE=$(mktemp -d "${TMPDIR:-/tmp}/charter-nvim-state-XXXXXX")
trap 'rm -rf "$WS" "$STATE"' EXIT
cp -R "$HERE/../testdata/workspace/." "$WS/"
chmod -R u+w "$WS"
# Only src/ is newer than the recorded evidence (see lib/workspace.js).
find "$WS" -type f -exec touch -d 2026-11-01T00:00:00Z {} +
touch -d 2026-11-20T12:00:00Z "$WS/src/auth/token.go"
export CHARTER_LSP="$BIN" CHARTER_WS="$WS" CHARTER_EXPECT="$HERE/../testdata/expect.json"
# Keep Neovim's log, shada and swap files out of $HOME.
export XDG_STATE_HOME="$STATE" XDG_DATA_HOME="$STATE" XDG_CACHE_HOME="$STATE" XDG_CONFIG_HOME="$STATE" NVIM_LOG_FILE="$STATE/nvim.log"
cd "$WS"
timeout 180 nvim --headless -u NONE -i NONE -n \
  --cmd "set rtp^=$REPO/editors/nvim" \
  -c "luafile $HERE/test.lua"
