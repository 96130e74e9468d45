package analysis

import (
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// Reading is which generation a charter file is read as, and why: the one
// decision of its family (rp1.Era for rp1 charters, charterfile.Era for
// .charters/<id>/ charters) in one shape, for what says it out loud
// (`check --verbose`, `status`, hover on a charter's title).
type Reading struct {
	Generation string `json:"generation"`
	// Title names the generation for people.
	Title string `json:"title"`
	// Reasons are the evidence that decided, the deciding one first, each
	// with where it is ("state.json:3: …", "line 4: …").
	Reasons []string `json:"reasons"`
	// Otherwise says what would make it another generation.
	Otherwise string `json:"otherwise"`
	// Conflicts are evidence for another generation, which lost (each also
	// a diagnostic: generation-mismatch, generation-conflict).
	Conflicts []string `json:"conflicts"`
}

// RP1Reading is how an rp1 charter is read.
func RP1Reading(e rp1.Era) *Reading {
	r := &Reading{Generation: string(e.Format), Title: e.Format.Title(), Reasons: e.Strings(), Otherwise: e.Otherwise, Conflicts: []string{}}
	for _, c := range e.Conflicts {
		r.Conflicts = append(r.Conflicts, c.String())
	}
	return r
}

// ChartersReading is how a .charters/<id>/charter.md is read.
func ChartersReading(e charterfile.Era) *Reading {
	r := &Reading{Generation: string(e.Generation), Title: e.Generation.Title(), Reasons: e.Strings(), Otherwise: e.Otherwise, Conflicts: []string{}}
	for _, c := range e.Conflicts {
		r.Conflicts = append(r.Conflicts, c.File+": "+c.Message)
	}
	return r
}
