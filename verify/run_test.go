//go:build unix

package verify

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

func run(t *testing.T, ctx context.Context, command string, opts Options) *Result {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	r, err := Run(ctx, command, opts)
	if err != nil {
		t.Fatalf("Run(%q): %v", command, err)
	}
	return r
}

func TestRunExitStatusIsTheOutcome(t *testing.T) {
	r := run(t, context.Background(), "echo hello; echo oops >&2; exit 3", Options{})
	if r.ExitCode != 3 || r.Outcome() != "fail" || r.Passed() || !r.Finished() {
		t.Errorf("exit %d outcome %s passed %v", r.ExitCode, r.Outcome(), r.Passed())
	}
	if got := string(r.Output); got != "hello\noops\n" {
		t.Errorf("output %q: stdout and stderr should be merged in order", got)
	}
	r = run(t, context.Background(), "true", Options{})
	if r.ExitCode != 0 || r.Outcome() != "pass" || !r.Passed() {
		t.Errorf("true: exit %d outcome %s", r.ExitCode, r.Outcome())
	}
}

func TestRunInTheProjectFolderWithNoInput(t *testing.T) {
	dir := t.TempDir()
	// cat reads stdin: with nothing to read it ends at once instead of waiting.
	r := run(t, context.Background(), "pwd; cat; echo done", Options{Dir: dir, Timeout: testfixture.Timeout(10 * time.Second)})
	real, _ := filepath.EvalSymlinks(dir)
	if got := string(r.Output); got != real+"\ndone\n" && got != dir+"\ndone\n" {
		t.Errorf("output %q, want the folder then done", got)
	}
	if r.TimedOut {
		t.Error("the command waited for input")
	}
	if _, err := Run(context.Background(), "true", Options{Dir: filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing folder should be an error")
	}
}

func TestRunStreamsOutputAsItComes(t *testing.T) {
	var mu sync.Mutex
	var streamed bytes.Buffer
	first := make(chan struct{})
	var once sync.Once
	out := func(p []byte) {
		mu.Lock()
		streamed.Write(p)
		mu.Unlock()
		once.Do(func() { close(first) })
	}
	done := make(chan *Result)
	go func() {
		r, _ := Run(context.Background(), "echo one; sleep 1; echo two", Options{Dir: t.TempDir(), Output: out})
		done <- r
	}()
	select {
	case <-first:
	case r := <-done:
		t.Fatalf("no output before the command ended: %q", r.Output)
	}
	select {
	case r := <-done:
		t.Fatalf("the command ended too early: %q", r.Output)
	default:
	}
	r := <-done
	mu.Lock()
	defer mu.Unlock()
	if streamed.String() != "one\ntwo\n" || string(r.Output) != "one\ntwo\n" {
		t.Errorf("streamed %q, kept %q", streamed.String(), r.Output)
	}
}

func TestRunKeepsTheBeginningAndTheEnd(t *testing.T) {
	// 200,000 numbered lines (about 1.3 MB) into 64 KB.
	r := run(t, context.Background(), "i=0; while [ $i -lt 200000 ]; do echo line$i; i=$((i+1)); done", Options{MaxOutput: 64 << 10})
	if !r.Truncated || r.Total < 1<<20 {
		t.Fatalf("truncated %v total %d", r.Truncated, r.Total)
	}
	if len(r.Output) > 64<<10+100 {
		t.Errorf("kept %d bytes, want about 64 KB", len(r.Output))
	}
	out := string(r.Output)
	if !strings.HasPrefix(out, "line0\nline1\n") || !strings.HasSuffix(out, "line199999\n") || !strings.Contains(out, "bytes of output left out here") {
		t.Errorf("want the first lines, a gap note and the last line; got %q … %q", out[:40], out[len(out)-40:])
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(t *testing.T, pid int) bool {
	t.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) S …: the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// firstPid runs command, which prints a background child's pid on its
// first line, and returns the pid once printed, with the run's result channel.
func startWithChild(t *testing.T, ctx context.Context, command string, opts Options) (int, chan *Result) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to look at processes")
	}
	var mu sync.Mutex
	var out bytes.Buffer
	got := make(chan int, 1)
	opts.Output = func(p []byte) {
		mu.Lock()
		defer mu.Unlock()
		out.Write(p)
		if line, _, ok := strings.Cut(out.String(), "\n"); ok && out.Len() == len(line)+1 {
			pid, _ := strconv.Atoi(strings.TrimSpace(line))
			got <- pid
		}
	}
	opts.Dir = t.TempDir()
	done := make(chan *Result, 1)
	go func() {
		r, err := Run(ctx, command, opts)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	select {
	case pid := <-got:
		if pid <= 0 || !alive(t, pid) {
			t.Fatalf("child %d is not running", pid)
		}
		return pid, done
	case r := <-done:
		t.Fatalf("the command ended before printing its child: %+v", r)
	case <-time.After(testfixture.Timeout(10 * time.Second)):
		t.Fatal("no pid printed")
	}
	return 0, nil
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(testfixture.Timeout(5 * time.Second))
	for alive(t, pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d outlived the run: an orphan", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCancelKillsTheProcessGroup(t *testing.T) {
	for _, tc := range []struct{ name, command string }{
		{"children", "sleep 300 & echo $!; wait"},
		// A shell and child that ignore SIGTERM are killed after the grace period.
		{"ignores SIGTERM", "trap '' TERM; sleep 300 & echo $!; wait; wait"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			pid, done := startWithChild(t, ctx, tc.command, Options{})
			cancel()
			var r *Result
			select {
			case r = <-done:
			case <-time.After(testfixture.Timeout(10 * time.Second)):
				t.Fatal("Run did not return after cancel")
			}
			if !r.Cancelled || r.TimedOut || r.Finished() {
				t.Errorf("cancelled %v timed out %v", r.Cancelled, r.TimedOut)
			}
			waitGone(t, pid)
		})
	}
}

func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	start := time.Now()
	pid, done := startWithChild(t, context.Background(), "sleep 300 & echo $!; wait", Options{Timeout: 300 * time.Millisecond})
	r := <-done
	if !r.TimedOut || r.Cancelled || r.Finished() {
		t.Errorf("timed out %v cancelled %v", r.TimedOut, r.Cancelled)
	}
	if d := time.Since(start); d > testfixture.Timeout(5*time.Second) {
		t.Errorf("took %s", d)
	}
	waitGone(t, pid)
}

func TestNothingOutlivesTheCommand(t *testing.T) {
	// The command exits soon, leaving a child that would hold the output
	// pipe open forever; Run returns, and the child is gone.
	pid, done := startWithChild(t, context.Background(), "sleep 300 & echo $!; sleep 0.5", Options{})
	select {
	case r := <-done:
		if r.ExitCode != 0 || !r.Finished() {
			t.Errorf("exit %d finished %v", r.ExitCode, r.Finished())
		}
	case <-time.After(testfixture.Timeout(10 * time.Second)):
		t.Fatal("Run waited for the background child")
	}
	waitGone(t, pid)
}
