package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// The scale section (issue 26): check over a monorepo of charters and over
// a long history, against the floor — every file of the tree opened and
// read once, on one thread, warm, measured in the same run — and against
// the -before commit; the server in a workspace of ten thousand charters;
// a differential of check --format json with the -before commit; and a
// curve of check against the number of packages.

// floorRead is the floor of a tree: every folder listed and every file
// read once, on one thread, warm (a first pass warms the caches; the
// median of three passes is the figure).
func floorRead(root string) (ms float64, files int) {
	pass := func() (float64, int) {
		start := time.Now()
		n := 0
		var walk func(dir string)
		walk = func(dir string) {
			es, _ := os.ReadDir(dir)
			for _, e := range es {
				p := filepath.Join(dir, e.Name())
				switch {
				case e.IsDir():
					walk(p)
				case e.Type().IsRegular():
					if _, err := os.ReadFile(p); err == nil {
						n++
					}
				}
			}
		}
		walk(root)
		return since(start), n
	}
	pass()
	var xs []float64
	for range 3 {
		ms, files = pass()
		xs = append(xs, ms)
	}
	return median(xs), files
}

// monorepo writes bench/gen's monorepo of n packages under the run's
// folder, once.
func (b *bench) monorepo(n int) (string, error) {
	root := filepath.Join(b.tmp, fmt.Sprintf("mono%d", n))
	if _, err := os.Stat(root); err == nil {
		return root, nil
	}
	progress("writing a monorepo of %d packages…", n)
	return root, gen.Monorepo{Packages: n}.Write(root)
}

// checkRow measures `check .` in root against the floor and the -before
// commit: wall at most 1.5× the floor, peak RSS at most rssMB (0: none).
func (b *bench) checkRow(what, root string, rssMB float64) (procResult, error) {
	progress("floor of %s…", what)
	floor, files := floorRead(root)
	progress("check, %s…", what)
	now, err := measureProc(3, 10*time.Minute, root, b.bin, "check", ".")
	if err != nil {
		return now, err
	}
	cell := fmt.Sprintf("floor %s (%d files, one thread, warm)", ms(floor), files)
	if b.before != "" {
		progress("check, %s, %s…", what, b.o.before)
		if old, err := measureProc(1, 10*time.Minute, root, b.before, "check", "."); err != nil {
			cell += fmt.Sprintf("; %s: %v", b.o.before, err)
		} else {
			cell += fmt.Sprintf("; %s: %s, %s (%s)", b.o.before, ms(old.wall), mb(old.rssKB), ratio(old.wall, now.wall))
		}
	}
	goal := "≤ 1.5× floor"
	if rssMB > 0 {
		goal += fmt.Sprintf(", ≤ %.0f MB", rssMB)
	}
	b.t.add("check, "+what+": wall, peak RSS", goal, fmt.Sprintf("%s (%.2f× floor), %s", ms(now.wall), now.wall/floor, mb(now.rssKB)), 1.5*floor, cell)
	r := &b.t.rows[len(b.t.rows)-1]
	r.value = now.wall
	if rssMB > 0 && float64(now.rssKB)/1024 > rssMB {
		r.ok = false
	}
	return now, nil
}

func (b *bench) scale() error {
	mono2k, err := b.monorepo(2000)
	if err != nil {
		return err
	}
	if _, err := b.checkRow("2,000 packages (pi + .charters + rp1 charter each)", mono2k, 0); err != nil {
		return err
	}
	mono10k, err := b.monorepo(10000)
	if err != nil {
		return err
	}
	tenK, err := b.checkRow("10,000 packages", mono10k, 150)
	if err != nil {
		return err
	}
	large, err := b.largeFolder()
	if err != nil {
		return err
	}
	history := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(large))))
	if _, err := b.checkRow(fmt.Sprintf("%d evidence runs", b.o.runs), history, 200); err != nil {
		return err
	}
	if err := b.differential(mono10k); err != nil {
		return err
	}
	if err := b.workspaceRows(mono10k); err != nil {
		return err
	}
	return b.folderCurve(map[int]procResult{10000: tenK})
}

// differential compares check --format json of today's binary with the
// -before commit's on root: no behaviour change.
func (b *bench) differential(root string) error {
	if b.before == "" {
		return nil
	}
	progress("check --format json, today and %s…", b.o.before)
	run := func(bin string) ([]byte, error) {
		cmd := exec.Command(bin, "check", "--format", "json", ".")
		cmd.Dir = root
		out, err := cmd.Output()
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			return nil, err
		}
		return out, nil
	}
	now, err := run(b.bin)
	if err != nil {
		return err
	}
	old, err := run(b.before)
	if err != nil {
		return err
	}
	measured := fmt.Sprintf("identical (%.1f MB of JSON)", float64(len(now))/(1<<20))
	ok := bytes.Equal(now, old)
	if !ok {
		i := 0
		for i < len(now) && i < len(old) && now[i] == old[i] {
			i++
		}
		measured = fmt.Sprintf("DIFFERS from byte %d: %.60q vs %.60q", i, now[i:min(len(now), i+60)], old[i:min(len(old), i+60)])
	}
	b.t.add("check --format json, 10,000 packages, against "+b.o.before, "no difference", measured, math.Inf(1), "")
	b.t.rows[len(b.t.rows)-1].ok = ok
	return nil
}

// workspaceResult is the server in a monorepo's workspace.
type workspaceResult struct {
	open        float64 // didOpen → diagnostics published, ms
	scanBegun   float64 // ms after the publish the scan's progress began (negative: before)
	scan        float64 // the scan's progress, begin → end, ms
	rssKB       int64   // after the scan
	symbol      latencies
	symbolCount int
}

// measureWorkspace opens one package's register in a workspace of a
// monorepo, then waits for the server's scan of the workspace and asks
// workspace/symbol for that package's first milestone.
func measureWorkspace(bin, root, file, query string, scanned bool, n int) (workspaceResult, error) {
	var r workspaceResult
	s, err := startSession(bin, root, file, true)
	if err != nil {
		return r, err
	}
	defer s.close()
	start := time.Now()
	if err := s.open(1); err != nil {
		return r, err
	}
	published := time.Now()
	r.open = float64(published.Sub(start).Microseconds()) / 1000
	if scanned {
		p, err := s.c.progressTitled("Reading charters", 10*time.Minute)
		if err != nil {
			return r, err
		}
		r.scanBegun = float64(p.begun.Sub(published).Microseconds()) / 1000
		r.scan = float64(p.end.Sub(p.begun).Microseconds()) / 1000
	}
	for i := range n {
		var out []json.RawMessage
		t := time.Now()
		_, err := s.c.conn.Call(s.ctx, "workspace/symbol", map[string]any{"query": query}, &out)
		r.symbol.add(since(t), err)
		if i == 0 {
			r.symbolCount = len(out)
			r.rssKB = rss(s.cmd.Process.Pid)
		}
	}
	return r, nil
}

// workspaceRows: the server in a workspace of 10,000 charters.
func (b *bench) workspaceRows(root string) error {
	pkg := 5000
	file := filepath.Join(gen.Package(root, pkg), ".pi", "charters", fmt.Sprintf("pkg%05d", pkg), "criteria.md")
	query := fmt.Sprintf("AUTH1P%d-", pkg)
	progress("server in a workspace of 10,000 charters…")
	now, err := measureWorkspace(b.bin, root, file, query, true, 20)
	if err != nil {
		return err
	}
	var old *workspaceResult
	if b.before != "" {
		progress("server of %s in a workspace of 10,000 charters…", b.o.before)
		if r, err := measureWorkspace(b.before, root, file, query, false, 1); err == nil {
			old = &r
		} else {
			progress("%s: %v", b.o.before, err)
		}
	}
	before := func(f func(r workspaceResult) string) string {
		if old == nil {
			return ""
		}
		return b.o.before + ": " + f(*old)
	}
	order := "before the scan began"
	if now.scanBegun < 0 {
		order = "AFTER the scan began"
	}
	b.t.add("open → diagnostics, one charter of a 10,000-charter workspace", "≤ 200 ms, before the scan", ms(now.open)+", "+order, 200,
		before(func(r workspaceResult) string { return ms(r.open) }))
	if now.scanBegun < 0 {
		b.t.rows[len(b.t.rows)-1].ok = false
	}
	b.t.add("scan of the workspace ($/progress \"Reading charters\")", "reported", fmt.Sprintf("%s, begun %s after the publish", ms(now.scan), ms(now.scanBegun)), math.Inf(1), "")
	b.t.rows[len(b.t.rows)-1].ok = true
	b.t.add(fmt.Sprintf("workspace/symbol %q after the scan (%d symbols)", query, now.symbolCount), "≤ 50 ms", now.symbol.cell(), 50,
		before(func(r workspaceResult) string { return "first call " + r.symbol.cell() + ", RSS " + mb(r.rssKB) }))
	b.t.rows[len(b.t.rows)-1].value = now.symbol.p50()
	if now.symbol.failed > 0 || now.symbolCount == 0 {
		b.t.rows[len(b.t.rows)-1].ok = false
	}
	b.t.add("server RSS, 10,000-charter workspace, after the scan", "≤ 200 MB", mb(now.rssKB), 200*1024, "")
	b.t.rows[len(b.t.rows)-1].value = float64(now.rssKB)
	return nil
}

// folderCurve: check against the number of packages, flagged when the
// time per added package grows.
func (b *bench) folderCurve(done map[int]procResult) error {
	var points []curvePoint
	for _, n := range []int{1000, 2500, 5000, 10000} {
		r, ok := done[n]
		if !ok {
			root, err := b.monorepo(n)
			if err != nil {
				return err
			}
			progress("check, %d packages…", n)
			if r, err = measureProc(3, 10*time.Minute, root, b.bin, "check", "."); err != nil {
				return err
			}
			if n != 2000 {
				_ = os.RemoveAll(root)
			}
		}
		b.t.add(fmt.Sprintf("check, %d packages: wall, peak RSS", n), "linear in packages", ms(r.wall)+", "+mb(r.rssKB), math.Inf(1),
			fmt.Sprintf("%.0f µs a package", r.wall*1000/float64(n)))
		b.t.rows[len(b.t.rows)-1].value = r.wall
		points = append(points, curvePoint{n, r.wall, len(b.t.rows) - 1})
	}
	sort.Slice(points, func(i, j int) bool { return points[i].runs < points[j].runs })
	markCurve(&b.t, points)
	return nil
}
