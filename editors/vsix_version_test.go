package editors

import (
	"os/exec"
	"strings"
	"testing"
)

// The .vsix carries the version of the build (the git tag's, as the
// server's binary does), not package.json's fixed 0.1.0: vsce gets it on
// the command line, and package.json is left as it is.
func TestVsixVersionFromTheTag(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	for _, c := range []struct{ version, want string }{
		{"v1.2.3", "1.2.3"},
		{"v1.2.3-4-gabc1234-dirty", "1.2.3-4-gabc1234-dirty"},
		{"abc1234", "0.0.0-abc1234"},
		{"41e0413", "0.0.0-41e0413"}, // a commit that starts with a digit is no version
		{"41e0413-dirty", "0.0.0-41e0413-dirty"},
		{"dev", "0.0.0-dev"},
	} {
		out, err := exec.Command("make", "-n", "-s", "-C", "vscode", "vsix-target", "TARGET=linux-x64", "OUT=x.vsix", "VERSION="+c.version).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n: %v\n%s", err, out)
		}
		var vsce string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "vsce package") {
				vsce = l
			}
		}
		if !strings.Contains(vsce, " "+c.want+" ") || !strings.Contains(vsce, "--no-update-package-json") {
			t.Errorf("VERSION=%s: vsce runs as %q, want version %s without touching package.json", c.version, vsce, c.want)
		}
	}
}
