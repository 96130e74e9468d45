package charterfile

import (
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Generation is one of pi-charter's charter.md grammars since ADR-0014
// moved charters to .charters/<id>/ (FORMATS.md §1).
type Generation string

const (
	// FI14 (ADR-0014, "the file is the interface"): ## Objective,
	// ## Criteria, ### C<n>. criteria with Depends: and Evidence: lines.
	FI14 Generation = "fi14"
	// FI15 (ADR-0015): as FI14 with Status: lines (Evidence: a legacy
	// alias), ## References and ## Scope.
	FI15 Generation = "fi15"
	// PH (ADR-0016/0017): # Objective and ## Phases with numbered items.
	PH Generation = "phases"
	// OBJ (ADR-0018, current): # Objective, ## References, ## Scope;
	// everything else is notes.
	OBJ Generation = "objective"
)

// FileInterface reports whether g is one of the file-interface grammars
// (state.json schemaVersion "file-interface").
func (g Generation) FileInterface() bool { return g == FI14 || g == FI15 }

// Title is the generation's name for people.
func (g Generation) Title() string {
	switch g {
	case FI14:
		return "file interface, Evidence lines (ADR-0014)"
	case FI15:
		return "file interface, Status lines (ADR-0015)"
	case PH:
		return "Objective and phases (ADR-0016/0017)"
	case OBJ:
		return "Objective only (ADR-0018)"
	}
	return string(g)
}

// Charter is a charter.md read the way pi-charter's parser of its
// generation reads it. Spans are byte offsets into the file as given
// (comments included); text fields are what upstream returns (comments
// stripped, trimmed as upstream trims them).
//
// Which fields a generation fills:
//   - all: Objective, Warnings
//   - FI15, PH, OBJ: References, Scope
//   - FI14, FI15: Criteria, CriteriaHeading, Dropped
//   - PH: Phases, PhasesSection
//   - OBJ: Notes
type Charter struct {
	Generation Generation

	Objective  Section
	References Section
	Scope      Section

	// CriteriaHeading is the first level-2 "## Criteria" heading; upstream
	// only checks that one exists.
	CriteriaHeading *source.Span
	// Criteria are the criteria upstream keeps, in file order.
	Criteria []*Criterion
	// Dropped are later criteria whose id was already taken: upstream warns
	// and ignores them.
	Dropped []*Criterion

	PhasesSection Section
	Phases        []*Phase

	// Notes is the authored text outside the Objective, References and
	// Scope sections (OBJ), with runs of blank lines collapsed.
	Notes string

	// Warnings are upstream's parse warnings, in upstream's order, with the
	// exact text upstream reports.
	Warnings []Warning

	// byID finds each of Criteria by its id (Criterion).
	byID map[string]*Criterion
	text *text
}

// Section is a heading and the body upstream reads for it.
type Section struct {
	Found       bool
	HeadingSpan source.Span // the heading line
	TitleSpan   source.Span // the heading's text
	BodySpan    source.Span // from the line after the heading to the section's end
	Text        string      // the body as upstream returns it (trimmed)
	head, end   int         // stripped line indexes: heading, first line after the section
}

// Criterion is one "### C<n>. title" block of a file-interface charter.
type Criterion struct {
	ID    string
	Title string
	// Body is the block's prose without its Depends, Status and Evidence
	// lines (and, for FI14, without the Evidence note), trimmed.
	Body string
	// Depends are the ids of the Depends: line that won (the last).
	Depends []string
	// Status is the token upstream settled on: an Evidence line's (FI14)
	// or a Status line's (FI15; a legacy Evidence line read as Current).
	Status Status
	Note   string
	// Line is the 1-based line of the heading, as upstream numbers it.
	Line int

	HeadingSpan source.Span
	IDSpan      source.Span
	TitleSpan   source.Span
	// BlockSpan runs from the heading to the end of the block's last line.
	BlockSpan source.Span

	// StatusLine is the Status: line (FI15) or Evidence: line (FI14, FI15
	// legacy) that upstream read; nil when the block has none.
	StatusLine *Field
	// Legacy: FI15 read the status from a legacy Evidence: line.
	Legacy bool
	// DependsLine is the Depends: line that won; DependsSpans locate its ids.
	DependsLine  *Field
	DependsSpans []source.Span
	// Ignored are the block's lines upstream reads as nothing: Depends
	// lines a later one overrides, Status lines after the first, Evidence
	// lines a Status line (or a later Evidence line) overrides.
	Ignored []string

	head, end int // stripped line indexes: heading, first line after the block
}

// Field is a "Label: value" line.
type Field struct {
	Label     string // as upstream names it: Status, Evidence, Depends
	LineSpan  source.Span
	ValueSpan source.Span // after the label, its colon and the spaces after it
	// TokenSpan is the status token (Status and Evidence lines).
	TokenSpan source.Span
	line      int
}

// Phase is one numbered item of a PH charter's ## Phases.
type Phase struct {
	Number float64 // as written; upstream converts with Number()
	Title  string
	// Status is upcoming, current or done; Explicit says a suffix set it
	// (otherwise upstream inferred it).
	Status   PhaseStatus
	Explicit bool
	Body     string

	ItemSpan   source.Span // the item's line
	TitleSpan  source.Span // the title without its status suffix
	SuffixSpan source.Span // the " — done" suffix; empty when none
	BodySpan   source.Span // the body lines; empty when none

	line, bodyEnd int
}

// Warning is one of upstream's parse warnings.
type Warning struct {
	Code diag.Code
	// Text is upstream's warning, verbatim.
	Text string
	Span source.Span
	// Criterion is the id the warning is about, when there is one.
	Criterion string
}

// Lines are the file's lines as upstream's parser sees them: comments
// stripped, split on LF (a CR stays at the end of its line).
func (c *Charter) Lines() []string {
	out := make([]string, c.text.n())
	for i := range out {
		out[i] = c.text.line(i)
	}
	return out
}

// Lines are the indexes (in Charter.Lines) of the section's lines, its
// heading included; none when the section was not found.
func (s Section) Lines() []int {
	if !s.Found {
		return nil
	}
	out := make([]int, 0, s.end-s.head)
	for i := s.head; i < s.end; i++ {
		out = append(out, i)
	}
	return out
}

// Claimed is the set of lines (indexes in Lines) the parser read as part
// of a section or a criterion block.
func (c *Charter) Claimed() map[int]bool {
	out := map[int]bool{}
	for _, s := range []Section{c.Objective, c.References, c.Scope, c.PhasesSection} {
		for _, i := range s.Lines() {
			out[i] = true
		}
	}
	for _, cr := range c.Criteria {
		for i := cr.head; i < cr.end; i++ {
			out[i] = true
		}
	}
	return out
}
