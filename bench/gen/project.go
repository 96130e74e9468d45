package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The words the generated files use from pi's and .charters' vocabularies,
// spelled once here: pi's own tests import this package, so it cannot
// import pi or charterfile for their constants.
const (
	pass    = "pass"    // pi.Pass
	fail    = "fail"    // pi.Fail
	done    = "done"    // charterfile.PhaseDone
	current = "current" // charterfile.PhaseCurrent
)

// Project describes a generated pi project.
type Project struct {
	CharterID  string // default "bench"
	Milestones int
	VALs       int // per milestone
	// Runs are evidence runs, one row each, dealt over the register's VALs
	// in order: run r records VAL r mod (Milestones × VALs), so up to one
	// run per VAL covers the first VALs, and more runs give every VAL a
	// history (100,000 runs on the 5,000-VAL register: 20 each).
	Runs    int
	Sources int // files under src/, spread over folders of 100
	// State writes criterion-state.json, naming each VAL's latest run as
	// pi-charter keeps it.
	State bool
}

// History is the long-history project of n runs the benchmarks check and
// serve: the realistic 100-VAL register, whose VALs each have n/100 runs
// (as if CI recorded every VAL n/100 times), a hundred source files and
// criterion-state.json naming each one's latest.
func History(n int) Project {
	return Project{Milestones: RealisticMilestones, VALs: RealisticVALs, Runs: n, Sources: 100, State: true}
}

// runEpoch is the time of the first run; run r is r minutes later.
var runEpoch = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// Write creates the project under root and returns the criteria.md path.
// Files are written as they are generated, so a project of 100,000 runs
// never holds them all in memory.
func (p Project) Write(root string) (string, error) {
	id := p.CharterID
	if id == "" {
		id = "bench"
	}
	dir := filepath.Join(root, ".pi", "charters", id)
	made := map[string]bool{}
	write := func(path string, b []byte) error {
		if d := filepath.Dir(path); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		return os.WriteFile(path, b, 0o644)
	}
	if err := write(filepath.Join(dir, "charter.md"), Charter(id)); err != nil {
		return "", err
	}
	if err := write(filepath.Join(dir, "criteria.md"), Criteria(p.Milestones, p.VALs)); err != nil {
		return "", err
	}
	vals := max(p.VALs, 1)
	total := max(p.Milestones*p.VALs, 1)
	latest := map[string]Latest{}
	for r := 0; r < p.Runs; r++ {
		n := r % total
		m, v := n/vals, n%vals
		seg := fmt.Sprintf("m%d", m+1)
		at := runEpoch.Add(time.Duration(r) * time.Minute)
		stamp := at.Format("2006-01-02T15-04-05-000Z")
		ts := at.Format("2006-01-02T15:04:05.000Z")
		// One run in 13 fails, so histories are not all green; a VAL's
		// newest run decides its outcome.
		outcome := pass
		if r%13 == 12 {
			outcome = fail
		}
		if err := write(filepath.Join(dir, "work", seg, "evidence", stamp, "evidence.json"), Evidence(id, seg, ID(m, v), outcome, ts)); err != nil {
			return "", err
		}
		latest[ID(m, v)] = Latest{Path: RunPath(seg, at), Outcome: outcome, TS: ts, FeatureID: seg}
	}
	if p.State {
		if err := write(filepath.Join(dir, "criterion-state.json"), CriterionState(id, latest, runEpoch.Add(time.Duration(p.Runs)*time.Minute))); err != nil {
			return "", err
		}
	}
	for i := 0; i < p.Sources; i++ {
		path := filepath.Join(root, "src", fmt.Sprintf("pkg%03d", i/100), fmt.Sprintf("file%03d.go", i%100))
		if err := write(path, []byte(fmt.Sprintf("package pkg%03d\n", i/100))); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, "criteria.md"), nil
}
