#!/bin/sh
# Headless Neovim tests (Debian's nvim 0.7.2 or newer), with the plugin installed the way
# plugin managers install it and no runtimepath step of the user's:
#   packer: the repository as a start package (pack/packer/start/charter-lsp), Neovim's own
#           package loading; install.lua, then test.lua (the full LSP flow through setup())
#   lazy:   the repository root prepended to the runtimepath, as lazy.nvim does; install.lua
# Each prints TAP-like lines and "N passed, N failed"; the script fails if any run failed.
#   CHARTER_LSP  server binary (default: <repo>/bin/charter-lsp)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
BIN=${CHARTER_LSP:-$REPO/bin/charter-lsp}
[ -x "$BIN" ] || { echo "nvim e2e: server binary not found: $BIN (go build -o bin/charter-lsp ./cmd/charter-lsp)" >&2; exit 2; }
command -v nvim >/dev/null || { echo "nvim e2e: nvim not installed (apt-get install -y neovim)" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/charter-nvim-XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# run NAME LUAFILE NVIM-ARGS…: a fresh workspace (testdata/$WORKSPACE, default workspace) and
# fresh Neovim state for each run.
status=0
run() {
  name=$1 lua=$2; shift 2
  ws=$TMP/$name/ws state=$TMP/$name/state
  mkdir -p "$ws" "$state"
  cp -R "$HERE/../testdata/${WORKSPACE:-workspace}/." "$ws/"
  chmod -R u+w "$ws"
  # Only src/ is newer than the recorded evidence (see lib/workspace.js).
  find "$ws" -type f -exec touch -d 2026-11-01T00:00:00Z {} +
  [ ! -e "$ws/src/auth/token.go" ] || touch -d 2026-11-20T12:00:00Z "$ws/src/auth/token.go"
  if [ "$name" = packer ] || [ "$name" = packer-flow ]; then
    mkdir -p "$state/data/nvim/site/pack/packer/start"
    ln -s "$REPO" "$state/data/nvim/site/pack/packer/start/charter-lsp"
  fi
  echo "# nvim $name: $(basename "$lua")"
  # Neovim's config, data (packpath), log, shada and swap files stay in $state.
  (cd "$ws" && env CHARTER_LSP="$BIN" CHARTER_WS="$ws" CHARTER_REPO="$REPO" CHARTER_INSTALL="$name" \
    CHARTER_EXPECT="$HERE/../testdata/expect.json" \
    XDG_CONFIG_HOME="$state/config" XDG_DATA_HOME="$state/data" XDG_STATE_HOME="$state/state" \
    XDG_CACHE_HOME="$state/cache" NVIM_LOG_FILE="$state/nvim.log" \
    timeout 180 nvim --headless -i NONE -n "$@" -c "luafile $HERE/$lua") || status=1
}

# -u NORC: no user config, but plugins and start packages load as usual.
run packer install.lua -u NORC
run packer-flow test.lua -u NORC
run lazy install.lua -u NORC --noplugin --cmd "set rtp^=$REPO"
WORKSPACE=verify run verify verify.lua -u NORC --noplugin --cmd "set rtp^=$REPO"
exit $status
