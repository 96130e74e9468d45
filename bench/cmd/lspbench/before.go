package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// buildBefore builds the charter-lsp of commit rev (the code before the
// snapshot redesign, by default) into dir, from this repository's history,
// so that it is measured in the same run as today's.
func buildBefore(rev, dir string) (string, error) {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("not in a git checkout: %w", err)
	}
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	archive := exec.Command("git", "-C", strings.TrimSpace(string(top)), "archive", rev)
	untar := exec.Command("tar", "-x", "-C", src)
	var errs bytes.Buffer
	archive.Stderr, untar.Stderr = &errs, &errs
	if untar.Stdin, err = archive.StdoutPipe(); err != nil {
		return "", err
	}
	if err := untar.Start(); err != nil {
		return "", err
	}
	if err := archive.Run(); err != nil {
		return "", fmt.Errorf("git archive %s: %v %s", rev, err, errs.String())
	}
	if err := untar.Wait(); err != nil {
		return "", fmt.Errorf("untar: %v %s", err, errs.String())
	}
	bin := filepath.Join(dir, "charter-lsp-"+rev)
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/charter-lsp")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v %.300s", rev, err, out)
	}
	return bin, nil
}

// errTimedOut is a process stopped at its time limit.
var errTimedOut = errors.New("timed out")

// measureProcWithin runs argv n times in dir, each within limit, through
// the -rusage launcher (runChild): wall time (median) and peak RSS (max).
// The process is started by a fresh launcher rather than by this one
// because Linux counts the RSS of the process that execs a program in that
// program's peak (ru_maxrss): a child of lspbench, which holds generated
// trees and outputs, would read lspbench's own peak.
func measureProcWithin(n int, limit time.Duration, dir string, argv ...string) (procResult, error) {
	self, err := os.Executable()
	if err != nil {
		return procResult{}, err
	}
	var walls []float64
	var r procResult
	for range n {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		cmd := exec.CommandContext(ctx, self, append([]string{"-rusage"}, argv...)...)
		cmd.Dir = dir
		// The launcher and its child form a process group, killed together.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		out, err := cmd.Output()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			return r, fmt.Errorf("%w after %s", errTimedOut, limit)
		}
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			return r, err
		}
		var wallUS, rssKB int64
		if _, serr := fmt.Sscan(string(out), &wallUS, &rssKB); serr != nil {
			return r, fmt.Errorf("%s: %v (%v)", argv[0], err, serr)
		}
		walls = append(walls, float64(wallUS)/1000)
		r.rssKB = max(r.rssKB, rssKB)
	}
	r.wall = median(walls)
	return r, nil
}

// runChild is the -rusage launcher: it runs argv with its output
// discarded and prints its wall time (µs) and peak RSS (KB), then exits
// with its exit status.
func runChild(argv []string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var rssKB int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rssKB = ru.Maxrss
	}
	fmt.Println(wall.Microseconds(), rssKB)
	return cmd.ProcessState.ExitCode()
}
