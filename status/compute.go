package status

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// Of is the charter's full status as of now, rendered from its view.
func Of(v *pi.View, now time.Time) *Status {
	c := &computer{view: v, d: v.Dir, now: now}
	return c.run()
}

// computer builds one Status from a View.
type computer struct {
	view *pi.View
	d    *pi.Dir
	now  time.Time
	st   *Status
}

func (c *computer) run() *Status {
	d := c.d
	st := &Status{
		CharterID: d.ID, Dir: d.Path, Now: isoTime(c.now),
		Milestones: []Milestone{}, Criteria: []Criterion{}, Commands: map[string]string{},
		ParseWarnings: []ParseWarning{}, FileProblems: []FileProblem{}, NextActions: []NextAction{},
		Drift: Drift{Uncovered: []Uncovered{}, Stale: []Stale{}, ReadyNext: []ReadyNext{},
			SidecarDrift: []SidecarDrift{}, MilestoneArtifacts: []MilestoneArtifact{}},
		Details: Details{BlockingForComplete: []Blocker{}},
	}
	c.st = st
	if s := d.State; s != nil {
		if s.CharterID != "" {
			st.CharterID = s.CharterID
		}
		st.Name, st.Objective, st.Status = s.Name, s.Objective, s.Status
		if s.RawStatus != s.Status {
			st.RawStatus = s.RawStatus
		}
	}
	if st.Objective == "" && d.Charter != nil {
		st.Objective = d.Charter.Objective
	}
	if d.Charter != nil {
		for _, l := range d.Charter.Commands {
			if !l.Malformed {
				st.Commands[l.Key] = l.Value
			}
		}
	}
	c.fileProblems()
	c.criteria()
	c.drift()
	c.parseWarnings()
	c.blockers()
	st.NextActions = nextActions(st)
	return st
}

// rel names a file of the charter relative to its directory, with '/'.
func (c *computer) rel(p string) string {
	if r, err := filepath.Rel(c.d.Path, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

// hasProblems reports whether run has a problem fileProblems lists.
func hasProblems(run *pi.EvidenceRun, reg *pi.Criteria) bool {
	if len(run.Problems) > 0 {
		return true
	}
	for i := range run.Rows {
		r := &run.Rows[i]
		if len(r.SchemaProblems()) > 0 || r.CriterionID != "" && reg.Lookup(r.CriterionID) == nil {
			return true
		}
	}
	return false
}

// line is the 1-based line of offset off in f.
func line(f *pi.File, off int) int {
	if f == nil || f.Index == nil {
		return 0
	}
	return f.Index.Line(off) + 1
}

func (c *computer) fileProblems() {
	add := func(f *pi.File, ps []pi.JSONProblem) {
		for _, p := range ps {
			c.st.FileProblems = append(c.st.FileProblems, FileProblem{File: c.rel(f.Path), Line: line(f, p.Span.Start), Code: p.Code, Message: p.Message})
		}
	}
	if c.d.StateFile != nil {
		add(c.d.StateFile, c.d.StateProblems)
	}
	if c.d.CriterionStateFile != nil {
		add(c.d.CriterionStateFile, c.d.CriterionStateProblems)
	}
	for _, run := range c.d.Runs {
		if !hasProblems(run, c.d.Criteria) {
			continue
		}
		// A run keeps no text: it is read again for its lines, and skipped
		// when it changed since it was loaded (the next load reports it).
		f, err := run.Read()
		if err != nil {
			continue
		}
		add(f, run.Problems)
		for i := range run.Rows {
			r := &run.Rows[i]
			add(f, r.SchemaProblems())
			if r.CriterionID != "" && c.d.Criteria.Lookup(r.CriterionID) == nil {
				c.st.FileProblems = append(c.st.FileProblems, FileProblem{File: run.RelPath, Line: line(f, r.Span.Start),
					Code: diag.EvidenceUnknownVAL, Message: fmt.Sprintf("evidence for %s, which criteria.md does not declare", r.CriterionID)})
			}
		}
	}
	for _, err := range c.d.Errors {
		// A FIFO, a folder or an over-size file where a charter file
		// belongs is reported with the code check gives it.
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			c.st.FileProblems = append(c.st.FileProblems, FileProblem{File: "", Code: diag.FileUnreadable, Message: err.Error()})
			continue
		}
		p := pi.ReadProblem(pe.Path, err)
		c.st.FileProblems = append(c.st.FileProblems, FileProblem{File: c.rel(pe.Path), Code: p.Code, Message: p.Message})
	}
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// Charters is the status of a .charters/<id> folder, rendered from its
// view, in Status.Charters.
func Charters(v *charterfile.View) (*Status, error) {
	c, err := CharterOf(v)
	if err != nil {
		return nil, err
	}
	return &Status{CharterID: c.CharterID, Dir: c.Dir, Status: c.Status, Objective: c.Objective, Charters: c}, nil
}

// Loaded reports why d is no pi charter status can be given for: it holds
// none of charter.md, criteria.md and state.json, or none that can be read
// (a FIFO, a folder where the file belongs).
func Loaded(d *pi.Dir) error {
	if d.CharterFile != nil || d.CriteriaFile != nil || d.StateFile != nil {
		return nil
	}
	if len(d.Errors) > 0 {
		return fmt.Errorf("%s: no charter file can be read: %w", d.Path, errors.Join(d.Errors...))
	}
	return errors.New(d.Path + " holds none of charter.md, criteria.md, state.json: not a pi charter")
}
