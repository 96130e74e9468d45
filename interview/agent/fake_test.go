package agent

import (
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

// fakeAgent writes a shell script to run as the agent and returns its
// path; body runs under /bin/sh with the seed's $1 (CHARTER_PATH) and $2
// (MODE).
func fakeAgent(t *testing.T, body string) string {
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

// answering is a fake agent that prints json (single-quoted for the shell).
func answering(t *testing.T, json string) string {
	t.Helper()
	return fakeAgent(t, "cat <<'EOF'\n"+json+"\nEOF")
}

var (
	builtinOnce sync.Once
	builtinBin  string
	builtinErr  error
)

// builtinAgent is testdata/builtinagent built once: the built-in engine
// behind the agent's contract.
func builtinAgent(t *testing.T) string {
	t.Helper()
	builtinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "charter-builtinagent-")
		if err != nil {
			builtinErr = err
			return
		}
		builtinBin = filepath.Join(dir, "builtinagent")
		if runtime.GOOS == "windows" {
			builtinBin += ".exe"
		}
		goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			goBin = "go"
		}
		out, err := exec.Command(goBin, "build", "-o", builtinBin, "./testdata/builtinagent").CombinedOutput()
		if err != nil {
			builtinErr = err
			builtinBin = string(out)
		}
	})
	if builtinErr != nil {
		t.Fatalf("building the built-in agent: %v\n%s", builtinErr, builtinBin)
	}
	return builtinBin
}

// groupAlive reports whether a process of group pgid is still running
// (not a zombie waiting to be reaped), by /proc; false where there is no
// /proc to read.
func groupAlive(t *testing.T, pgid int) bool {
	t.Helper()
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
		// pid (comm) state ppid pgrp …: comm may hold spaces, so read after
		// its closing parenthesis.
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid && f[0] != "Z" {
			return true
		}
	}
	return false
}

// waitGroupGone fails unless group pgid has no running process within a
// few seconds (SIGKILL is delivered at once, reaping may lag).
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	if pgid <= 0 {
		t.Fatal("the agent did not say its process id")
	}
	deadline := time.Now().Add(5 * time.Second)
	for groupAlive(t, pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d is still running: the agent left an orphan", pgid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readPid reads the process id a fake agent wrote to file.
func readPid(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
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
