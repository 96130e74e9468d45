package testfixture

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// Server builds the charter-lsp binary into the test's temporary folder and
// returns its path, for tests that drive the real process (stdio, parallel
// CLI runs).
func Server(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "charter-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/charter-lsp/charter-lsp/cmd/charter-lsp").CombinedOutput(); err != nil {
		t.Fatalf("go build charter-lsp: %v\n%s", err, out)
	}
	return bin
}
