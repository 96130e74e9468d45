//go:build !unix

package agent

import (
	"os"
	"os/exec"
)

// ownGroup: without Unix process groups the agent's own process is what
// charter-lsp ends (Windows: a wrapper script's children may outlive it).
func ownGroup(*exec.Cmd) {}

func killGroup(pid int) error {
	if pid <= 0 {
		return nil
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil
	}
	_ = p.Kill()
	return nil
}
