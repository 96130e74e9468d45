package main

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// A binary says which version it is however it was built: the Makefile's
// stamp, the module version of `go install …@v1.2.3`, or the commit of a
// build from a clone; `go install` builds used to say "dev".
func TestBuildVersion(t *testing.T) {
	info := func(main string, settings ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/charter-lsp/charter-lsp", Version: main}}
			for i := 0; i+1 < len(settings); i += 2 {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
			}
			return bi, true
		}
	}
	for _, c := range []struct {
		stamped string
		read    func() (*debug.BuildInfo, bool)
		want    string
	}{
		{"v0.3.0-4-gabc1234", info("v9.9.9"), "v0.3.0-4-gabc1234"},
		{"", info("v0.4.0"), "v0.4.0"},
		{"", info("(devel)", "vcs.revision", "0123456789abcdef0123", "vcs.modified", "false"), "dev-0123456789ab"},
		{"", info("(devel)", "vcs.revision", "0123456789abcdef0123", "vcs.modified", "true"), "dev-0123456789ab-dirty"},
		{"", info("(devel)"), "dev"},
		{"", func() (*debug.BuildInfo, bool) { return nil, false }, "dev"},
	} {
		if got := buildVersion(c.stamped, c.read); got != c.want {
			t.Errorf("buildVersion(%q, …) = %q, want %q", c.stamped, got, c.want)
		}
	}
}

// A plain `go build` (or `go install`) in a clone names the commit it was
// built from.
func TestBinaryNamesItsCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: the toolchain records no commit")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not built from a git clone")
	}
	bin := filepath.Join(t.TempDir(), "charter-lsp")
	// As `go build` and `go install` build by default (-buildvcs=auto),
	// whatever GOFLAGS this machine sets.
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Skipf("go build -buildvcs=true: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) == "charter-lsp dev\n" {
		t.Skip("the toolchain recorded no commit here (it does in a clone)")
	}
	// Go 1.24 on: a pseudo-version that ends in the commit; before: dev-<commit>.
	if !strings.Contains(string(out), string(head[:12])) {
		t.Errorf("--version says %q, want the commit %s in it", out, head[:12])
	}
}
