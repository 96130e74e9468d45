package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

const (
	// DefaultTimeout ends a command that runs longer.
	DefaultTimeout = 10 * time.Minute
	// DefaultMaxOutput is how much of the output is kept (and written to
	// the artifact).
	DefaultMaxOutput = 1 << 20
	// grace is how long a signalled process group has to exit after
	// SIGTERM before it is killed.
	grace = 2 * time.Second
)

// Options tune Run.
type Options struct {
	// Dir is the folder the command runs in: the project folder.
	Dir string
	// Timeout ends the command (default DefaultTimeout).
	Timeout time.Duration
	// MaxOutput bounds the output kept (default DefaultMaxOutput).
	MaxOutput int
	// Output, when set, is called with each piece of output as it arrives,
	// from one goroutine, in order. It must not keep the slice.
	Output func([]byte)
	// Env is the command's environment; nil means charter-lsp's own.
	Env []string
}

// Result is a finished run.
type Result struct {
	Command string
	Dir     string
	Start   time.Time
	// Duration is the wall time from start to the command's exit.
	Duration time.Duration
	// ExitCode is the command's exit status; -1 when a signal ended it.
	ExitCode int
	// Output is what the command printed (stdout and stderr merged), at
	// most MaxOutput bytes plus a line saying how much was left out.
	Output []byte
	// Total is how many bytes the command printed; Truncated says Output
	// holds less.
	Total     int64
	Truncated bool
	// Cancelled: the caller's context ended the run (the user cancelled).
	// TimedOut: the timeout did. Either way nothing should be recorded.
	Cancelled bool
	TimedOut  bool
}

// Finished reports whether the command ran to its own end: its outcome
// means something.
func (r *Result) Finished() bool { return !r.Cancelled && !r.TimedOut }

// Passed reports whether the command ran to its end and exited 0.
func (r *Result) Passed() bool { return r.Finished() && r.ExitCode == 0 }

// Run runs command as the package comment describes and waits for it,
// its output and its process group. An error means it could not start
// (no shell, no folder); a command that fails is a Result with a non-zero
// ExitCode.
func Run(ctx context.Context, command string, opts Options) (*Result, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	if fi, err := os.Stat(opts.Dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("the project folder %s is not a folder: %v", opts.Dir, err)
	}
	cmd := shellCommand(command)
	cmd.Dir, cmd.Env = opts.Dir, opts.Env
	inGroup(cmd)
	// One pipe for stdout and stderr, read by us: exec's own copying would
	// make Wait wait for every process that inherited the pipe.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = w, w
	res := &Result{Command: command, Dir: opts.Dir, Start: time.Now()}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("starting the shell: %w", err)
	}
	w.Close() // the command holds the write end now

	capture := newCapture(opts.MaxOutput)
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				capture.Write(buf[:n])
				if opts.Output != nil {
					opts.Output(buf[:n])
				}
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					capture.Write([]byte("\n[charter-lsp: reading the output: " + err.Error() + "]\n"))
				}
				return
			}
		}
	}()

	// The watcher signals the group when the caller cancels or the time is
	// up, and kills it if it has not gone after the grace period.
	timeout := time.NewTimer(opts.Timeout)
	defer timeout.Stop()
	exited := make(chan struct{})
	var mu sync.Mutex
	stop := func(timedOut bool) {
		mu.Lock()
		if timedOut {
			res.TimedOut = true
		} else {
			res.Cancelled = true
		}
		mu.Unlock()
		signalGroup(cmd, false)
		select {
		case <-exited:
		case <-time.After(grace):
			signalGroup(cmd, true)
		}
	}
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-exited:
		case <-ctx.Done():
			stop(false)
		case <-timeout.C:
			stop(true)
		}
	}()

	werr := cmd.Wait()
	res.Duration = time.Since(res.Start)
	close(exited)
	<-watched
	// The command is gone; whatever it left running in its group goes too
	// (and with it the last write ends of the pipe).
	reapGroup(cmd)
	select {
	case <-read:
	case <-time.After(grace):
		// A process that left the group still holds the pipe: stop reading.
		r.Close()
		<-read
	}
	r.Close()

	res.ExitCode = exitCode(cmd, werr)
	res.Output, res.Total, res.Truncated = capture.Bytes()
	return res, nil
}

// exitCode is the command's exit status, -1 when a signal ended it.
func exitCode(cmd *exec.Cmd, err error) int {
	if cmd.ProcessState != nil {
		return cmd.ProcessState.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
