package status

import (
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// Status is one charter's status. Field names follow pi-charter's
// charter_status (camelCase); docs/status-json.md documents every field.
type Status struct {
	// CharterID is state.json's charterId, else the directory's name.
	CharterID string `json:"charterId"`
	Dir       string `json:"dir"` // the charter directory, absolute
	// Name is state.json's name, when it has one.
	Name string `json:"name,omitempty"`
	// Status is the lifecycle status, legacy values normalised:
	// active, paused, completed or abandoned ("" when state.json is missing).
	Status string `json:"status"`
	// RawStatus is state.json's status as written, when it differs.
	RawStatus string `json:"rawStatus,omitempty"`
	// Objective is state.json's objective, else charter.md's ## Objective.
	Objective string `json:"objective"`
	Now       string `json:"now"` // the time the status was computed for

	Milestones []Milestone `json:"milestones"` // criteria.md's milestones, in order
	Criteria   []Criterion `json:"criteria"`   // every VAL, in register order
	ValTotal   int         `json:"valTotal"`   // VALs in the register
	ValPass    int         `json:"valPass"`    // VALs whose latest outcome is pass
	// RegisterEmpty: the register holds no VAL.
	RegisterEmpty bool `json:"registerEmpty"`

	Drift   Drift   `json:"drift"`
	Details Details `json:"details"`

	// Commands is charter.md's ## Commands (key → command); never run.
	Commands      map[string]string `json:"commands"`
	ParseWarnings []ParseWarning    `json:"parseWarnings"`
	// FileProblems are files that could not be read or break their schema
	// (an evidence row with an unknown property, unreadable JSON, …).
	FileProblems []FileProblem `json:"fileProblems"`
	NextActions  []NextAction  `json:"nextActions"`

	// Charters is set instead of the fields above for a .charters/<id>
	// charter (pi-charter since ADR-0014); it is what marshals then.
	Charters *Charter `json:"-"`

	cliDir string // the charter folder as command lines name it (From); "" from the project
}

// Milestone is one ## milestone of criteria.md and its progress.
type Milestone struct {
	MilestoneID  string   `json:"milestoneId"`
	Title        string   `json:"title"`
	CriterionIDs []string `json:"criterionIds"`
	ValCount     int      `json:"valCount"`
	ValPassCount int      `json:"valPassCount"`
}

// Criterion is one VAL with its latest outcome.
type Criterion struct {
	CriterionID string `json:"criterionId"`
	Title       string `json:"title"`
	MilestoneID string `json:"milestoneId,omitempty"`
	Verifier    string `json:"verifier"`
	// VerifierSpec is the verifier as upstream's parser returns it
	// (verifierSpec): kind plus the fields of that kind.
	VerifierSpec         VerifierSpec `json:"verifierSpec"`
	Command              string       `json:"command,omitempty"`
	RequireFreshEvidence bool         `json:"requireFreshEvidence"`

	// Outcome is the latest recorded outcome (pass, fail, partial), or ""
	// when nothing is recorded; the fields below describe that record.
	Outcome          pi.Outcome `json:"outcome,omitempty"`
	LastTs           string     `json:"lastTs,omitempty"`
	AgeMs            *int64     `json:"ageMs,omitempty"` // now - lastTs
	LastSummary      string     `json:"lastSummary,omitempty"`
	LastEvidencePath string     `json:"lastEvidencePath,omitempty"`
	LastFeatureID    string     `json:"lastFeatureId,omitempty"`
	Source           pi.Source  `json:"source,omitempty"`
	RecordedBy       string     `json:"recordedBy,omitempty"`
	Because          string     `json:"because,omitempty"`
	// From is the file the latest record was read from: criterion-state.json
	// or an evidence run's work/…/evidence.json, relative to the charter.
	From  string `json:"from,omitempty"`
	Stale bool   `json:"stale"`
	// File is the file the VAL is written in (criteria.md, or charter.md for
	// a legacy register), relative to the charter; Line its heading's line
	// (1-based).
	File string `json:"file"`
	Line int    `json:"line"`
	// Verify is the command charter-lsp verify (the editor's Run) runs for
	// this VAL; absent when its verifier has no command to run.
	Verify *Verify `json:"verify,omitempty"`

	// later marks a later block of a repeated id, which upstream never
	// reads (pi.Criteria.Effective): the list keeps it, as upstream counts
	// it, but nothing shows it as the VAL (Status.byID).
	later bool
}

// byID maps each VAL id to the block upstream reads for it, the one
// pi.Criteria.Effective names (computer.criteria marks the others later),
// for the views that show a VAL by its id: the dashboards and the next
// actions.
func (st *Status) byID() map[string]*Criterion {
	m := make(map[string]*Criterion, len(st.Criteria))
	for i := range st.Criteria {
		if v := &st.Criteria[i]; !v.later {
			m[v.CriterionID] = v
		}
	}
	return m
}

// Verify is the command that verifies a criterion (what the editor's Run
// and charter-lsp verify run, after the user confirms it).
type Verify struct {
	// Command is the text the shell runs, verbatim.
	Command string `json:"command"`
	// Key is the ## Commands entry the criterion's Command: line names.
	Key string `json:"key,omitempty"`
	// Weak says why the command can pass without running a test.
	Weak string `json:"weak,omitempty"`
}

// verifyOf is the Verify of a verification, nil when there is none.
func verifyOf(v pi.Verification, err error) *Verify {
	if err != nil {
		return nil
	}
	out := &Verify{Command: v.Command, Key: v.Key}
	if v.Weak != nil {
		out.Weak = v.Weak.Reason
	}
	return out
}

// VerifierSpec is upstream's verifier object: command has command (when
// not blank), subagent agent and task, evidence-exists evidenceKind and
// freshSince (when given); manual, hook and prompt have the kind alone.
type VerifierSpec struct {
	Kind         string  `json:"kind"`
	Command      string  `json:"command,omitempty"`
	Agent        *string `json:"agent,omitempty"`
	Task         *string `json:"task,omitempty"`
	EvidenceKind string  `json:"evidenceKind,omitempty"`
	FreshSince   string  `json:"freshSince,omitempty"`
}

// Drift is charter_status's drift views.
type Drift struct {
	Uncovered          []Uncovered         `json:"uncovered"`
	Stale              []Stale             `json:"stale"`
	ReadyNext          []ReadyNext         `json:"readyNext"`
	SidecarDrift       []SidecarDrift      `json:"sidecarDrift"`
	MilestoneArtifacts []MilestoneArtifact `json:"milestoneArtifacts"`
}

// Uncovered is a VAL without pass evidence: reason no-evidence or non-pass.
type Uncovered struct {
	CriterionID string `json:"criterionId"`
	Reason      string `json:"reason"`
}

// Stale is a fresh-required VAL whose pass predates the newest source change.
type Stale struct {
	CriterionID string `json:"criterionId"`
	Reason      string `json:"reason"` // src-change
	LastTs      string `json:"lastTs"`
	// AgeMs is how much older than the newest source change the pass is
	// (0 when lastTs does not parse), as upstream computes it.
	AgeMs int64 `json:"ageMs"`
	// SourceChangedAt is the newest source change.
	SourceChangedAt string `json:"sourceChangedAt,omitempty"`
}

// ReadyNext is the first uncovered VAL in milestone order.
type ReadyNext struct {
	CriterionID string `json:"criterionId"`
	MilestoneID string `json:"milestoneId"`
}

// SidecarDrift is a sidecar changed by something other than the tool since
// the tool last wrote it.
type SidecarDrift struct {
	Path            string `json:"path"`
	LastToolWriteAt string `json:"lastToolWriteAt"`
	FileMtimeMs     int64  `json:"fileMtimeMs"`
	// Reason says what shows the change (ours): an entry that disagrees with
	// its evidence row, or a difference from the last commit.
	Reason string `json:"reason,omitempty"`
}

// MilestoneArtifact is a milestone whose VALs all pass but that has no
// work/<milestone>/evidence folder.
type MilestoneArtifact struct {
	MilestoneID string `json:"milestoneId"`
	Reason      string `json:"reason"` // no-artifact-capture
}

// Details holds the completion gate's view.
type Details struct {
	BlockingForComplete []Blocker `json:"blockingForComplete"`
}

// Blocker is one thing that keeps charter action=complete from passing.
type Blocker struct {
	// Reason: register-empty, val-not-pass, manual, stale-evidence,
	// report-missing or report-empty-section.
	Reason           string     `json:"reason"`
	CriterionID      string     `json:"criterionId,omitempty"`
	Outcome          pi.Outcome `json:"outcome,omitempty"`
	LastEvidencePath string     `json:"lastEvidencePath,omitempty"`
	Section          string     `json:"section,omitempty"` // for report-empty-section
	Message          string     `json:"message"`
}

// ParseWarning is one of upstream's parse warnings.
type ParseWarning struct {
	Reason      string `json:"reason"`
	File        string `json:"file"` // relative to the charter directory
	Line        int    `json:"line"` // 1-based
	CriterionID string `json:"criterionId,omitempty"`
	Detail      string `json:"detail,omitempty"`
}

// FileProblem is a file status could not use, or used in part.
type FileProblem struct {
	File    string    `json:"file"`
	Line    int       `json:"line,omitempty"`
	Code    diag.Code `json:"code"`
	Message string    `json:"message"`
}

// NextAction is pi-charter's {tool, action?, hint, metadata?}, plus how to
// take the step with charter-lsp (ours): CLI, a command line to run in the
// project folder (from `charter-lsp status`: the folder it ran in), and Editor, the editor action that does it. Either is
// empty when charter-lsp has no way (pausing a charter is upstream's).
type NextAction struct {
	Tool     string         `json:"tool"`
	Action   string         `json:"action,omitempty"`
	Hint     string         `json:"hint"`
	Metadata map[string]any `json:"metadata,omitempty"`
	CLI      string         `json:"cli,omitempty"`
	Editor   string         `json:"editor,omitempty"`
}
