package hostile_test

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
)

// launch runs args with this process's standard streams, writes its peak
// memory in bytes to out and returns its exit code. The child dies with
// the launcher, so a deadline that kills the launcher ends both.
func launch(out string, args []string) int {
	if len(args) == 0 {
		return 2
	}
	runtime.LockOSThread() // Pdeathsig follows the thread that started the child
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = withoutEnv(os.Environ(), peakEnv)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	err := cmd.Run()
	if cmd.ProcessState == nil {
		os.Stderr.WriteString("launcher: " + err.Error() + "\n")
		return 127
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		os.WriteFile(out, []byte(strconv.FormatInt(ru.Maxrss*1024, 10)), 0o600)
	}
	return cmd.ProcessState.ExitCode()
}

func withoutEnv(env []string, name string) []string {
	kept := env[:0:0]
	for _, kv := range env {
		if len(kv) > len(name) && kv[:len(name)+1] == name+"=" {
			continue
		}
		kept = append(kept, kv)
	}
	return kept
}
