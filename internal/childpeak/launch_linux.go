package childpeak

import (
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// launch runs args with this process's standard streams, writes what it cost
// (Usage) to out and returns its exit code. The child dies with
// the launcher, so a deadline that kills the launcher ends both.
func launch(out string, args []string) int {
	if len(args) == 0 {
		os.Stderr.WriteString("childpeak: no command to run\n")
		return 2
	}
	runtime.LockOSThread() // Pdeathsig follows the thread that started the child
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = without(os.Environ(), env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		os.Stderr.WriteString("childpeak: " + err.Error() + "\n")
		return 127
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		b, _ := json.Marshal(Usage{Peak: ru.Maxrss * 1024, Wall: wall})
		os.WriteFile(out, b, 0o600)
	}
	return cmd.ProcessState.ExitCode()
}
