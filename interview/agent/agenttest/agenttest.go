// Package agenttest makes fake interview agents for tests: shell scripts
// with a scripted answer (or a scripted failure), and the built-in engine
// built as a separate agent program (testdata/builtinagent), so the
// agent's whole path can be driven from the package's own tests, the
// language server's and the CLI's. It also checks that an agent left no
// process behind.
//
// A test package that uses Builtin runs its tests through Main, which
// removes the build when they are done:
//
//	func TestMain(m *testing.M) { agenttest.Main(m) }
package agenttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Script writes a shell script to run as the agent and returns its path;
// body runs under /bin/sh with the seed's $1 (CHARTER_PATH) and $2 (MODE).
// The script is named fake-agent, which messages name it by.
func Script(t testing.TB, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake agents are shell scripts")
	}
	p := filepath.Join(t.TempDir(), "fake-agent")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Answering is a fake agent that prints json.
func Answering(t testing.TB, json string) string {
	t.Helper()
	return Script(t, "cat <<'EOF'\n"+json+"\nEOF")
}

// Marker is an agent that, if it ever runs, leaves the file marker
// behind (and answers an error).
func Marker(t testing.TB) (cmd, marker string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "the-agent-ran")
	return Script(t, fmt.Sprintf("touch %q\necho '{\"type\":\"error\",\"message\":\"ran\"}'", marker)), marker
}

var (
	mainRan     bool // Main is running this test binary's tests
	builtinOnce sync.Once
	builtinDir  string
	builtinBin  string
	builtinErr  error
)

// Main runs a test binary's tests (m.Run) and then removes the built-in
// agent if a test built it, so a test run leaves nothing in the
// temporary folder. A test package that calls Builtin has its TestMain
// call Main; the test binary exits with m.Run's code when TestMain
// returns.
func Main(m *testing.M) {
	mainRan = true
	defer func() {
		if builtinDir != "" {
			os.RemoveAll(builtinDir)
		}
	}()
	m.Run()
}

// Builtin is the built-in engine behind the agent's contract
// (testdata/builtinagent, built once per test binary into a temporary
// folder that Main removes), wrapped in a script that appends each
// call's MODE to log (when log is not ""). It fails the test unless the
// package's TestMain calls Main: without it the build would outlive the
// run (6 MB a test binary).
//
// Built per test binary rather than kept in a shared cache: a build
// keyed by content would need the whole module's sources hashed (the
// agent is the interview engine), and several checkouts at different
// commits would then each keep, or prune, their own.
func Builtin(t testing.TB, log string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake agents are shell scripts")
	}
	if !mainRan {
		t.Fatal("agenttest.Builtin needs the package's TestMain to call agenttest.Main, which removes the build")
	}
	builtinOnce.Do(func() {
		_, self, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(self), "..", "testdata", "builtinagent")
		builtinDir, builtinErr = os.MkdirTemp("", "charter-builtinagent-")
		if builtinErr != nil {
			return
		}
		builtinBin = filepath.Join(builtinDir, "builtinagent")
		goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			goBin = "go"
		}
		cmd := exec.Command(goBin, "build", "-o", builtinBin, ".")
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			builtinErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if builtinErr != nil {
		t.Fatalf("building the built-in agent: %v", builtinErr)
	}
	body := fmt.Sprintf("exec %q \"$@\"", builtinBin)
	if log != "" {
		body = fmt.Sprintf("echo \"$2\" >> %q\n", log) + body
	}
	return Script(t, body)
}

// WaitPid waits for a fake agent to write its process id ("echo $$ >
// file"); the agent leads its own process group, so it is the group's id.
func WaitPid(t testing.TB, file string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(file)
		if n, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent wrote no pid to %s", file)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// WaitGroupGone fails unless process group pgid has no running process
// within a few seconds (SIGKILL is delivered at once; reaping may lag).
func WaitGroupGone(t testing.TB, pgid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for GroupAlive(pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d is still running: the agent left an orphan", pgid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// GroupAlive reports whether a process of group pgid is running (not a
// zombie waiting to be reaped), by /proc; false where there is none.
func GroupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces.
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			return true
		}
	}
	return false
}
