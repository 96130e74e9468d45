#!/bin/sh
# Installs what the editor end-to-end tests need on a clean Debian machine:
#   apt:  neovim, chromium, ripgrep and the toolchain code-server's native modules build with
#   npm:  this folder's test dependencies (npm ci), and code-server 4.100.3 (VS Code 1.100.3,
#         the newest release that runs on Node 20) into a cache folder, without GitHub downloads.
# Idempotent: each step is skipped when its result is already there.
#   E2E_CACHE  where code-server goes (default: editors/.e2e-cache, gitignored)
#   SKIP_APT=1 don't touch apt (e.g. not root; install the packages yourself)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${E2E_CACHE:-$HERE/../.e2e-cache}
CS_VERSION=4.100.3
CS_DIR=$CACHE/code-server-$CS_VERSION

# --- apt -------------------------------------------------------------------------------
APT_PKGS="neovim chromium ripgrep build-essential python3 libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev"
missing=""
for p in $APT_PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "${SKIP_APT:-}" = 1 ] || [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing Debian packages:$missing (run as root or install them)" >&2
    exit 1
  fi
  echo "install-deps: apt-get install$missing"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

# --- this folder's npm packages (playwright-core, the LSP protocol client) -----------------
if [ ! -d "$HERE/node_modules/playwright-core" ] || [ ! -d "$HERE/node_modules/vscode-languageserver-protocol" ]; then
  (cd "$HERE" && npm ci --no-audit --no-fund)
fi

# --- code-server ----------------------------------------------------------------------------
if [ -x "$CS_DIR/node_modules/.bin/code-server" ] && [ -f "$CS_DIR/.complete" ]; then
  echo "install-deps: code-server $CS_VERSION already in $CS_DIR"
  exit 0
fi
echo "install-deps: installing code-server $CS_VERSION into $CS_DIR (takes a few minutes)"
rm -rf "$CS_DIR"
mkdir -p "$CS_DIR"
cd "$CS_DIR"
printf '{ "name": "code-server-cache", "private": true }\n' > package.json
# Scripts off: code-server's postinstall refuses to run as root and its nested install would
# download ripgrep from GitHub. We do its steps by hand below.
npm install --no-audit --no-fund --ignore-scripts "code-server@$CS_VERSION"
npm rebuild argon2          # no prebuilt download here: builds with node-gyp
cd node_modules/code-server/lib/vscode
npm install --no-audit --no-fund --omit=dev --ignore-scripts
# @vscode/ripgrep's postinstall downloads rg; give it Debian's, and it leaves bin/ alone.
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
# Native modules (node-pty, spdlog, kerberos, watcher…) against the system Node headers;
# node-pty's postinstall runs `npx node-gyp`, which must not prompt.
npm_config_yes=true npm rebuild
# The rest of code-server's postinstall.
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && npm install --no-audit --no-fund --omit=dev)
touch "$CS_DIR/.complete"
echo "install-deps: code-server ready: $CS_DIR/node_modules/.bin/code-server"
