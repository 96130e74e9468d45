//go:build unix

package agent

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so everything it
// starts (an LLM client's helpers) is ended with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup ends the process group pid leads: every process in it, at once
// (SIGKILL: an agent past its time gets no grace to print more). A group
// already gone is not an error.
func killGroup(pid int) error {
	if pid <= 0 {
		return nil
	}
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
