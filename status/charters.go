package status

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/jsonenc"
	"github.com/charter-lsp/charter-lsp/internal/shellword"
)

// Charter is the status of a .charters/<id> charter: what pi-charter's
// status view showed for the charter's generation (application/service.ts
// getCharterStatus at the commit of each grammar), computed from the files.
// docs/status-json.md documents the JSON.
type Charter struct {
	Format     string `json:"format"` // always "charters"
	CharterID  string `json:"charterId"`
	Dir        string `json:"dir"`
	Generation string `json:"generation"` // fi14, fi15, phases, objective
	// ReadAs says why charter.md is read in its generation; nil without
	// charter.md.
	ReadAs *analysis.Reading `json:"readAs"`
	// Listed: upstream's charter list shows it (state.json is valid).
	Listed bool `json:"listed"`
	// Legacy: a file-interface charter, which pi-charter since ADR-0016
	// keeps as read-only history.
	Legacy     bool   `json:"legacy"`
	Status     string `json:"status"` // state.json's lifecycle status, "" when unreadable
	Objective  string `json:"objective"`
	References string `json:"references"`
	Scope      string `json:"scope"`
	CreatedAt  string `json:"createdAt,omitempty"`

	// File-interface charters (fi14, fi15).
	OpenEnded    *bool              `json:"openEnded,omitempty"`
	Criteria     []CharterCriterion `json:"criteria,omitempty"`
	StatusCounts map[string]int     `json:"statusCounts,omitempty"`
	Progress     *Progress          `json:"progress,omitempty"`
	ReadyNext    []string           `json:"readyNext,omitempty"`
	Blockers     []string           `json:"blockers,omitempty"`

	// Phases charters.
	Phases      []CharterPhase `json:"phases,omitempty"`
	PhaseCounts map[string]int `json:"phaseCounts,omitempty"`

	// Objective-only charters: the authored text outside the three sections.
	Notes string `json:"notes,omitempty"`

	Warnings     []string      `json:"warnings"`
	ReportExists bool          `json:"reportExists"`
	Events       int           `json:"events"` // journal events upstream reads (0 when one line is bad)
	FileProblems []FileProblem `json:"fileProblems"`
	NextActions  []NextAction  `json:"nextActions"`
}

// CharterCriterion is one criterion of a file-interface charter.
type CharterCriterion struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Body    string   `json:"body"`
	Status  string   `json:"status"`
	Note    string   `json:"note"`
	Stale   bool     `json:"stale"`
	Depends []string `json:"depends"`
	// FailCount is how often the journal records the status turning to fail.
	FailCount int `json:"failCount"`
	// Line is the heading's line in charter.md (1-based).
	Line int `json:"line"`
	// Verify is the criterion's Command: line (ours), what the editor's Run
	// and charter-lsp verify run; absent when it has none.
	Verify *Verify `json:"verify,omitempty"`
}

// Progress counts criteria that pass.
type Progress struct {
	Pass  int `json:"pass"`
	Total int `json:"total"`
}

// CharterPhase is one phase of a phases charter.
type CharterPhase struct {
	Number float64 `json:"number"`
	Title  string  `json:"title"`
	Status string  `json:"status"`
	Body   string  `json:"body"`
}

// IsChartersDir reports whether dir is a .charters/<id> folder.
func IsChartersDir(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	return analysis.ChartersDirAt(abs) == abs
}

// ComputeCharter reads the .charters/<id> folder dir through fsys.
func ComputeCharter(fsys vfs.FS, dir string) (*Charter, error) {
	fi, err := fsys.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a charter folder", dir)
	}
	d := charterfile.LoadDir(fsys, dir)
	if d.CharterSrc == nil && d.StateSrc == nil && d.EventsSrc == nil {
		return nil, errors.New(dir + " holds none of charter.md, state.json, events.jsonl: not a charter")
	}
	v := &Charter{Format: "charters", CharterID: d.ID, Dir: d.Path, Generation: string(d.Era.Generation),
		Listed: d.Listed(), Legacy: d.Era.Generation.FileInterface(), Warnings: []string{}, FileProblems: []FileProblem{}}
	st := d.State
	if st != nil && st.Valid {
		v.CharterID, v.Status, v.CreatedAt = st.CharterID, st.Status, st.CreatedAt
	}
	if _, err := fsys.Stat(filepath.Join(d.Path, "REPORT.md")); err == nil {
		v.ReportExists = true
	}
	if d.Events != nil {
		v.Events = len(d.Events.History)
	}
	if c := d.Charter; c != nil {
		v.ReadAs = analysis.ChartersReading(d.Era)
		v.Objective, v.References, v.Scope = c.Objective.Text, c.References.Text, c.Scope.Text
		for _, w := range c.Warnings {
			v.Warnings = append(v.Warnings, w.Text)
		}
		switch {
		case d.Era.Generation.FileInterface():
			v.fileInterface(d)
		case d.Era.Generation == charterfile.PH:
			v.phases(c)
		default:
			v.Notes = c.Notes
		}
	} else {
		v.Generation = ""
	}
	if v.Objective == "" && st != nil {
		v.Objective = st.Objective // upstream shows state.json's objective when the file has none
	}
	v.fileProblems(d)
	v.NextActions = v.nextActions()
	return v, nil
}

func (v *Charter) fileInterface(d *charterfile.Dir) {
	c := d.Charter
	open := len(c.Criteria) == 0
	v.OpenEnded = &open
	v.StatusCounts = map[string]int{}
	for _, t := range charterfile.StatusTokens(c.Generation, "Status") {
		v.StatusCounts[string(t)] = 0
	}
	stale := staleCriteria(d)
	fails := map[string]int{}
	if d.Events != nil {
		fails = d.Events.FailCounts()
	}
	v.Criteria = []CharterCriterion{}
	v.Progress = &Progress{Total: len(c.Criteria)}
	passed := map[string]bool{}
	for _, cr := range c.Criteria {
		deps := cr.Depends
		if deps == nil {
			deps = []string{}
		}
		v.Criteria = append(v.Criteria, CharterCriterion{ID: cr.ID, Title: cr.Title, Body: cr.Body, Status: string(cr.Status), Note: cr.Note,
			Stale: stale[cr.ID], Depends: deps, FailCount: fails[cr.ID], Line: cr.Line, Verify: verifyOf(c.VerificationOf(cr))})
		v.StatusCounts[string(cr.Status)]++
		if cr.Status == charterfile.StatusPass {
			v.Progress.Pass++
			passed[cr.ID] = true
		}
	}
	// readyCriteria: not passing, and every dependency passes or names no
	// criterion (charter-file.ts@494a765e).
	known := map[string]bool{}
	for _, cr := range c.Criteria {
		known[cr.ID] = true
	}
	v.ReadyNext = []string{}
	for _, cr := range c.Criteria {
		if cr.Status == charterfile.StatusPass {
			continue
		}
		ready := true
		for _, dep := range cr.Depends {
			if known[dep] && !passed[dep] {
				ready = false
			}
		}
		if ready {
			v.ReadyNext = append(v.ReadyNext, cr.ID)
		}
	}
	// completionBlockers (application/service.ts@494a765e).
	v.Blockers = []string{}
	if open {
		v.Blockers = append(v.Blockers, "open-ended charter has no criteria")
	} else {
		for _, cr := range c.Criteria {
			if cr.Status != charterfile.StatusPass {
				v.Blockers = append(v.Blockers, fmt.Sprintf("%s status is %s", cr.ID, cr.Status))
			}
			if cr.Status == charterfile.StatusPass && strings.TrimSpace(cr.Note) == "" {
				v.Blockers = append(v.Blockers, cr.ID+" pass status has empty note")
			}
			if stale[cr.ID] {
				v.Blockers = append(v.Blockers, cr.ID+" pass status is stale")
			}
		}
		if !v.ReportExists {
			v.Blockers = append(v.Blockers, "REPORT.md missing")
		}
	}
}

// staleCriteria is upstream's criterionStaleness after the snapshot
// refresh its status view runs first (application/staleness.ts@11ebdca7):
// a passing criterion is stale when its status was last changed before the
// latest recorded source change. When charter.md differs from the
// snapshot, a criterion whose status or note changed is dated now (fresh).
func staleCriteria(d *charterfile.Dir) map[string]bool {
	out := map[string]bool{}
	st := d.State
	if st == nil || !st.Valid || d.Charter == nil {
		return out
	}
	snap := map[string]charterfile.Snapshot{}
	for _, s := range st.CriteriaSnapshot {
		snap[s.ID] = s
	}
	sum := sha256.Sum256(d.CharterSrc)
	changed := hex.EncodeToString(sum[:]) != st.SnapshotHash
	for _, cr := range d.Charter.Criteria {
		status := cr.Status.Current()
		old, ok := snap[cr.ID]
		seq := old.Seq
		if changed && (!ok || old.Status != status || old.Note != cr.Note) {
			seq = st.NextSeq // a new sequence number: later than any recorded source change
		} else if !ok {
			continue
		}
		out[cr.ID] = status == charterfile.StatusPass && seq < st.LatestSourceSeq
	}
	return out
}

func (v *Charter) phases(c *charterfile.Charter) {
	v.Phases = []CharterPhase{}
	v.PhaseCounts = map[string]int{}
	for _, s := range charterfile.PhaseStatuses {
		v.PhaseCounts[string(s)] = 0
	}
	for _, p := range c.Phases {
		v.Phases = append(v.Phases, CharterPhase{Number: p.Number, Title: p.Title, Status: string(p.Status), Body: p.Body})
		v.PhaseCounts[string(p.Status)]++
	}
}

// fileProblems lists what charter-lsp check reports about the folder's
// sidecars and the file's generation: why upstream does not list the
// charter, cannot look it up, sees no history, or reads another grammar.
func (v *Charter) fileProblems(d *charterfile.Dir) {
	byFile := charterfile.Check(d)
	for _, name := range []string{charterfile.CharterFile, charterfile.StateFile, charterfile.EventsFile} {
		p := filepath.Join(d.Path, name)
		for _, dg := range byFile[p] {
			switch dg.Code {
			case diag.StateInvalid, diag.CharterIDShape, diag.EventsLineInvalid, diag.GenerationMismatch, diag.FileUnreadable:
				v.FileProblems = append(v.FileProblems, FileProblem{File: name, Line: dg.Range.Start.Line + 1, Code: dg.Code, Message: dg.Message})
			}
		}
	}
}

// nextActions follow the lifecycle as upstream's do, in our words; a
// file-interface charter is read-only for current pi-charter, so the one
// way forward is a new charter.
func (v *Charter) nextActions() []NextAction {
	out := []NextAction{}
	if v.Legacy {
		return append(out, NextAction{Tool: "charter-lsp", Action: "migrate",
			Hint: "Current pi-charter keeps file-interface charters as read-only history: `charter-lsp migrate " + shellword.Quote(v.Dir) + "` writes a new Objective charter that carries the criteria and their statuses over."})
	}
	switch v.Status {
	case "active":
		return append(out,
			NextAction{Tool: "charter", Action: "status", Hint: "Re-read the Objective before the next step."},
			NextAction{Tool: "charter", Action: "pause", Hint: "Pause the charter if the work has to stop for now."},
			NextAction{Tool: "charter", Action: "complete", Hint: "Complete it with a short note once the Objective is met."},
			NextAction{Tool: "charter", Action: "abandon", Hint: "Abandon it with a note if the Objective is no longer wanted."})
	case "paused":
		return append(out,
			NextAction{Tool: "charter", Action: "resume", Hint: "Resume the charter to continue."},
			NextAction{Tool: "charter", Action: "complete", Hint: "Complete it with a short note if the Objective is already met."},
			NextAction{Tool: "charter", Action: "abandon", Hint: "Abandon it with a note if the Objective is no longer wanted."})
	}
	if !v.Listed {
		return append(out, NextAction{Tool: "edit", Hint: "Repair state.json (see fileProblems): until then pi-charter does not list this charter.",
			Metadata: map[string]any{"path": "state.json"}})
	}
	return out
}

// MarshalJSON writes a .charters/ charter's status as its own shape, and a
// .pi/charters/ one as before.
func (s *Status) MarshalJSON() ([]byte, error) {
	var v any = s.Charters
	if s.Charters == nil {
		type plain Status // without this method
		v = (*plain)(s)
	}
	// As the CLI encodes: no HTML escaping of <, > and & in notes.
	return jsonenc.Marshal(v)
}
