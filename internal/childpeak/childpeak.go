// Package childpeak measures a child process's own peak memory and wall
// time.
//
// The peak memory rusage reports for a child is not the child's alone: Go
// starts a program with clone(CLONE_VM|CLONE_VFORK), and at exec Linux folds
// the high-water mark of the memory the child leaves — the parent's — into
// the child's maxrss. A test or benchmark that built a large input before it
// ran the program would measure itself. So a measured command runs through
// the measuring program started afresh as a launcher: a small process whose
// child's maxrss is the child's own (plus the launcher's few megabytes).
package childpeak

import (
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Usage is what a child cost.
type Usage struct {
	Peak int64         `json:"peak"` // bytes of memory at its highest
	Wall time.Duration `json:"wall"` // from start to exit
}

// env names the file a launcher writes its child's peak memory to.
const env = "CHARTER_CHILDPEAK_FILE"

// Serve makes this process a launcher when Wrap started it as one: it runs
// the command, writes its peak memory and exits with its exit code. Call it
// first in main or TestMain; otherwise it returns at once.
func Serve() {
	if out := os.Getenv(env); out != "" {
		os.Exit(launch(out, os.Args[1:]))
	}
}

// Wrap makes cmd run through a launcher (this program, which must call
// Serve) and returns what cmd's program cost, to call once cmd was waited
// for; ok is false when nothing was measured (not on Linux, or the program
// never ran), and it may be called once. dir is a folder for the
// launcher's report ("": the system's temporary folder).
func Wrap(cmd *exec.Cmd, dir string) (usage func() (u Usage, ok bool)) {
	none := func() (Usage, bool) { return Usage{}, false }
	if runtime.GOOS != "linux" {
		return none
	}
	self, err := os.Executable()
	if err != nil {
		return none
	}
	f, err := os.CreateTemp(dir, "peak")
	if err != nil {
		return none
	}
	out := f.Name()
	f.Close()
	cmd.Args = append([]string{self, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = self
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, env+"="+out)
	return func() (Usage, bool) {
		var u Usage
		b, err := os.ReadFile(out)
		os.Remove(out)
		if err != nil || json.Unmarshal(b, &u) != nil || u.Peak == 0 {
			return Usage{}, false
		}
		return u, true
	}
}

// without is env without name's entries.
func without(environ []string, name string) []string {
	kept := environ[:0:0]
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); k == name {
			continue
		}
		kept = append(kept, kv)
	}
	return kept
}
