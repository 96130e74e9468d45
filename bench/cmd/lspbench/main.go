// Command lspbench measures charter-lsp's performance targets (issues 8
// and 15) against the built binary and prints the table `make bench`
// shows. In the same run it measures the peers (markdownlint-cli2 and VS
// Code's markdown language server, installed by `npm ci` in bench/peers),
// the charter-lsp of an earlier commit (built from this repository's
// history: the code before the snapshot redesign, by default), and the
// floor of a keystroke: a server that does no work and sends back the same
// publish.
//
//	go run ./bench/cmd/lspbench -bin bin/charter-lsp -peers bench/peers
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/internal/childpeak"
)

type options struct {
	bin, peers  string
	edits       int // edits of the large register for the RSS row
	sources     int
	nodeEdits   int // keystrokes per vscode-jsonrpc measurement
	nodeRounds  int // alternating rounds of charter-lsp, floor and before
	runs        int // evidence runs of the large-history folder
	curve       []int
	before      string // commit to compare with; "" for none
	beforeLarge bool   // measure the earlier commit on the large-history folder too (slow)
	only        map[string]bool
}

// does reports whether the section is measured (-only).
func (o options) does(section string) bool { return len(o.only) == 0 || o.only[section] }

func main() {
	childpeak.Serve() // when a measurement started this binary as its launcher
	if len(os.Args) == 3 && os.Args[1] == "-serve-floor" {
		if err := serveFloor(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "lspbench floor:", err)
			os.Exit(1)
		}
		return
	}
	var o options
	curve := flag.String("curve", "1000,10000,100000", "evidence runs of the check scaling curve")
	only := flag.String("only", "", "measure only these sections: keystroke, targets, history, curve, cancel, scale (comma-separated)")
	flag.StringVar(&o.bin, "bin", "bin/charter-lsp", "the charter-lsp binary")
	flag.StringVar(&o.peers, "peers", "bench/peers", "folder with the peers' package.json, mdls.js and keystroke.js")
	flag.IntVar(&o.edits, "edits", 1000, "edits of the large register (RSS is read after each cycle of a third)")
	flag.IntVar(&o.sources, "sources", 50_000, "source files of the many-sources project")
	flag.IntVar(&o.nodeEdits, "node-edits", 200, "keystrokes timed through the vscode-jsonrpc client")
	flag.IntVar(&o.nodeRounds, "node-rounds", 3, "rounds of the keystroke measurement, charter-lsp, floor and before in turn (medians of the rounds are reported)")
	flag.IntVar(&o.runs, "runs", 100_000, "evidence runs of the long-history charter folder")
	flag.StringVar(&o.before, "before", "baf3230", "commit to measure in the same run for comparison (\"\" for none)")
	flag.BoolVar(&o.beforeLarge, "before-large", false, "measure the -before commit on the long-history folder too (minutes)")
	flag.Parse()
	o.only = map[string]bool{}
	for _, f := range strings.Split(*only, ",") {
		if f = strings.TrimSpace(f); f != "" {
			o.only[f] = true
		}
	}
	for _, f := range strings.Split(*curve, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			o.curve = append(o.curve, n)
		}
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(1)
	}
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// bench is one run's shared state: the folders written so far and the
// binaries measured.
type bench struct {
	o      options
	bin    string // today's charter-lsp
	before string // the earlier commit's, or ""
	tmp    string
	t      table
	big    string // the 5,000-VAL register (20 runs)
	large  string // the long-history folder's register
}

func run(o options) error {
	b := &bench{o: o}
	b.bin, _ = filepath.Abs(o.bin)
	var err error
	if b.tmp, err = os.MkdirTemp("", "lspbench-"); err != nil {
		return err
	}
	defer os.RemoveAll(b.tmp)
	b.t.title = fmt.Sprintf("charter-lsp performance — %s; medians unless said; load average %s (2 shared cores)",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), loadAverage())
	if o.before != "" {
		progress("building %s…", o.before)
		if b.before, err = buildBefore(o.before, filepath.Join(b.tmp, "before")); err != nil {
			progress("no comparison: %v", err)
		}
	}
	if b.big, err = b.write("big", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 20, Sources: 100}); err != nil {
		return err
	}
	for _, section := range []struct {
		name string
		run  func() error
	}{
		{"keystroke", b.keystrokes},
		{"targets", b.targets},
		{"history", b.history},
		{"curve", b.curve},
		{"cancel", b.cancels},
		{"scale", b.scale},
	} {
		if o.does(section.name) {
			if err := section.run(); err != nil {
				return fmt.Errorf("%s: %w", section.name, err)
			}
		}
	}
	b.t.print(os.Stdout)
	return nil
}

func (b *bench) write(name string, p gen.Project) (string, error) {
	return p.Write(filepath.Join(b.tmp, name))
}

// keystrokes: keystroke → diagnostics decoded by a vscode-jsonrpc client,
// today, at the floor and before.
func (b *bench) keystrokes() error {
	// Half the register verified: a few thousand diagnostics (its stale
	// passes add to the register's own), ≈ 1.9 MB of JSON per publish.
	verified, err := b.write("verified", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 2500, Sources: 100})
	if err != nil {
		return err
	}
	exe, err := self()
	if err != nil {
		return err
	}
	for _, reg := range []struct{ name, file string }{{"big", b.big}, {"verified", verified}} {
		root := filepath.Join(b.tmp, reg.name)
		progress("keystrokes through vscode-jsonrpc, %s register…", reg.name)
		capture := filepath.Join(b.tmp, reg.name+"-publish.json")
		// The three take turns, round after round: on shared cores the
		// load drifts over a minute, and one measurement of each in a row
		// compared whichever had the quieter moment.
		var nows, floors, olds []peer[keystroke]
		for r := 0; r < max(1, b.o.nodeRounds); r++ {
			now := measureKeystroke(b.o.peers, root, reg.file, b.o.nodeEdits, capture, b.bin, "serve")
			nows = append(nows, now)
			if now.err != nil {
				break
			}
			floors = append(floors, measureKeystroke(b.o.peers, root, reg.file, b.o.nodeEdits, "", exe, "-serve-floor", capture))
			if b.before != "" {
				olds = append(olds, measureKeystroke(b.o.peers, root, reg.file, b.o.nodeEdits, "", b.before, "serve"))
			}
		}
		addKeystrokeRow(&b.t, medianKeystroke(nows), medianKeystroke(floors), medianKeystroke(olds), roundRatios(nows, floors))
	}
	return nil
}

// medianKeystroke is the rounds' medians (median), field by field; the first
// failure if any round failed; nothing for no rounds.
func medianKeystroke(rounds []peer[keystroke]) peer[keystroke] {
	if len(rounds) == 0 {
		return peer[keystroke]{}
	}
	for _, r := range rounds {
		if r.err != nil {
			return r
		}
	}
	med := func(f func(keystroke) float64) float64 {
		xs := make([]float64, len(rounds))
		for i, r := range rounds {
			xs[i] = f(r.res)
		}
		return median(xs)
	}
	k := rounds[len(rounds)-1].res
	k.OpenMs = med(func(k keystroke) float64 { return k.OpenMs })
	k.EditP50Ms = med(func(k keystroke) float64 { return k.EditP50Ms })
	k.EditP90Ms = med(func(k keystroke) float64 { return k.EditP90Ms })
	k.DecodeP50Ms = med(func(k keystroke) float64 { return k.DecodeP50Ms })
	k.DecodeP90Ms = med(func(k keystroke) float64 { return k.DecodeP90Ms })
	return peer[keystroke]{res: k}
}

// roundRatios is each round's charter-lsp median over that round's floor,
// e.g. "1.21×, 1.30×, 1.18×"; "" for one round or a failed one.
func roundRatios(nows, floors []peer[keystroke]) string {
	if len(nows) < 2 || len(floors) != len(nows) {
		return ""
	}
	parts := make([]string, len(nows))
	for i := range nows {
		if nows[i].err != nil || floors[i].err != nil || floors[i].res.EditP50Ms <= 0 {
			return ""
		}
		parts[i] = fmt.Sprintf("%.2f×", nows[i].res.EditP50Ms/floors[i].res.EditP50Ms)
	}
	return strings.Join(parts, ", ")
}

// targets: issue 8's table.
func (b *bench) targets() error {
	o, t, bin, big := b.o, &b.t, b.bin, b.big
	small, err := b.write("small", gen.Project{Milestones: gen.RealisticMilestones, VALs: gen.RealisticVALs, Runs: 20, Sources: 100})
	if err != nil {
		return err
	}
	progress("check…")
	chk, err := measureCheck(bin, big, 9)
	if err != nil {
		return err
	}
	progress("peers…")
	mdl := measureMarkdownlint(o.peers, big, 3)
	mdls := measureMarkdownLS(o.peers, big, 10)

	progress("server, large register…")
	bigRes, err := measureServer(bin, filepath.Join(b.tmp, "big"), big, o.edits)
	if err != nil {
		return err
	}
	progress("server, realistic register…")
	smallRes, err := measureServer(bin, filepath.Join(b.tmp, "small"), small, 200)
	if err != nil {
		return err
	}
	progress("writing %d source files…", o.sources)
	many, err := b.write("many", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 20, Sources: o.sources})
	if err != nil {
		return err
	}
	progress("server, many sources…")
	manyRes, err := measureServer(bin, filepath.Join(b.tmp, "many"), many, 100)
	if err != nil {
		return err
	}
	_ = os.RemoveAll(filepath.Join(b.tmp, "many"))

	t.add("edit → diagnostics published, 5,000 VALs (debounce 0)", "≤ 10 ms", ms(bigRes.edit), 10, mdls.cell(func(r mdlsResult) string {
		return fmt.Sprintf("markdown LS edit → diagnostics+symbols %s (%s)", ms(r.EditMedianMs), ratio(r.EditMedianMs, bigRes.edit))
	}))
	t.add("edit → diagnostics published, 100 VALs", "≤ 2 ms", ms(smallRes.edit), 2, "")
	t.add("edit → diagnostics, 5,000 VALs + "+fmt.Sprint(o.sources)+" source files", "no extra latency", ms(manyRes.edit), bigRes.edit*1.5+1, fmt.Sprintf("open → diagnostics median %s (the walk is cached)", ms(manyRes.open)))
	t.add("open → first diagnostics, 5,000 VALs", "≤ 150 ms", ms(bigRes.open), 150, mdls.cell(func(r mdlsResult) string {
		return fmt.Sprintf("markdown LS open → symbols %s (%s)", ms(r.OpenToSymbolsMs), ratio(r.OpenToSymbolsMs, bigRes.open))
	}))
	t.add("hover, 5,000 VALs", "≤ 5 ms", ms(bigRes.hover), 5, "")
	t.add("code action, 5,000 VALs", "≤ 5 ms", ms(bigRes.action), 5, "")
	t.add("completion, 5,000 VALs", "≤ 5 ms", ms(bigRes.completion), 5, "")
	t.add("check, whole process, wall", "≤ 200 ms, ≥ 15× markdownlint", ms(chk.wall), 200, mdl.cell(func(r procResult) string {
		return fmt.Sprintf("markdownlint-cli2 %s (%s)", ms(r.wall), ratio(r.wall, chk.wall))
	}))
	if mdl.err == nil && chk.wall*15 > mdl.res.wall {
		t.rows[len(t.rows)-1].ok = false
	}
	t.add("check, whole process, peak RSS", "≤ 80 MB", mb(chk.rssKB), 80*1024, mdl.cell(func(r procResult) string {
		return fmt.Sprintf("markdownlint-cli2 %s", mb(r.rssKB))
	}))
	t.rows[len(t.rows)-1].value = float64(chk.rssKB)
	t.add(fmt.Sprintf("server RSS after %d edits (per cycle)", o.edits), "≤ 100 MB, flat", rssCycles(bigRes.rssKB), 100*1024, "")
	t.rows[len(t.rows)-1].value = float64(bigRes.rssKB[len(bigRes.rssKB)-1])
	if len(bigRes.rssKB) > 1 && bigRes.rssKB[len(bigRes.rssKB)-1] > bigRes.rssKB[1]*12/10 {
		t.rows[len(t.rows)-1].ok = false
	}
	return nil
}

// largeFolder writes the long-history folder once.
func (b *bench) largeFolder() (string, error) {
	if b.large != "" {
		return b.large, nil
	}
	progress("writing %d evidence runs…", b.o.runs)
	var err error
	b.large, err = b.write("history", gen.History(b.o.runs))
	return b.large, err
}

// history: a charter folder with a long evidence history, after its first
// load.
func (b *bench) history() error {
	large, err := b.largeFolder()
	if err != nil {
		return err
	}
	root := filepath.Join(b.tmp, "history")
	progress("server, %d runs…", b.o.runs)
	lr, err := measureLarge(b.bin, root, large, 30, true)
	if err != nil {
		return err
	}
	var old *largeResult
	if b.before != "" && b.o.beforeLarge {
		progress("server of %s, %d runs…", b.o.before, b.o.runs)
		if r, err := measureLarge(b.before, root, large, 3, false); err == nil {
			old = &r
		} else {
			progress("%s: %v", b.o.before, err)
		}
	}
	addLargeRows(&b.t, b.o, lr, old)
	return nil
}

// curve: check's time and memory against the number of runs.
func (b *bench) curve() error {
	var points []curvePoint
	for _, n := range b.o.curve {
		var root string
		if n == b.o.runs {
			large, err := b.largeFolder()
			if err != nil {
				return err
			}
			root = filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(large))))
		} else {
			progress("writing %d evidence runs…", n)
			name := fmt.Sprintf("curve%d", n)
			if _, err := b.write(name, gen.History(n)); err != nil {
				return err
			}
			root = filepath.Join(b.tmp, name)
		}
		progress("check, %d runs…", n)
		now, err := measureProc(3, 10*time.Minute, root, b.bin, "check", ".")
		if err != nil {
			return err
		}
		cell := ""
		if b.before != "" && (n <= 10_000 || b.o.beforeLarge) {
			r, err := measureProc(1, 5*time.Minute, root, b.before, "check", ".")
			if err != nil {
				cell = fmt.Sprintf("%s: %v", b.o.before, err)
			} else {
				cell = fmt.Sprintf("%s: %s, %s (%s)", b.o.before, ms(r.wall), mb(r.rssKB), ratio(r.wall, now.wall))
			}
		}
		b.t.add(fmt.Sprintf("check, 100 VALs + %d runs: wall, peak RSS", n), "linear in runs", ms(now.wall)+", "+mb(now.rssKB), math.Inf(1), cell)
		b.t.rows[len(b.t.rows)-1].value = now.wall
		points = append(points, curvePoint{n, now.wall, len(b.t.rows) - 1})
		if n != b.o.runs {
			_ = os.RemoveAll(root)
		}
	}
	markCurve(&b.t, points)
	return nil
}

// cancels: cancelled work stops.
func (b *bench) cancels() error {
	large, err := b.largeFolder()
	if err != nil {
		return err
	}
	progress("cancelling: first load of %d runs…", b.o.runs)
	loadStop := stopCharterLoad(filepath.Dir(large), 5)
	progress("cancelling: check of 5,000 VALs…")
	checkStop := stopCheck(b.big, 18)
	progress("cancelling: workspace/symbol over 100 charters…")
	symRoot := filepath.Join(b.tmp, "symbols")
	if err := symbolsProject(symRoot, 100, 50); err != nil {
		return err
	}
	symStop, err := stopSymbols(symRoot, 9)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		what string
		r    stopResult
	}{
		{fmt.Sprintf("first load, %d runs", b.o.runs), loadStop},
		{"check, 5,000 VALs", checkStop},
		{"workspace/symbol, 100 charters × 500 VALs ($/cancelRequest)", symStop},
	} {
		b.t.add("cancelled → work stopped: "+c.what, "≤ 5 ms (p90)", c.r.cell(), 5, fmt.Sprintf("uncancelled %s", ms(c.r.full)))
		b.t.rows[len(b.t.rows)-1].value = c.r.quantile(0.9)
	}
	return nil
}

// addKeystrokeRow is a keystroke through vscode-jsonrpc, with the floor and
// the earlier commit.
func addKeystrokeRow(t *table, now, floor, old peer[keystroke], rounds string) {
	if now.err != nil {
		t.add("keystroke → diagnostics decoded (vscode-jsonrpc client)", "≤ 10 ms", "unavailable: "+now.err.Error(), 10, "")
		t.rows[len(t.rows)-1].ok = false
		return
	}
	k := now.res
	target := fmt.Sprintf("keystroke → diagnostics decoded (vscode-jsonrpc), %d diagnostics, %.0f KB", k.Diagnostics, float64(k.PublishBytes)/1024)
	measured := fmt.Sprintf("%s (p90 %s)", ms(k.EditP50Ms), ms(k.EditP90Ms))
	peers := []string{fmt.Sprintf("client decode %s", ms(k.DecodeP50Ms))}
	peers = append(peers, floor.cell(func(f keystroke) string {
		return fmt.Sprintf("floor (no server work) %s", ms(f.EditP50Ms))
	}))
	if rounds != "" {
		peers = append(peers, "each round against its floor "+rounds)
	}
	if old.err != nil || old.res.EditP50Ms > 0 {
		peers = append(peers, old.cell(func(o keystroke) string {
			return fmt.Sprintf("before %s (%s)", ms(o.EditP50Ms), ratio(o.EditP50Ms, k.EditP50Ms))
		}))
	}
	// The publish is sent whole, as the protocol requires: what the server
	// adds to the floor's replay of it is what a keystroke costs.
	limit, goal := 10.0, "≤ 10 ms"
	if floor.err == nil && floor.res.EditP50Ms > 0 {
		limit, goal = 1.25*floor.res.EditP50Ms, "≤ 1.25× floor"
	}
	t.add(target, goal, measured, limit, strings.Join(peers, "; "))
	t.rows[len(t.rows)-1].value = k.EditP50Ms
}

// addLargeRows are the long-history folder's rows.
func addLargeRows(t *table, o options, lr largeResult, old *largeResult) {
	beforeCell := func(f func(r largeResult) string) string {
		if old == nil {
			return ""
		}
		return o.before + ": " + f(*old)
	}
	name := fmt.Sprintf("%d runs", o.runs)
	full := "every run read: no progress reported"
	if lr.full > 0 {
		full = fmt.Sprintf("every run read after %s, RSS %s", ms(lr.full), mb(lr.fullRSSKB))
	}
	if old != nil {
		full += "; " + beforeCell(func(r largeResult) string {
			return fmt.Sprintf("%s, RSS %s (%s)", ms(r.load), mb(r.loadRSSKB), ratio(r.load, lr.load))
		})
	}
	t.add("first publish (open criteria.md → diagnostics), "+name, "≤ 2 s, ≤ 150 MB", ms(lr.load)+", RSS "+mb(lr.loadRSSKB), 2000, full)
	t.rows[len(t.rows)-1].value = lr.load
	if lr.loadRSSKB > 150*1024 {
		t.rows[len(t.rows)-1].ok = false
	}
	for _, row := range []struct {
		what string
		l    func(r largeResult) latencies
	}{
		{"hover", func(r largeResult) latencies { return r.hover }},
		{"code lens", func(r largeResult) latencies { return r.lens }},
		{"keystroke → diagnostics published", func(r largeResult) latencies { return r.edit }},
		{"8 concurrent hovers", func(r largeResult) latencies { return r.concurrent }},
		{"keystroke, client without file watching", func(r largeResult) latencies { return r.unwatched }},
	} {
		l := row.l(lr)
		limit := 20.0
		t.add(row.what+", "+name, "≤ 20 ms", l.cell(), limit, beforeCell(func(r largeResult) string { return row.l(r).cell() }))
		t.rows[len(t.rows)-1].value = l.p50()
		if row.what == "8 concurrent hovers" {
			t.rows[len(t.rows)-1].value = l.max()
		}
		if l.failed > 0 {
			t.rows[len(t.rows)-1].ok = false
		}
	}
}

type curvePoint struct {
	runs int
	wall float64
	row  int
}

// markCurve fits wall ∝ n^k over the curve's points (least squares on
// their logarithms) and fails its rows when k exceeds 1.2: growth faster
// than linear. A fit over every point is judged rather than the time added
// from one point to the next, which one noisy point on a shared machine
// turns either way; fixed costs keep k below 1 on a linear curve, and a
// quadratic one reads about 2. Each row's peers cell gets the exponent.
func markCurve(t *table, points []curvePoint) {
	if len(points) < 3 {
		return
	}
	k := growthExponent(points)
	for _, p := range points {
		r := &t.rows[p.row]
		r.peer = strings.TrimPrefix(r.peer+fmt.Sprintf("; wall ∝ n^%.2f over the curve", k), "; ")
		if k > 1.2 {
			r.ok = false
		}
	}
}

// growthExponent is the least-squares slope of log(wall) against log(n).
func growthExponent(points []curvePoint) float64 {
	var sx, sy, sxx, sxy float64
	for _, p := range points {
		x, y := math.Log(float64(p.runs)), math.Log(max(p.wall, 1e-3))
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	n := float64(len(points))
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// loadAverage is the machine's 1-minute load average, for the title: the
// machine is shared, and figures are comparable within one run only.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return f[0]
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func ms(v float64) string {
	if v < 10 {
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.0f ms", v)
}

func mb(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)/1024) }

func ratio(peer, ours float64) string {
	if ours <= 0 {
		return "n/a"
	}
	if peer < ours {
		return fmt.Sprintf("%.1f× faster than charter-lsp", ours/peer)
	}
	return fmt.Sprintf("%.1f× slower than charter-lsp", peer/ours)
}

func rssCycles(kb []int64) string {
	s := ""
	for i, v := range kb {
		if i > 0 {
			s += " → "
		}
		s += fmt.Sprintf("%.0f", float64(v)/1024)
	}
	return s + " MB"
}
