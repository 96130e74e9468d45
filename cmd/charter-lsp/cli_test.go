package main

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// cli runs charter-lsp in-process in dir with stdin, as a user would.
func cli(t *testing.T, dir, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = inDir(t, dir, func() int { return run(args, strings.NewReader(stdin), &out, &errOut) })
	return out.String(), errOut.String(), code
}

// Every command answers -h, --help and --version on stdout with exit 0,
// and `charter-lsp help CMD` is `charter-lsp CMD -h`.
func TestHelpAndVersionOnEveryCommand(t *testing.T) {
	dir := t.TempDir()
	// The version is this test binary's (buildVersion, version_test.go):
	// "dev" in a working tree, a pseudo-version in a clean clone.
	wantVersion := "charter-lsp " + version + "\n"
	out, errOut, code := cli(t, dir, "", "--version")
	if code != 0 || version == "" || out != wantVersion || errOut != "" {
		t.Fatalf("--version: exit %d, %q, %q", code, out, errOut)
	}
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		out, errOut, code := cli(t, dir, "", args...)
		if code != 0 || !strings.Contains(out, "Commands:") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		for _, c := range commands {
			if !strings.Contains(out, "  "+c.name+" ") {
				t.Errorf("%v does not list %s", args, c.name)
			}
		}
	}
	for _, c := range commands {
		for _, flag := range []string{"-h", "--help"} {
			out, errOut, code := cli(t, dir, "", c.name, flag)
			if code != 0 || !strings.Contains(out, "Usage: charter-lsp "+c.name) || errOut != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", c.name, flag, code, out, errOut)
			}
		}
		if help, _, _ := cli(t, dir, "", "help", c.name); help != mustRun(t, dir, c.name, "-h") {
			t.Errorf("help %s differs from %s -h", c.name, c.name)
		}
		out, errOut, code := cli(t, dir, "", c.name, "--version")
		if code != 0 || out != wantVersion || errOut != "" {
			t.Errorf("%s --version: exit %d, %q, %q", c.name, code, out, errOut)
		}
	}
	// Help after other flags and arguments, as people add it last.
	if out, _, code := cli(t, dir, "", "check", "--format", "json", "some/path", "--help"); code != 0 || !strings.HasPrefix(out, "Usage: charter-lsp check") {
		t.Errorf("check … --help: exit %d, %q", code, out)
	}
}

func mustRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, _, _ := cli(t, dir, "", args...)
	return out
}

// A usage error is one line on stderr that names the flag (or the
// argument) at fault, then where help is; the exit status is 2.
func TestUsageErrorsNameTheFlag(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--stdioo"}, "charter-lsp: unknown flag --stdioo (did you mean --stdio?)"},
		{[]string{"frobnicate"}, `charter-lsp: unknown command "frobnicate"`},
		{[]string{"help", "frobnicate"}, `charter-lsp: unknown command "frobnicate"`},
		{[]string{"serve", "--log-level", "loud"}, `charter-lsp serve: invalid value "loud" for flag --log-level: want debug, info, warn or error`},
		{[]string{"serve", "extra"}, `charter-lsp serve: unexpected argument "extra"`},
		{[]string{"version", "extra"}, `charter-lsp version: unexpected argument "extra"`},
		{[]string{"check", "--formt", "json"}, "charter-lsp check: unknown flag --formt (did you mean --format?)"},
		{[]string{"check", "--format", "xml"}, `charter-lsp check: invalid value "xml" for flag --format: want text, json, sarif or github`},
		{[]string{"check", "--format"}, "charter-lsp check: --format needs a value"},
		{[]string{"check", "--max-warnings", "many"}, `charter-lsp check: invalid value "many" for --max-warnings: want a number`},
		{[]string{"check", "--max-warnings", "-5"}, "charter-lsp check: --max-warnings -5: give a number of warnings, or -1 for no limit"},
		{[]string{"check", "--color", "sometimes"}, `charter-lsp check: invalid value "sometimes" for flag --color: want auto, always or never`},
		{[]string{"check", "--quiet=perhaps"}, `charter-lsp check: invalid value "perhaps" for --quiet: want true or false`},
		{[]string{"check", "--fix", "--diff"}, "charter-lsp check: --fix writes the fixes and --diff only shows them: give one of them"},
		{[]string{"check", "--diff", "--format", "json"}, "charter-lsp check: --diff prints a unified diff on stdout; it cannot be combined with --format json"},
		{[]string{"check", "--fix", "-"}, "charter-lsp check: --fix cannot rewrite stdin; use --diff to see the fixes"},
		{[]string{"check", "--stdin-filename", "charter.md", "."}, "charter-lsp check: --stdin-filename names the text read from stdin: give - as the PATH"},
		{[]string{"check", "-", "-"}, "charter-lsp check: - (stdin) given 2 times: stdin holds one file"},
		{[]string{"check", "--config", "nope.jsonc"}, "charter-lsp check: --config: open nope.jsonc: no such file or directory"},
		{[]string{"status", "a", "b"}, "charter-lsp status: give at most one DIR, not 2"},
		{[]string{"status", "--freshness", "ctime"}, `charter-lsp status: invalid value "ctime" for flag --freshness: want mtime or git`},
		{[]string{"check", "--freshness", "ctime"}, `charter-lsp check: invalid value "ctime" for flag --freshness: want mtime or git`},
		{[]string{"status", "--now", "yesterday"}, `charter-lsp status: --now "yesterday": want an RFC 3339 time`},
		{[]string{"status", "--config", "nope.jsonc"}, "charter-lsp status: --config: open nope.jsonc: no such file or directory"},
		{[]string{"record"}, "charter-lsp record: give the VAL id to record"},
		{[]string{"record", "VAL-SESS-002", "VAL-SESS-003", "--outcome", "pass"}, "charter-lsp record: give one VAL id, not 2 (VAL-SESS-002 VAL-SESS-003)"},
		{[]string{"record", "VAL-SESS-002", "--summary", "s"}, "charter-lsp record: --outcome is required: pass, fail or partial"},
		{[]string{"record", "VAL-SESS-002", "--outcome", "passed"}, `charter-lsp record: invalid value "passed" for flag --outcome: want pass, fail or partial`},
		{[]string{"record", "VAL-SESS-002", "--outcome", "pass"}, "charter-lsp record: --summary is required"},
		{[]string{"record", "VAL-SESS-002", "--outcome", "pass", "--summary", "ok"}, "charter-lsp record: manual evidence needs a reason: add --because '<why this outcome is right>', or --source verifier"},
		{[]string{"record", "VAL-SESS-002", "--outcome", "pass", "--summary", "ok", "--source", "agent"}, `charter-lsp record: invalid value "agent" for flag --source: want manual, verifier or subagent`},
		{[]string{"record", "VAL-SESS-02", "--outcome", "pass", "--summary", "ok", "--source", "verifier"}, `charter-lsp record: unknown criterion "VAL-SESS-02"; did you mean VAL-SESS-002, `},
		{[]string{"record", "VAL-SESS-002", "--outcome", "pass", "--summary", "ok", "--source", "verifier", "--feature", "m3"}, `charter-lsp record: --feature: feature "m3" is not a milestone of criteria.md; milestones: m1-sessions, m2-rollout`},
		{[]string{"record", "VAL-SESS-002", "--outcome", "pass", "--summary", "ok", "--source", "verifier", "--details", "[1]"}, "charter-lsp record: --details must be a JSON object"},
		{[]string{"record", "VAL-SESS-002", "--outcome", "pass", "--summary", "ok", "--source", "verifier", "--now", "now"}, `charter-lsp record: --now "now": want an RFC 3339 time`},
		{[]string{"record", "VAL-SESS-002", "--outcome", "pass", "--summary", "ok", "--source", "verifier", "--charter", "nowhere"}, "charter-lsp record: --charter: "},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := cli(t, project, "", tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.HasPrefix(errOut, tc.want) || !strings.Contains(errOut, "Run 'charter-lsp") {
				t.Errorf("stderr %q, want %q and where help is", errOut, tc.want)
			}
			if strings.Contains(errOut, "entry 0") {
				t.Errorf("stderr shows the internal entry prefix: %q", errOut)
			}
			if out != "" {
				t.Errorf("a usage error wrote to stdout: %q", out)
			}
		})
	}
}

// Flags may come after the paths, and "--" ends them: a file named like a
// flag is still a path.
func TestFlagsAnywhereAndDoubleDash(t *testing.T) {
	root := testfixture.Copy(t, ".")
	if out, _, code := cli(t, root, "", "check", "rp1-real", "--format", "json"); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("flags after the path: exit %d, %q", code, out)
	}
	os.Mkdir(root+"/-odd", 0o755)
	os.WriteFile(root+"/-odd/charter.md", []byte("# Project Charter: Odd\n\n## Problem & Context\n\nTBD\n"), 0o644)
	out, errOut, code := cli(t, root, "", "check", "--format", "json", "--", "-odd")
	if code != 0 || !strings.Contains(out, "-odd/charter.md") {
		t.Errorf("-- then -odd: exit %d, %q, %q", code, out, errOut)
	}
	// "--" as a flag's value is a value.
	if _, errOut, code := cli(t, root, "", "record", "VAL-X", "--summary", "--", "--outcome", "pass"); code != 2 || strings.Contains(errOut, "--outcome is required") {
		t.Errorf("--summary --: exit %d, %q", code, errOut)
	}
}

// Typed in a terminal, bare charter-lsp prints help instead of waiting for
// LSP frames that will never come.
func TestBareCommandInATerminalPrintsHelp(t *testing.T) {
	tty, control := openTerminal(t)
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(nil, tty, &out, &errOut) }()
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(out.String(), "Commands:") || !strings.Contains(out.String(), "charter-lsp serve") {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
		}
	case <-time.After(testfixture.Timeout(10 * time.Second)):
		control.Close() // end the server's read
		t.Fatal("bare charter-lsp with a terminal on stdin waited instead of printing help")
	}
}

// The real binary: with stdin a pipe, bare charter-lsp is the language
// server (editors launch it so); --version and unknown flags answer at
// once instead of serving.
func TestBinaryServesOnAPipeOnly(t *testing.T) {
	bin := testfixture.Server(t)
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"--version"}, 0, "charter-lsp " + binaryVersion(t, bin) + "\n", ""},
		{[]string{"--nope"}, 2, "", "charter-lsp: unknown flag --nope"},
		{[]string{"check", "--version"}, 0, "charter-lsp " + binaryVersion(t, bin) + "\n", ""},
	} {
		cmd := exec.Command(bin, tc.args...)
		stdin, _ := cmd.StdinPipe() // never closed: serving would hang
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		code := waitExit(t, cmd, testfixture.Timeout(20*time.Second))
		stdin.Close()
		if code != tc.code || out.String() != tc.out || !strings.HasPrefix(errOut.String(), tc.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out.String(), errOut.String())
		}
	}

	cmd := exec.Command(bin)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
	reply := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		var n int
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				reply <- "read: " + err.Error()
				return
			}
			if line == "\r\n" {
				break
			}
			fmt.Sscanf(line, "Content-Length: %d", &n)
		}
		b := make([]byte, n)
		io.ReadFull(r, b)
		reply <- string(b)
	}()
	select {
	case got := <-reply:
		if !strings.Contains(got, `"capabilities"`) {
			t.Errorf("initialize reply: %s", got)
		}
	case <-time.After(testfixture.Timeout(20 * time.Second)):
		t.Fatal("bare charter-lsp on a pipe did not answer initialize")
	}
	stdin.Close()
}

func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		cmd.Process.Kill()
		t.Fatalf("%v did not exit (serving instead?)", cmd.Args)
		return -1
	}
}

// binaryVersion is the version bin should print: buildVersion over the
// build information the toolchain recorded in the file (a pseudo-version
// in a clean clone, "dev-…-dirty" or "(devel)" in a working tree).
func binaryVersion(t *testing.T, bin string) string {
	t.Helper()
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatalf("read the binary's build information: %v", err)
	}
	return buildVersion("", func() (*debug.BuildInfo, bool) { return bi, true })
}
