#!/bin/sh
# check-vsix.sh FILE.vsix GOOS-GOARCH [VERSION]: the package holds exactly one server
# binary, the one for that platform, where src/serverPath.ts looks
# (extension/bin/<GOOS>-<GOARCH>/), executable, built for that GOOS and GOARCH; its manifest
# names the matching VS Code target (and VERSION, when given); the license is inside.
set -eu
vsix=$1 plat=$2 version=${3:-}
os=${plat%-*} arch=${plat#*-}
exe=charter-lsp; [ "$os" = windows ] && exe=charter-lsp.exe
fail() { echo "check-vsix: $vsix: $*" >&2; exit 1; }

bins=$(unzip -Z1 "$vsix" | grep '^extension/bin/.' | grep -v '/$' || true)
[ "$bins" = "extension/bin/$plat/$exe" ] || fail "want only extension/bin/$plat/$exe, has: $(echo $bins)"
unzip -Z1 "$vsix" | grep -qx 'extension/LICENSE.txt\|extension/LICENSE' || fail "no LICENSE"
if [ "$os" != windows ]; then
  unzip -Z "$vsix" "extension/bin/$plat/$exe" | grep -q '^-rwx' || fail "extension/bin/$plat/$exe is not executable"
fi

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unzip -q -d "$tmp" "$vsix" "extension/bin/$plat/$exe" extension.vsixmanifest
info=$(go version -m "$tmp/extension/bin/$plat/$exe")
echo "$info" | grep -q "GOOS=$os\$" || fail "server is not built for GOOS=$os"
echo "$info" | grep -q "GOARCH=$arch\$" || fail "server is not built for GOARCH=$arch"
case $plat in
  linux-amd64) target=linux-x64 ;; linux-arm64) target=linux-arm64 ;;
  darwin-amd64) target=darwin-x64 ;; darwin-arm64) target=darwin-arm64 ;;
  windows-amd64) target=win32-x64 ;; windows-arm64) target=win32-arm64 ;;
  *) fail "unknown platform $plat" ;;
esac
grep -q "TargetPlatform=\"$target\"" "$tmp/extension.vsixmanifest" || fail "manifest does not name TargetPlatform=$target"
if [ -n "$version" ]; then
  grep -q "Version=\"$version\"" "$tmp/extension.vsixmanifest" || fail "manifest does not name Version=$version"
fi
echo "check-vsix: $vsix: only bin/$plat/$exe, $os/$arch, target $target"
