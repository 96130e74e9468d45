package status

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
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
	ReadAs *feature.Reading `json:"readAs"`
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

// CharterOf is the status of a .charters/<id> charter, rendered from its
// folder's view.
func CharterOf(view *charterfile.View) (*Charter, error) {
	if err := view.Loaded(); err != nil {
		return nil, err
	}
	d := view.Dir
	v := &Charter{Format: "charters", CharterID: d.ID, Dir: d.Path, Generation: string(d.Era.Generation),
		Listed: d.Listed(), Legacy: d.Era.Generation.FileInterface(), Warnings: []string{}, FileProblems: []FileProblem{}}
	st := d.State
	if st != nil && st.Valid {
		v.CharterID, v.Status, v.CreatedAt = st.CharterID, st.Status, st.CreatedAt
	}
	v.ReportExists = view.ReportExists
	if d.Events != nil {
		v.Events = len(d.Events.History)
	}
	if c := d.Charter; c != nil {
		v.ReadAs = d.Era.Reading()
		v.Objective, v.References, v.Scope = c.Objective.Text, c.References.Text, c.Scope.Text
		for _, w := range c.Warnings {
			v.Warnings = append(v.Warnings, w.Text)
		}
		switch {
		case d.Era.Generation.FileInterface():
			v.fileInterface(view)
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
	v.fileProblems(view)
	v.NextActions = v.nextActions()
	return v, nil
}

func (v *Charter) fileInterface(view *charterfile.View) {
	c := view.Charter
	open := len(c.Criteria) == 0
	v.OpenEnded = &open
	v.StatusCounts = map[string]int{}
	for _, t := range charterfile.StatusTokens(c.Generation, "Status") {
		v.StatusCounts[string(t)] = 0
	}
	stale, fails := view.Stale, view.FailCounts
	v.Criteria = []CharterCriterion{}
	v.Progress = &Progress{}
	v.Progress.Pass, v.Progress.Total = c.Progress()
	for _, cr := range c.Criteria {
		deps := cr.Depends
		if deps == nil {
			deps = []string{}
		}
		v.Criteria = append(v.Criteria, CharterCriterion{ID: cr.ID, Title: cr.Title, Body: cr.Body, Status: string(cr.Status), Note: cr.Note,
			Stale: stale[cr.ID], Depends: deps, FailCount: fails[cr.ID], Line: cr.Line, Verify: verifyOf(c.VerificationOf(cr))})
		v.StatusCounts[string(cr.Status)]++
	}
	// readyCriteria (charter-file.ts@494a765e): the folder's one reading.
	v.ReadyNext = []string{}
	for _, cr := range c.Ready() {
		v.ReadyNext = append(v.ReadyNext, cr.ID)
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
func (v *Charter) fileProblems(view *charterfile.View) {
	d, byFile := view.Dir, view.Diagnostics()
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
	switch pi.Lifecycle(v.Status) {
	case pi.Active:
		return append(out,
			NextAction{Tool: "charter", Action: "status", Hint: "Re-read the Objective before the next step."},
			NextAction{Tool: "charter", Action: "pause", Hint: "Pause the charter if the work has to stop for now."},
			NextAction{Tool: "charter", Action: "complete", Hint: "Complete it with a short note once the Objective is met."},
			NextAction{Tool: "charter", Action: "abandon", Hint: "Abandon it with a note if the Objective is no longer wanted."})
	case pi.Paused:
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
