//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// A project with a pi charter and a .charters charter whose criteria run
// shell commands.
func verifyProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{
		".pi/charters/v/charter.md":                 "# Charter: v\n\n## Objective\n\nCheck.\n\n## Commands\n\nhello: echo hello from the commands\n",
		".pi/charters/v/state.json":                 `{"charterId": "v", "schemaVersion": "3", "objective": "check", "status": "active"}`,
		".pi/charters/v/criteria.md":                "# Criteria\n\n### VAL-V-001 — passes\nVerifier: command\nCommand: hello\n\n### VAL-V-002 — fails\nVerifier: command\nCommand: echo no >&2; exit 4\n\n### VAL-V-003 — waits\nVerifier: command\nCommand: sleep 300 & echo $!; wait\n\n### VAL-V-004 — marks\nVerifier: command\nCommand: touch ran-it\n",
		".charters/20260701-000000-ship/charter.md": "## Objective\nShip.\n## Criteria\n### C1. Ships\nCommand: echo shipped\nStatus: pending\n",
		".charters/20260701-000000-ship/state.json": `{"charterId":"20260701-000000-ship","schemaVersion":"file-interface","objective":"Ship.","status":"active"}`,
	})
	return root
}

func verifyCLI(t *testing.T, bin, dir string, stdin *os.File, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"verify"}, args...)...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	code = waitExit(t, cmd, testfixture.Timeout(30*time.Second))
	return out.String(), errOut.String(), code
}

func TestVerifyCLI(t *testing.T) {
	bin := testfixture.Server(t)
	root := verifyProject(t)
	dir := filepath.Join(root, ".pi/charters/v")

	// A ## Commands entry, confirmed with --yes: the command is printed
	// first, its output goes to stdout, the evidence is recorded.
	out, errOut, code := verifyCLI(t, bin, root, nil, "VAL-V-001", "--yes")
	if code != 0 || out != "hello from the commands\n" || !strings.Contains(errOut, "\n\necho hello from the commands\n") ||
		!strings.Contains(errOut, `(the ## Commands entry "hello" of charter.md)`) || !strings.Contains(errOut, "VAL-V-001 pass: `echo hello from the commands` exited 0") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	state, _ := os.ReadFile(filepath.Join(dir, "criterion-state.json"))
	var st struct {
		Criteria map[string]struct{ Outcome, LastEvidencePath, Source string }
	}
	if err := json.Unmarshal(state, &st); err != nil || st.Criteria["VAL-V-001"].Outcome != "pass" || st.Criteria["VAL-V-001"].Source != "verifier" {
		t.Fatalf("criterion-state.json %s %v", state, err)
	}
	row, _ := os.ReadFile(filepath.Join(dir, st.Criteria["VAL-V-001"].LastEvidencePath))
	if !strings.Contains(string(row), `"commandKey": "hello"`) || !strings.Contains(string(row), `/output.log"`) {
		t.Errorf("evidence %s", row)
	}

	// A failing command: recorded fail, exit 1.
	if _, errOut, code := verifyCLI(t, bin, root, nil, "VAL-V-002", "--yes", "--charter", dir); code != 1 || !strings.Contains(errOut, "VAL-V-002 fail: `echo no >&2; exit 4` exited 4") {
		t.Errorf("fail: exit %d, %q", code, errOut)
	}

	// Without a terminal and without --yes nothing runs.
	out, errOut, code = verifyCLI(t, bin, root, nil, "VAL-V-004")
	if code != 2 || out != "" || !strings.Contains(errOut, "pass --yes to run it") || !strings.Contains(errOut, "touch ran-it") {
		t.Errorf("no terminal: exit %d, %q, %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, "ran-it")); err == nil {
		t.Fatal("ran without confirmation")
	}

	// A .charters criterion: its Status line.
	if _, errOut, code := verifyCLI(t, bin, root, nil, "C1", "--yes"); code != 0 {
		t.Fatalf("C1: exit %d, %q", code, errOut)
	}
	charter, _ := os.ReadFile(filepath.Join(root, ".charters/20260701-000000-ship/charter.md"))
	if !strings.Contains(string(charter), "\nStatus: pass — `echo shipped` exited 0 in ") || !strings.Contains(string(charter), ": shipped (output: work/verify/C1/") {
		t.Errorf("charter.md:\n%s", charter)
	}

	// Usage errors.
	for _, args := range [][]string{{}, {"VAL-V-001", "VAL-V-002"}, {"VAL-NOPE", "--yes"}, {"VAL-V-001", "--timeout", "0s"}} {
		if _, errOut, code := verifyCLI(t, bin, root, nil, args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}

// On a terminal the CLI asks: "n" runs nothing, "y" runs it.
func TestVerifyCLIAsksOnATerminal(t *testing.T) {
	bin := testfixture.Server(t)
	root := verifyProject(t)
	for _, answer := range []string{"n\n", "y\n"} {
		tty, control := openTerminal(t)
		control.Write([]byte(answer))
		_, errOut, code := verifyCLI(t, bin, root, tty, "VAL-V-004")
		_, err := os.Stat(filepath.Join(root, "ran-it"))
		switch answer {
		case "n\n":
			if code != 1 || err == nil || !strings.Contains(errOut, "Run it? [y/N] Not run; nothing recorded.") {
				t.Errorf("n: exit %d, ran %v, %q", code, err == nil, errOut)
			}
		case "y\n":
			if code != 0 || err != nil {
				t.Errorf("y: exit %d, ran %v, %q", code, err == nil, errOut)
			}
		}
	}
}

// Ctrl-C stops the command and everything it started, and records nothing.
func TestVerifyCLIInterrupted(t *testing.T) {
	bin := testfixture.Server(t)
	root := verifyProject(t)
	cmd := exec.Command(bin, "verify", "VAL-V-003", "--yes")
	cmd.Dir = root
	stdout, _ := cmd.StdoutPipe()
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 32)
	n, _ := stdout.Read(line)
	pid, err := strconv.Atoi(strings.TrimSpace(string(line[:n])))
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("no child pid: %q", line[:n])
	}
	cmd.Process.Signal(syscall.SIGINT)
	if code := waitExit(t, cmd, testfixture.Timeout(30*time.Second)); code != 130 || !strings.Contains(errOut.String(), "Interrupted; nothing recorded.") {
		t.Errorf("exit %d, %q", code, errOut.String())
	}
	deadline := time.Now().Add(testfixture.Timeout(5 * time.Second))
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command's child %d outlived the interrupt", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(root, ".pi/charters/v/criterion-state.json")); err == nil {
		t.Error("an interrupted run recorded something")
	}
}
