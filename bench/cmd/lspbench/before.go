package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
