package pi

import (
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// CriterionState is criterion-state.json: the latest record per VAL.
type CriterionState struct {
	Object          *JSONObject
	CharterID       string
	Entries         []CriterionStateEntry // in file order
	LastToolWriteAt string
}

// Entry returns the entry for id (the last one, as JSON.parse keeps), or nil.
func (s *CriterionState) Entry(id string) *CriterionStateEntry {
	if s == nil {
		return nil
	}
	for i := len(s.Entries) - 1; i >= 0; i-- {
		if s.Entries[i].ID == id {
			return &s.Entries[i]
		}
	}
	return nil
}

// CriterionStateEntry is one "<VAL-ID>": {…} record.
type CriterionStateEntry struct {
	ID               string
	KeySpan          source.Span
	Object           *JSONObject
	Outcome          Outcome
	LastEvidencePath string
	LastTs           string
	LastSummary      string
	LastFeatureID    string
	Source           Source
	RecordedBy       string
	Because          string
}

// ParseCriterionState reads criterion-state.json.
func ParseCriterionState(src []byte) (*CriterionState, []JSONProblem) {
	obj, problems := parseJSONObjectFile(src)
	if obj == nil {
		return nil, problems
	}
	obj.text = string(src) // one copy: the entries' strings are parts of it
	st := &CriterionState{Object: obj, CharterID: obj.Str("charterId"), LastToolWriteAt: obj.Str("lastToolWriteAt")}
	crit := obj.Get("criteria")
	if crit == nil {
		return st, append(problems, JSONProblem{Span: obj.openSpan(), Message: `criterion-state.json lacks "criteria"`, Code: diag.JSONInvalid})
	}
	if crit.Type() != "object" {
		return st, append(problems, JSONProblem{Span: crit.ValueSpan, Message: `"criteria" must be an object keyed by VAL id`, Code: diag.JSONInvalid})
	}
	entries, err := readObject(src, crit.ValueSpan)
	if err != nil {
		return st, append(problems, JSONProblem{Span: crit.ValueSpan, Message: "invalid JSON: " + err.Error(), Code: diag.JSONInvalid})
	}
	for _, m := range entries.Members {
		if m.Type() != "object" {
			problems = append(problems, JSONProblem{Span: m.ValueSpan, Message: fmt.Sprintf("entry %q must be an object", m.Name), Code: diag.JSONInvalid})
			continue
		}
		e, err := readObject(src, m.ValueSpan)
		if err != nil {
			continue
		}
		e.text = obj.text
		st.Entries = append(st.Entries, CriterionStateEntry{
			ID: m.Name, KeySpan: m.KeySpan, Object: e,
			Outcome: Outcome(e.Str("outcome")), LastEvidencePath: e.Str("lastEvidencePath"), LastTs: e.Str("lastTs"),
			LastSummary: e.Str("lastSummary"), LastFeatureID: e.Str("lastFeatureId"), Source: Source(e.Str("source")),
			RecordedBy: e.Str("recordedBy"), Because: e.Str("because"),
		})
	}
	return st, problems
}

// State is state.json.
type State struct {
	Object        *JSONObject
	CharterID     string
	SchemaVersion string
	Name          string
	Objective     string
	// Status is normalized to active|paused|completed|abandoned (see
	// NormalizeStatus); RawStatus is as written.
	Status    string
	RawStatus string
	CreatedAt string
	UpdatedAt string
}

// ParseState reads state.json.
func ParseState(src []byte) (*State, []JSONProblem) {
	obj, problems := parseJSONObjectFile(src)
	if obj == nil {
		return nil, problems
	}
	obj.text = string(src) // one copy: the fields are parts of it
	st := &State{Object: obj, CharterID: obj.Str("charterId"), Name: obj.Str("name"), Objective: obj.Str("objective"),
		RawStatus: obj.Str("status"), CreatedAt: obj.Str("createdAt"), UpdatedAt: obj.Str("updatedAt")}
	if m := obj.Get("schemaVersion"); m != nil {
		if s, ok := m.String(); ok {
			st.SchemaVersion = s
		} else {
			st.SchemaVersion = string(m.Raw) // older files write a number
		}
	}
	st.Status, _ = NormalizeStatus(st.RawStatus)
	return st, problems
}

// NormalizeStatus maps a state.json status to the v3 lifecycle
// (active, paused, completed, abandoned). Earlier pi-charter versions had a
// planning phase and other spellings; they map as follows:
//
//	active:    active, planning, planned, locked, executing, running, in-progress, in_progress, open
//	paused:    paused, suspended, on-hold, on_hold, blocked
//	completed: completed, complete, done, finished
//	abandoned: abandoned, cancelled, canceled, aborted
//
// Matching ignores case and surrounding space. ok is false for anything
// else, which is returned lower-cased.
func NormalizeStatus(raw string) (status string, ok bool) {
	s := strings.ToLower(strings.TrimSpace(raw))
	switch s {
	case string(Active), "planning", "planned", "locked", "executing", "running", "in-progress", "in_progress", "open":
		return string(Active), true
	case string(Paused), "suspended", "on-hold", "on_hold", "blocked":
		return string(Paused), true
	case string(Completed), "complete", "done", "finished":
		return string(Completed), true
	case string(Abandoned), "cancelled", "canceled", "aborted":
		return string(Abandoned), true
	}
	return s, false
}
