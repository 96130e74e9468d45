package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Monorepo describes a generated monorepo of charters: Packages folders
// under packages/, each a project with the three families side by side —
// a pi v3 charter (.pi/charters/<id>/: charter.md, a register of
// milestones × VALs, state.json, criterion-state.json naming the latest
// runs, and evidence runs), a .charters/<id>/ charter (charter.md,
// state.json, events.jsonl) and an rp1 charter (.rp1/context/charter.md) —
// and one source file: 11 files a package with the default two runs.
// About one package in 7 carries a mistake somewhere, so the check has
// something to say.
type Monorepo struct {
	Packages int
	// Runs are evidence runs per package (default 2).
	Runs int
}

// MonorepoFilesPerPackage is how many files a package of two runs holds.
const MonorepoFilesPerPackage = 11

// Package is the folder of package i (0-based) under the monorepo's root.
func Package(root string, i int) string {
	return filepath.Join(root, "packages", fmt.Sprintf("p%05d", i))
}

// Write creates the monorepo under root.
func (m Monorepo) Write(root string) error {
	runs := m.Runs
	if runs == 0 {
		runs = 2
	}
	w := writer{made: map[string]bool{}}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	for i := 0; i < m.Packages; i++ {
		if err := m.writePackage(&w, Package(root, i), i, runs); err != nil {
			return err
		}
	}
	return nil
}

// writer writes files, making each folder once.
type writer struct{ made map[string]bool }

func (w *writer) write(path string, b []byte) error {
	if d := filepath.Dir(path); !w.made[d] {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		w.made[d] = true
	}
	return os.WriteFile(path, b, 0o644)
}

func (m Monorepo) writePackage(w *writer, pkg string, i, runs int) error {
	id := fmt.Sprintf("pkg%05d", i)
	tag := fmt.Sprintf("P%d", i) // each register's ids its own: VAL-AUTH1P42-001
	pi := filepath.Join(pkg, ".pi", "charters", id)
	const milestones, vals = 2, 3
	at := runEpoch.Add(time.Duration(i) * time.Hour)
	files := map[string][]byte{
		filepath.Join(pi, "charter.md"):                     Charter(id),
		filepath.Join(pi, "criteria.md"):                    TaggedCriteria(milestones, vals, tag),
		filepath.Join(pi, "state.json"):                     State(id, at),
		filepath.Join(pkg, "src", "main.go"):                []byte(fmt.Sprintf("package %s\n\n// %s is tested here.\nfunc main() {}\n", id, TaggedID(0, 0, tag))),
		filepath.Join(pkg, ".rp1", "context", "charter.md"): RP1Charter(id),
	}
	latest := map[string]Latest{}
	for r := 0; r < runs; r++ {
		n := r % (milestones * vals)
		mm, v := n/vals, n%vals
		seg := fmt.Sprintf("m%d", mm+1)
		t := at.Add(time.Duration(r) * time.Minute)
		outcome := pass
		if (i+r)%5 == 4 {
			outcome = fail
		}
		run := RunPath(seg, t)
		files[filepath.Join(pi, filepath.FromSlash(run))] = Evidence(id, seg, TaggedID(mm, v, tag), outcome, Stamp(t))
		latest[TaggedID(mm, v, tag)] = Latest{Path: run, Outcome: outcome, TS: Stamp(t), FeatureID: seg}
	}
	if i%7 == 3 {
		// criterion-state.json out of step with the evidence: a mistake.
		for k, l := range latest {
			l.Outcome = pass
			latest[k] = l
		}
	}
	files[filepath.Join(pi, "criterion-state.json")] = CriterionState(id, latest, at)
	stamp := at.Format("20060102-150405")
	cid := stamp + "-" + id
	cdir := filepath.Join(pkg, ".charters", cid)
	files[filepath.Join(cdir, "charter.md")] = ChartersCharter(i)
	files[filepath.Join(cdir, "state.json")] = ChartersState(cid, at)
	files[filepath.Join(cdir, "events.jsonl")] = ChartersEvents(cid, at)
	for path, b := range files {
		if err := w.write(path, b); err != nil {
			return err
		}
	}
	return nil
}

// Stamp is the evidence time t as pi-charter writes it.
func Stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// RunPath is the evidence run of segment seg at t, relative to its
// charter folder.
func RunPath(seg string, t time.Time) string {
	return "work/" + seg + "/evidence/" + t.UTC().Format("2006-01-02T15-04-05-000Z") + "/evidence.json"
}

// State is a pi v3 state.json.
func State(id string, at time.Time) []byte {
	return []byte(fmt.Sprintf(`{
  "charterId": %q,
  "schemaVersion": "v2",
  "name": "Benchmark charter %s",
  "objective": "Keep every generated criterion verifiable.",
  "status": "active",
  "createdAt": %q,
  "updatedAt": %q
}
`, id, id, Stamp(at), Stamp(at)))
}

// Latest is a criterion's latest run, as criterion-state.json names it.
type Latest struct {
	Path, Outcome, TS, FeatureID string
}

// CriterionState is a criterion-state.json naming each criterion's latest
// run, in the order of its ids.
func CriterionState(id string, latest map[string]Latest, at time.Time) []byte {
	ids := make([]string, 0, len(latest))
	for k := range latest {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  \"charterId\": %q,\n  \"criteria\": {", id)
	for n, k := range ids {
		l := latest[k]
		if n > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `
    %q: {
      "outcome": %q,
      "lastEvidencePath": %q,
      "lastTs": %q,
      "lastSummary": "generated",
      "lastFeatureId": %q,
      "source": "verifier",
      "recordedBy": "agent:root"
    }`, k, l.Outcome, l.Path, l.TS, l.FeatureID)
	}
	fmt.Fprintf(&b, "\n  },\n  \"lastToolWriteAt\": %q\n}\n", Stamp(at))
	return []byte(b.String())
}

// ChartersCharter is a .charters/<id>/charter.md of the phases grammar;
// package i's current phase moves with i.
func ChartersCharter(i int) []byte {
	status := []string{done, done, current, ""}
	if i%4 == 1 {
		status = []string{done, current, "", ""}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Objective\n\nShip package %d's export without dropping a format we offer today.\n\n## Scope\n\nExport only; import is unchanged.\n\n## Phases\n\n", i)
	for n, name := range []string{"Map the fields", "Build the endpoint", "Verify in the browser", "Write the release note"} {
		fmt.Fprintf(&b, "%d. %s", n+1, name)
		if status[n] != "" {
			b.WriteString(" — " + status[n])
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// ChartersState is a .charters/<id>/state.json.
func ChartersState(id string, at time.Time) []byte {
	return []byte(fmt.Sprintf(`{
  "charterId": %q,
  "schemaVersion": "phases",
  "objective": "Ship the export",
  "status": "active",
  "createdAt": %q,
  "updatedAt": %q
}
`, id, Stamp(at), Stamp(at)))
}

// ChartersEvents is a .charters/<id>/events.jsonl.
func ChartersEvents(id string, at time.Time) []byte {
	return []byte(fmt.Sprintf(`{"type":"charter_created","ts":%q,"charterId":%q,"objective":"Ship the export"}
{"type":"charter_bound","ts":%q,"charterId":%q,"sessionId":"s-bench"}
`, Stamp(at), id, Stamp(at.Add(4*time.Second)), id))
}

// RP1Charter is an rp1 project charter (scratch-pad era, sections filled).
func RP1Charter(id string) []byte {
	return []byte(fmt.Sprintf(`# Project Charter: %s

**Version**: 1.0.0
**Status**: Draft
**Created**: 2026-11-02
**Last Updated**: 2026-11-15

## Problem & Context

Volunteer groups log what they collect on paper forms, typed up weeks later if at all.

## Target Users

- Coordinators who run a group of 5 to 40 volunteers.

## Business Rationale

TBD

## Scope Guardrails

### We Will
- Record items by category from a phone, offline.

### We Won't
- Handle scheduling or payments.
`, id))
}
