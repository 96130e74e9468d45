// Command lspbench measures the issue-8 targets against the charter-lsp
// binary and, in the same run, the peers (markdownlint-cli2 and VS Code's
// markdown language server, installed by `npm ci` in bench/peers), and
// prints the table `make bench` shows.
//
//	go run ./bench/cmd/lspbench -bin bin/charter-lsp -peers bench/peers
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/charter-lsp/charter-lsp/bench/gen"
)

func main() {
	bin := flag.String("bin", "bin/charter-lsp", "the charter-lsp binary")
	peers := flag.String("peers", "bench/peers", "folder with the peers' package.json and mdls.js")
	edits := flag.Int("edits", 1000, "edits of the large register (RSS is read after each cycle of a third)")
	sources := flag.Int("sources", 50_000, "source files of the many-sources project")
	flag.Parse()
	if err := run(*bin, *peers, *edits, *sources); err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(1)
	}
}

func run(bin, peers string, edits, sources int) error {
	bin, _ = filepath.Abs(bin)
	tmp, err := os.MkdirTemp("", "lspbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	write := func(name string, p gen.Project) (string, error) { return p.Write(filepath.Join(tmp, name)) }
	big, err := write("big", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 20, Sources: 100})
	if err != nil {
		return err
	}
	small, err := write("small", gen.Project{Milestones: gen.RealisticMilestones, VALs: gen.RealisticVALs, Runs: 20, Sources: 100})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "writing %d source files…\n", sources)
	many, err := write("many", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 20, Sources: sources})
	if err != nil {
		return err
	}
	fi, _ := os.Stat(big)
	var t table
	t.title = fmt.Sprintf("charter-lsp performance — %s, %d bytes, %d VALs; medians; %s", filepath.Base(big), fi.Size(),
		gen.LargeMilestones*gen.LargeVALs, time.Now().UTC().Format("2006-01-02 15:04 UTC"))

	fmt.Fprintln(os.Stderr, "check…")
	chk, err := measureCheck(bin, big, 9)
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "peers…")
	mdl := measureMarkdownlint(peers, big, 3)
	mdls := measureMarkdownLS(peers, big, 10)

	fmt.Fprintln(os.Stderr, "server, large register…")
	bigRes, err := measureServer(bin, filepath.Join(tmp, "big"), big, edits)
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "server, realistic register…")
	smallRes, err := measureServer(bin, filepath.Join(tmp, "small"), small, 200)
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "server, many sources…")
	manyRes, err := measureServer(bin, filepath.Join(tmp, "many"), many, 100)
	if err != nil {
		return err
	}

	t.add("edit → diagnostics published, 5,000 VALs (debounce 0)", "≤ 10 ms", ms(bigRes.edit), 10, mdls.cell(func(r mdlsResult) string {
		return fmt.Sprintf("markdown LS edit → diagnostics+symbols %s (%s)", ms(r.EditMedianMs), ratio(r.EditMedianMs, bigRes.edit))
	}))
	t.add("edit → diagnostics published, 100 VALs", "≤ 2 ms", ms(smallRes.edit), 2, "")
	t.add("edit → diagnostics, 5,000 VALs + "+fmt.Sprint(sources)+" source files", "no extra latency", ms(manyRes.edit), bigRes.edit*1.5+1, fmt.Sprintf("open → diagnostics median %s (the walk is cached)", ms(manyRes.open)))
	t.add("open → first diagnostics, 5,000 VALs", "≤ 150 ms", ms(bigRes.open), 150, mdls.cell(func(r mdlsResult) string {
		return fmt.Sprintf("markdown LS open → symbols %s (%s)", ms(r.OpenToSymbolsMs), ratio(r.OpenToSymbolsMs, bigRes.open))
	}))
	t.add("hover, 5,000 VALs", "≤ 5 ms", ms(bigRes.hover), 5, "")
	t.add("code action, 5,000 VALs", "≤ 5 ms", ms(bigRes.action), 5, "")
	t.add("completion, 5,000 VALs", "≤ 5 ms", ms(bigRes.completion), 5, "")
	t.add("check, whole process, wall", "≤ 200 ms, ≥ 15× markdownlint", ms(chk.wall), 200, mdl.cell(func(r procResult) string {
		return fmt.Sprintf("markdownlint-cli2 %s (%s)", ms(r.wall), ratio(r.wall, chk.wall))
	}))
	t.add("check, whole process, peak RSS", "≤ 80 MB", mb(chk.rssKB), 80*1024, mdl.cell(func(r procResult) string {
		return fmt.Sprintf("markdownlint-cli2 %s", mb(r.rssKB))
	}))
	t.rows[len(t.rows)-1].value = float64(chk.rssKB)
	t.add(fmt.Sprintf("server RSS after %d edits (per cycle)", edits), "≤ 100 MB, no growth", rssCycles(bigRes.rssKB), 100*1024, "")
	t.rows[len(t.rows)-1].value = float64(bigRes.rssKB[len(bigRes.rssKB)-1])
	if len(bigRes.rssKB) > 1 && bigRes.rssKB[len(bigRes.rssKB)-1] > bigRes.rssKB[1]*12/10 {
		t.rows[len(t.rows)-1].ok = false
	}
	if mdl.err == nil && chk.wall*15 > mdl.res.wall {
		t.rows[len(t.rows)-2].ok = false
	}
	t.print(os.Stdout)
	return nil
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
	return fmt.Sprintf("%.0f× slower than charter-lsp", peer/ours)
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
