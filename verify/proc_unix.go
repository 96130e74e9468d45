//go:build unix

package verify

import (
	"os/exec"
	"syscall"
)

// shellCommand runs command with the POSIX shell.
func shellCommand(command string) *exec.Cmd {
	return exec.Command("/bin/sh", "-c", command)
}

// inGroup starts cmd as the leader of a new process group, so that the
// group can be signalled as one.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM (kill: SIGKILL) to cmd's process group. The
// group's id is the leader's pid; while any member lives no new process
// can take that id, so the signal reaches only what the command started.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// reapGroup kills what the command left running in its group after it
// exited.
func reapGroup(cmd *exec.Cmd) { signalGroup(cmd, true) }
