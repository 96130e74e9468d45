package hostile_test

import (
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/childpeak"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// A measured run goes through this test binary as childpeak's launcher, so
// the bombs this process built are not counted as the binary's memory.
func TestMain(m *testing.M) {
	childpeak.Serve()
	os.Exit(m.Run())
}

// peakOf makes cmd report its peak memory in bytes, to call once after
// cmd was waited for (-1 when nothing was measured).
func peakOf(t testing.TB, cmd *exec.Cmd) (peak func() int64) {
	t.Helper()
	p := childpeak.Wrap(cmd, t.TempDir())
	return func() int64 {
		if u, ok := p(); ok {
			return u.Peak
		}
		return -1
	}
}

// measuringBinary is the built binary, for a test that bounds its peak
// memory: it builds the binary (not under -short) and measures on Linux
// only, where rusage gives the peak.
func measuringBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("peak memory from rusage is Linux's")
	}
	return testfixture.Server(t)
}
