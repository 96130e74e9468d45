package hostile_test

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
)

// A child's peak memory as rusage reports it is not the child's alone: Go
// starts a program with clone(CLONE_VM|CLONE_VFORK), and at exec Linux
// folds the high-water mark of the memory it leaves — the test process's
// own, tens of megabytes after a bomb is built — into the child's maxrss.
// So a measured run goes through this test binary started afresh as a
// launcher: a small process whose child's maxrss is the child's own.

// peakEnv names the file a launcher writes its child's peak memory to.
const peakEnv = "CHARTER_HOSTILE_PEAK_FILE"

func TestMain(m *testing.M) {
	if out := os.Getenv(peakEnv); out != "" {
		os.Exit(launch(out, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// measured makes cmd run through a launcher and returns the peak memory in
// bytes of cmd's program, to call after cmd was waited for (-1 when
// nothing was measured).
func measured(t *testing.T, cmd *exec.Cmd) (peak func() int64) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return func() int64 { return -1 }
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir() + "/peak"
	cmd.Args = append([]string{self}, append([]string{cmd.Path}, cmd.Args[1:]...)...)
	cmd.Path = self
	cmd.Env = append(os.Environ(), peakEnv+"="+out)
	return func() int64 {
		b, err := os.ReadFile(out)
		if err != nil {
			return -1
		}
		n, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return -1
		}
		return n
	}
}
