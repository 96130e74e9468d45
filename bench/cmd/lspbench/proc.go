package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

type procResult struct {
	wall  float64 // ms, median
	rssKB int64   // max over runs
}

// peer is a peer measurement or why it is unavailable.
type peer[T any] struct {
	res T
	err error
}

func (p peer[T]) cell(f func(T) string) string {
	if p.err != nil {
		return "unavailable: " + p.err.Error()
	}
	return f(p.res)
}

// measureProc runs argv n times; wall time and peak RSS come from the
// kernel (measureProcWithin).
func measureProc(n int, dir string, argv ...string) (procResult, error) {
	return measureProcWithin(n, 30*time.Minute, dir, argv...)
}

func measureCheck(bin, file string, n int) (procResult, error) {
	return measureProc(n, filepath.Dir(file), bin, "check", file)
}

// ensurePeers installs the pinned peers with npm ci, once.
func ensurePeers(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err == nil {
		return nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return fmt.Errorf("npm not found")
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci failed: %v: %.200s", err, out)
	}
	return nil
}

func measureMarkdownlint(dir, file string, n int) peer[procResult] {
	if err := ensurePeers(dir); err != nil {
		return peer[procResult]{err: err}
	}
	cli := filepath.Join(dir, "node_modules", ".bin", "markdownlint-cli2")
	if _, err := os.Stat(cli); err != nil {
		return peer[procResult]{err: errors.New("markdownlint-cli2 not installed")}
	}
	abs, _ := filepath.Abs(cli)
	r, err := measureProc(n, filepath.Dir(file), abs, filepath.Base(file))
	return peer[procResult]{res: r, err: err}
}

type mdlsResult struct {
	OpenToSymbolsMs float64 `json:"openToSymbolsMs"`
	EditMedianMs    float64 `json:"editMedianMs"`
	Error           string  `json:"error"`
}

func measureMarkdownLS(dir, file string, edits int) peer[mdlsResult] {
	if err := ensurePeers(dir); err != nil {
		return peer[mdlsResult]{err: err}
	}
	cmd := exec.Command("node", "mdls.js", file, fmt.Sprint(edits))
	cmd.Dir = dir
	out, err := cmd.Output()
	var r mdlsResult
	if jerr := json.Unmarshal(out, &r); jerr != nil {
		return peer[mdlsResult]{err: fmt.Errorf("mdls.js: %v %v", err, jerr)}
	}
	if r.Error != "" {
		return peer[mdlsResult]{err: errors.New(r.Error)}
	}
	return peer[mdlsResult]{res: r}
}
