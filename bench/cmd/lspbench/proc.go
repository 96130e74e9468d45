package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/childpeak"
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

// measureProc runs argv n times, each for at most limit (0: no limit); the
// wall time (median) and peak memory (max) are the program's own, taken by
// a childpeak launcher: measured directly, the peak would include this
// process's, which built the inputs.
func measureProc(n int, limit time.Duration, dir string, argv ...string) (procResult, error) {
	var walls []float64
	var r procResult
	for range n {
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if limit > 0 {
			ctx, cancel = context.WithTimeout(ctx, limit)
		}
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir = dir
		usage := childpeak.Wrap(cmd, "")
		err := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			return r, fmt.Errorf("%w after %s", errTimedOut, limit)
		}
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			return r, err
		}
		u, ok := usage()
		if !ok {
			return r, fmt.Errorf("%s: no usage measured", filepath.Base(argv[0]))
		}
		walls = append(walls, float64(u.Wall.Microseconds())/1000)
		r.rssKB = max(r.rssKB, u.Peak>>10)
	}
	r.wall = median(walls)
	return r, nil
}

func measureCheck(bin, file string, n int) (procResult, error) {
	return measureProc(n, 0, filepath.Dir(file), bin, "check", file)
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
	r, err := measureProc(n, 0, filepath.Dir(file), abs, filepath.Base(file))
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
