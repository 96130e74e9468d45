//go:build !unix

package verify

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// shellCommand runs command with cmd.exe, the command line passed as
// written (cmd.exe does its own quoting).
func shellCommand(command string) *exec.Cmd {
	shell := comspec()
	cmd := exec.Command(shell)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + shell + `" /d /s /c "` + command + `"`}
	return cmd
}

func comspec() string {
	if c := os.Getenv("ComSpec"); c != "" {
		return c
	}
	return "cmd.exe"
}

// inGroup: on Windows the process tree is ended with taskkill /t.
func inGroup(*exec.Cmd) {}

// signalGroup ends the command and every process it started (taskkill /t
// /f); Windows has no gentler signal for a console process tree.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	_ = exec.Command("taskkill", "/t", "/f", "/pid", strconv.Itoa(cmd.Process.Pid)).Run()
	if kill {
		_ = cmd.Process.Kill()
	}
}

// reapGroup does nothing on Windows: once the command has exited its
// process id may belong to another program, and taskkill /t would end
// that program's tree.
func reapGroup(*exec.Cmd) {}
