package charterfile

import (
	"slices"
	"strings"
)

// Status is a criterion's status token: what its Status: line says
// (ADR-0015), or its Evidence: line (ADR-0014, and ADR-0015's legacy
// alias for a Status line).
type Status string

const (
	StatusPending    Status = "pending"
	StatusInProgress Status = "in-progress"
	StatusBlocked    Status = "blocked"
	StatusPass       Status = "pass"
	StatusFail       Status = "fail"
	// StatusNone is an Evidence line's "no evidence yet"; ADR-0015 reads
	// it as pending (Current).
	StatusNone Status = "none"
)

var (
	// StatusLineTokens are a Status: line's tokens, in upstream's order.
	StatusLineTokens = []Status{StatusPending, StatusInProgress, StatusBlocked, StatusPass, StatusFail}
	// EvidenceLineTokens are an Evidence: line's tokens.
	EvidenceLineTokens = []Status{StatusPass, StatusFail, StatusNone}
)

// StatusTokens are the tokens a criterion's line takes: Status lines
// (FI15) or Evidence lines (FI14, and FI15's legacy alias).
func StatusTokens(g Generation, label string) []Status {
	if g == FI14 || strings.EqualFold(label, "Evidence") {
		return slices.Clone(EvidenceLineTokens)
	}
	return slices.Clone(StatusLineTokens)
}

// Current is s as ADR-0015 reads it: an Evidence line's none is pending,
// every other token is itself. Every reading of a legacy status (a legacy
// Evidence line, an ADR-0014 criteria snapshot, the rewrite to a Status
// line, staleness) goes through it.
func (s Status) Current() Status {
	if s == StatusNone {
		return StatusPending
	}
	return s
}

// Meaning says what s means, for people (completion details).
func (s Status) Meaning() string {
	switch s {
	case StatusPending:
		return "not started (an empty Status reads the same)"
	case StatusInProgress:
		return "being worked on"
	case StatusBlocked:
		return "waiting on something outside the charter"
	case StatusPass:
		return "met: the note says what was run and what it showed"
	case StatusFail:
		return "checked and not met: the note says what failed"
	case StatusNone:
		return "no evidence yet (ADR-0015 reads it as pending)"
	}
	return ""
}

// PhaseStatus is a phase's status in a phases charter (ADR-0016/0017):
// what the " — word" suffix of its item says, or what upstream infers.
type PhaseStatus string

const (
	PhaseUpcoming PhaseStatus = "upcoming"
	PhaseCurrent  PhaseStatus = "current"
	PhaseDone     PhaseStatus = "done"
)

// PhaseStatuses are the suffix words, in the order of upstream's
// STATUS_SUFFIX.
var PhaseStatuses = []PhaseStatus{PhaseUpcoming, PhaseCurrent, PhaseDone}

// Meaning says what s means, for people (completion details).
func (s PhaseStatus) Meaning() string {
	switch s {
	case PhaseUpcoming:
		return "not started"
	case PhaseCurrent:
		return "the phase being worked on"
	case PhaseDone:
		return "finished"
	}
	return ""
}

// readToken is the token tok names among tokens, as upstream matches it
// (case-insensitively).
func readToken(tok string, tokens []Status) (Status, bool) {
	for _, s := range tokens {
		if lowerIs(tok, string(s)) {
			return s, true
		}
	}
	return "", false
}

// tokenList is tokens as a message lists them: "pass, fail, none".
func tokenList(tokens []Status) string {
	var b strings.Builder
	for i, s := range tokens {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(s))
	}
	return b.String()
}
