// Command gencriteria writes the benchmark registers: a criteria.md of
// milestones × VALs to stdout, or with -project a whole pi project.
//
//	go run ./bench/cmd/gencriteria > criteria.md              # 500 × 10, ≈ 1.7 MB
//	go run ./bench/cmd/gencriteria -milestones 10 -vals 10    # a realistic 100-VAL file
//	go run ./bench/cmd/gencriteria -project /tmp/p -sources 50000
//	go run ./bench/cmd/gencriteria -monorepo 10000 -project /tmp/mono  # 10,000 packages, 11 files each
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/charter-lsp/charter-lsp/bench/gen"
)

func main() {
	milestones := flag.Int("milestones", gen.LargeMilestones, "number of ## milestones")
	vals := flag.Int("vals", gen.LargeVALs, "### VAL-* criteria per milestone")
	project := flag.String("project", "", "write a pi project under this folder instead of printing criteria.md")
	runs := flag.Int("runs", 0, "evidence runs to write with -project")
	sources := flag.Int("sources", 0, "source files under src/ to write with -project")
	monorepo := flag.Int("monorepo", 0, "with -project, write a monorepo of this many packages (a pi charter, a .charters/ charter and an rp1 charter each) instead")
	flag.Parse()
	if *milestones < 0 || *vals < 0 || *runs < 0 || *sources < 0 || *monorepo < 0 {
		fmt.Fprintln(os.Stderr, "gencriteria: counts must not be negative")
		os.Exit(2)
	}
	if *project == "" {
		os.Stdout.Write(gen.Criteria(*milestones, *vals))
		return
	}
	if *monorepo > 0 {
		if err := (gen.Monorepo{Packages: *monorepo, Runs: *runs}).Write(*project); err != nil {
			fmt.Fprintln(os.Stderr, "gencriteria:", err)
			os.Exit(1)
		}
		return
	}
	p := gen.Project{Milestones: *milestones, VALs: *vals, Runs: *runs, Sources: *sources, State: *runs > 0}
	path, err := p.Write(*project)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencriteria:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}
