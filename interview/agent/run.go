package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Contract is what the agent is asked for.
type Contract string

const (
	// Stateless: rp1's StatelessAgentResponse, the next action for a
	// charter of the scratch-pad generation.
	Stateless Contract = "StatelessAgentResponse"
	// Finalizer: rp1's finalizer answer {status, artifact, gaps, warnings}
	// for a skeleton charter with no gap left.
	Finalizer Contract = "FinalizerResponse"
)

// Call is one invocation of the agent.
type Call struct {
	Contract Contract
	// Text is the charter as the caller holds it (an editor's unsaved
	// buffer included); Exists false: there is no file yet (CREATE).
	Text   []byte
	Exists bool
	// Path is the charter's real path: RP1_ROOT is found from it.
	Path string
	// Mode is $2: CREATE, UPDATE or RESUME.
	Mode string
}

// Phase is where a call stands, for progress.
type Phase int

const (
	Started Phase = iota // the agent was started
	Waiting              // still waiting (every few seconds)
	Ended                // it answered, failed or was stopped
)

// Progress is told about a call while it runs.
type Progress func(phase Phase, elapsed, timeout time.Duration)

// tick is how often Waiting is reported.
var tick = 5 * time.Second

// Output is what a call produced: stdout (bounded), the tail of stderr,
// the CHARTER_PATH the agent was given, and how long it took.
type Output struct {
	Stdout      []byte
	Stderr      string
	CharterPath string
	Took        time.Duration
}

// Error is a call that failed, in words for the user.
type Error struct {
	// Kind is one of the Kind* constants.
	Kind string
	// Reason says what happened, to follow "the interview agent (name) ".
	Reason string
	// Stderr is the end of what the agent wrote on stderr.
	Stderr string
}

// Kinds of failure.
const (
	KindConfig    = "config"    // the command line does not split
	KindStart     = "start"     // the program could not be started
	KindTimeout   = "timeout"   // it ran past its time and was killed
	KindCancelled = "cancelled" // the user stopped it
	KindExit      = "exit"      // it exited with a status other than 0
	KindTooLarge  = "too-large" // it printed more than MaxOutput
	KindEmpty     = "empty"     // it printed nothing
	KindNotJSON   = "not-json"  // its output is not one JSON object
	KindProse     = "prose"     // text before or after the JSON object
	KindContract  = "contract"  // the JSON breaks the schema or the contract
)

func (e *Error) Error() string {
	msg := e.Reason
	if s := strings.TrimSpace(e.Stderr); s != "" && (e.Kind == KindExit || e.Kind == KindStart) {
		msg += "; it said: " + lastLine(s)
	}
	return msg
}

// lastLine is the last non-blank line of s, shortened, without control
// characters (an agent's output may carry a model's text: it must not
// drive the user's terminal).
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, lines[len(lines)-1]))
	if r := []rune(l); len(r) > 200 {
		l = string(r[:200]) + "…"
	}
	return l
}

// run starts the agent on a private copy of the charter and waits for it:
// until it exits, its time is up, ctx is done or it printed more than
// MaxOutput. Its whole process group is killed in every case but a normal
// exit, and after a normal exit too, so nothing it started outlives it.
func run(ctx context.Context, cfg Config, c Call, progress Progress) (Output, error) {
	argv, err := cfg.Argv()
	if err != nil {
		return Output{}, &Error{Kind: KindConfig, Reason: err.Error()}
	}
	dir, err := os.MkdirTemp("", "charter-lsp-agent-")
	if err != nil {
		return Output{}, &Error{Kind: KindStart, Reason: fmt.Sprintf("could not be given a copy of the charter: %v", err)}
	}
	defer os.RemoveAll(dir)
	name := filepath.Base(c.Path)
	if name == "." || name == string(filepath.Separator) || name == "" {
		name = "charter.md"
	}
	charter := filepath.Join(dir, name)
	if c.Exists {
		if err := os.WriteFile(charter, c.Text, 0o600); err != nil {
			return Output{}, &Error{Kind: KindStart, Reason: fmt.Sprintf("could not be given a copy of the charter: %v", err)}
		}
	}
	out := Output{CharterPath: charter}

	timeout := cfg.timeout()
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	timer := time.AfterFunc(timeout, func() { stop(errTimeout) })
	defer timer.Stop()

	stdout := &capped{max: MaxOutput, over: func() { stop(errTooLarge) }}
	stderr := &tail{max: stderrTail}
	cmd := exec.Command(argv[0], append(argv[1:], charter, c.Mode)...)
	cmd.Dir = dir // never the repository: a program may read settings from its working folder
	cmd.Env = Env(os.Environ(), cfg.Pass, rp1Root(c.Path))
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = stdout, stderr
	ownGroup(cmd)
	// Once the process exits, wait at most this long for whatever it left
	// holding its output (it is killed with its group first).
	cmd.WaitDelay = 2 * time.Second

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return out, &Error{Kind: KindStart, Reason: fmt.Sprintf("could not be started: %v", unwrapExec(err))}
	}
	pid := cmd.Process.Pid
	if progress != nil {
		progress(Started, 0, timeout)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	var waitErr error
loop:
	for {
		select {
		case waitErr = <-waited:
			break loop
		case <-runCtx.Done():
			_ = killGroup(pid)
			waitErr = <-waited
			break loop
		case <-ticker.C:
			if progress != nil {
				progress(Waiting, time.Since(start), timeout)
			}
		}
	}
	// Whatever it started in the background goes with it.
	_ = killGroup(pid)
	out.Took = time.Since(start)
	out.Stdout, out.Stderr = stdout.buf.Bytes(), stderr.String()
	if progress != nil {
		progress(Ended, out.Took, timeout)
	}

	switch cause := context.Cause(runCtx); {
	case errors.Is(cause, errTooLarge):
		return out, &Error{Kind: KindTooLarge, Reason: fmt.Sprintf("printed more than %d KiB and was stopped (the contract is one JSON object)", MaxOutput>>10)}
	case errors.Is(cause, errTimeout):
		return out, &Error{Kind: KindTimeout, Reason: fmt.Sprintf("did not answer within %s and was stopped", timeout)}
	case ctx.Err() != nil:
		return out, &Error{Kind: KindCancelled, Reason: "was stopped: the interview step was cancelled"}
	}
	if waitErr != nil {
		var exit *exec.ExitError
		if errors.As(waitErr, &exit) {
			return out, &Error{Kind: KindExit, Reason: fmt.Sprintf("exited with %s", exitStatus(exit)), Stderr: out.Stderr}
		}
		if !errors.Is(waitErr, exec.ErrWaitDelay) {
			return out, &Error{Kind: KindExit, Reason: fmt.Sprintf("failed: %v", waitErr), Stderr: out.Stderr}
		}
	}
	return out, nil
}

var (
	errTimeout  = errors.New("timeout")
	errTooLarge = errors.New("too much output")
)

// exitStatus says how a process ended: "status 3", "signal: killed".
func exitStatus(e *exec.ExitError) string {
	if code := e.ExitCode(); code >= 0 {
		return fmt.Sprintf("status %d", code)
	}
	return e.ProcessState.String()
}

// unwrapExec drops exec's "exec: " prefix for a friendlier message.
func unwrapExec(err error) string {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return fmt.Sprintf("%s: %v", ee.Name, ee.Err)
	}
	return err.Error()
}

// rp1Root is RP1_ROOT for a charter at path: the .rp1 folder holding it
// (rp1 keeps the charter in .rp1/context/), else .rp1 beside it.
func rp1Root(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := filepath.ToSlash(abs)
	if i := strings.LastIndex(p, "/.rp1/"); i >= 0 {
		return filepath.FromSlash(p[:i+len("/.rp1")])
	}
	return filepath.Join(filepath.Dir(abs), ".rp1")
}

// capped keeps at most max bytes and calls over once when more arrive.
type capped struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	max  int
	once sync.Once
	over func()
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); len(p) > room {
		if room > 0 {
			c.buf.Write(p[:room])
		}
		c.once.Do(c.over)
		return len(p), nil
	}
	return c.buf.Write(p)
}

// tail keeps the last max bytes written.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
