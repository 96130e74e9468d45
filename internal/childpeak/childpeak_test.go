package childpeak_test

import (
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/childpeak"
)

func TestMain(m *testing.M) {
	childpeak.Serve()
	os.Exit(m.Run())
}

// ballast keeps the test process's own memory high, as a test that built a
// large input would.
var ballast []byte

// A small child measures small though its parent is large, a large one
// large, and the exit code comes through.
func TestPeakIsTheChilds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("rusage's maxrss in kilobytes is Linux's")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	ballast = make([]byte, 64<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}

	cmd := exec.Command(sh, "-c", "exit 3")
	direct := exec.Command(sh, "-c", "exit 3")
	if err := direct.Run(); direct.ProcessState == nil {
		t.Fatal(err)
	}
	peak := childpeak.Wrap(cmd, t.TempDir())
	cmd.Run()
	if got := cmd.ProcessState.ExitCode(); got != 3 {
		t.Errorf("exit code through the launcher %d, want 3", got)
	}
	u, ok := peak()
	if small := u.Peak; !ok || small > 48<<20 {
		t.Errorf("sh through the launcher: %d bytes (measured %v), want under 48 MB", small, ok)
	}
	if d := maxrss(direct); d < 64<<20 {
		t.Logf("started directly, sh measured %d MB: this kernel does not fold the parent's mark in", d>>20)
	}

	// The launcher's child's own peak shows: the test binary itself run
	// as a program that allocates 64 MB.
	big := exec.Command(os.Args[0], "-test.run=^TestAllocate$")
	big.Env = append(os.Environ(), "CHILDPEAK_ALLOCATE=1")
	peak = childpeak.Wrap(big, t.TempDir())
	if out, err := big.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if u, ok := peak(); !ok || u.Peak < 64<<20 || u.Wall <= 0 {
		t.Errorf("a child that touched 64 MB measured %+v (measured %v)", u, ok)
	}
	ballast = nil
}

// TestAllocate touches 64 MB when run as TestPeakIsTheChilds's child.
func TestAllocate(t *testing.T) {
	if os.Getenv("CHILDPEAK_ALLOCATE") == "" {
		t.Skip("run by TestPeakIsTheChilds")
	}
	b := make([]byte, 64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	ballast = b
}

func maxrss(c *exec.Cmd) int64 { return rusageMaxrss(c.ProcessState) }
