package pi

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Criteria is criteria.md (or a legacy charter.md ## Criteria section) as
// upstream resolves it, plus what upstream drops on the way.
type Criteria struct {
	Milestones []*Milestone
	// Criteria in upstream's order: milestone and ungrouped criteria in file
	// order, or every flat ### VAL-* in the flat fallback.
	Criteria []*Criterion
	Mode     Mode
	// Dropped are VAL-like headings upstream ignores.
	Dropped []DroppedVAL

	// found are the findings of the criteria of each block that holds
	// some, and of its milestone, located in the block's text
	// (parsedBlock.found), with the block's offset, in file order. Where
	// the criteria were parsed from the whole file (wholeFile), their
	// findings are their checks.
	found []blockFindings
	// runs are Criteria by the block parse they are placed from, in
	// order: a question of two versions' criteria asks it once per block
	// where they share its parse (nextStale). Nil when the criteria were
	// parsed from the whole file (a flat register whose VALs are in
	// several blocks, a legacy charter.md), or when there are none.
	runs []criteriaRun

	// first indexes Criteria by id, built on the first Lookup: upstream
	// reads the first criterion of a repeated id (findCriterion), and every
	// question "which VAL is id" (a run's row, a Run target, hover) asks it.
	first struct {
		once sync.Once
		ids  *idIndex
		// built is set once ids is, for the next version's parse to see.
		built atomic.Bool
		// prev and prevIDs are the version before's index and criteria,
		// when its index was built before this version was parsed: a
		// keystroke that changes no id takes the index over instead of
		// building it again (shareIndex). Dropped once ids is made.
		prev    *idIndex
		prevIDs *Criteria
	}
}

// blockFindings are a block's findings at its offset in one version.
type blockFindings struct {
	at int
	ds diag.Carried
}

// criteriaRun is the criteria placed from one block's parse: the n
// parsed criteria at first (its sections, or its ungrouped VAL). Two runs
// with the same first and n are the same parsed criteria, whichever
// blocks hold them (an edited block keeps the parse of its VALs before
// the edit, not their slice).
type criteriaRun struct {
	first **parsedCriterion
	n     int
}

// idIndex is what the sequence of a register's ids says: where each id is
// first, and which criteria repeat an id before them.
type idIndex struct {
	byID    map[string]int32 // index in Criteria
	repeats []int32          // indexes in Criteria, in order
}

// shareIndex lets c take over prev's index by id if prev has one built and
// c's criteria have the same ids in the same order.
func (c *Criteria) shareIndex(prev *Criteria) {
	if prev == nil {
		return
	}
	if prev.first.built.Load() {
		c.first.prev, c.first.prevIDs = prev.first.ids, prev
	}
}

// Mode is how upstream resolved the register.
type Mode string

const (
	// ModeMilestones: ## milestones with ### VAL-* leaves and ungrouped ## VAL-*.
	ModeMilestones Mode = "milestones"
	// ModeFlat: no milestone yielded a criterion, so every ### VAL-* heading
	// in the file counts.
	ModeFlat Mode = "flat"
	// ModeCriteriaSection: no milestone yielded a criterion and the file has
	// a "## Criteria" heading; upstream then reads only that section's H2s,
	// finds none, and does not fall back to flat headings.
	ModeCriteriaSection Mode = "criteria-section"
)

// Milestone is an H2 holding at least one valid ### VAL-* heading.
type Milestone struct {
	ID          string // first whitespace token of the heading
	Title       string // the whole heading text
	HeadingSpan source.Span
	IDSpan      source.Span
	Criteria    []*Criterion
}

// CriterionIDs lists the ids of m's criteria in order.
func (m *Milestone) CriterionIDs() []string {
	ids := make([]string, len(m.Criteria))
	for i, c := range m.Criteria {
		ids[i] = c.ID
	}
	return ids
}

// Criterion is one VAL of one version of the register: its parse, shared
// by every version in which its block's text is the same, placed at the
// block's offset in this version. The parse's spans are relative to its
// block, so a keystroke neither copies nor re-checks the VALs after the
// edit: it places them anew, one small Criterion each. The span accessors
// (HeadingSpan, Field, …) answer in file offsets.
//
// A Criterion is not changed once parsed: old versions are read
// concurrently.
type Criterion struct {
	*parsedCriterion
	// at is the file offset the parse's spans are relative to.
	at int
}

// parsedCriterion is what a VAL's text says, with spans relative to the
// text it was parsed in (its block's, or the file's).
type parsedCriterion struct {
	ID          string
	Title       string // upstream falls back to the id when the heading has no title
	Level       int    // 2 for an ungrouped ## VAL-*, else 3
	MilestoneID string // "" when ungrouped or flat

	Description string

	Verifier              Verifier
	Command               string // trimmed Command: value; "" when absent or blank
	RequireFreshEvidence  bool
	RequireReviewSubagent *bool  // nil when absent or not a boolean
	Because               string // trimmed Because: value

	// GreedyID is set when upstream's id regex ran into the title
	// (VAL-X-001-Title reads as id VAL-X-001-T); IntendedID is our guess.
	GreedyID   bool
	IntendedID string

	heading     source.Span // the whole heading line
	id          source.Span
	title       source.Span // empty at the end of id's line when there is no title
	body        source.Span // from the line after the heading to the end of the body
	description source.Span // the field's value or the paragraph; empty when none

	// fields are every field line in order; notParsed the field-looking
	// lines upstream does not read (bullets, bold).
	fields    []Field
	notParsed []FieldLine
	// warnings are upstream's parse warnings for this VAL, in upstream's order.
	warnings []ParseWarning

	// checks are the findings that depend on this VAL's text alone,
	// computed by its parse (criterionDiagnostics), so the parse of an
	// unchanged block carries them over and a keystroke re-checks only the
	// edited block. The check places them, located with their block's
	// (parsedBlock.found).
	checks []diag.Diagnostic
}

// HeadingSpan is the whole heading line.
func (c *Criterion) HeadingSpan() source.Span { return c.heading.Shift(c.at) }

// IDSpan is the id in the heading.
func (c *Criterion) IDSpan() source.Span { return c.id.Shift(c.at) }

// TitleSpan is the title in the heading, empty at the end of IDSpan's line
// when there is none.
func (c *Criterion) TitleSpan() source.Span { return c.title.Shift(c.at) }

// BodySpan runs from the line after the heading to the end of the body.
func (c *Criterion) BodySpan() source.Span { return c.body.Shift(c.at) }

// DescriptionSpan is the Description: field's value or the paragraph
// upstream reads instead; empty when there is none.
func (c *Criterion) DescriptionSpan() source.Span { return c.description.Shift(c.at) }

// Fields are every field line in order; Field returns the one that wins.
func (c *Criterion) Fields() []Field {
	if len(c.fields) == 0 {
		return nil
	}
	out := make([]Field, len(c.fields))
	for i, f := range c.fields {
		out[i] = f.shift(c.at)
	}
	return out
}

// NotParsed are field-looking lines upstream does not read (bullets, bold).
func (c *Criterion) NotParsed() []FieldLine {
	if len(c.notParsed) == 0 {
		return nil
	}
	out := make([]FieldLine, len(c.notParsed))
	for i, f := range c.notParsed {
		out[i] = FieldLine{Field: f.Field.shift(c.at), Form: f.Form}
	}
	return out
}

// Warnings are upstream's parse warnings for this VAL, in upstream's order.
func (c *Criterion) Warnings() []ParseWarning {
	if len(c.warnings) == 0 {
		return nil
	}
	out := make([]ParseWarning, len(c.warnings))
	for i, w := range c.warnings {
		w.Span = w.Span.Shift(c.at)
		out[i] = w
	}
	return out
}

// Field returns the field with the normalized key that upstream uses (the
// last one), or nil.
func (c *Criterion) Field(key string) *Field {
	f := c.field(key)
	if f == nil {
		return nil
	}
	placed := f.shift(c.at)
	return &placed
}

// field is Field with spans relative to the parsed text.
func (c *parsedCriterion) field(key string) *Field {
	for i := len(c.fields) - 1; i >= 0; i-- {
		if c.fields[i].Key == key {
			return &c.fields[i]
		}
	}
	return nil
}

// Field is one body line that upstream reads as "Key: value".
type Field struct {
	Key       string // lower-cased, whitespace collapsed
	RawKey    string // as written
	Value     string // trimmed
	LineSpan  source.Span
	KeySpan   source.Span
	ValueSpan source.Span
}

// FieldLine is a line that looks like a field but that upstream ignores.
type FieldLine struct {
	Field
	Form string // "bullet" or "bold"
}

// VerifierKind is one of upstream's verifier kinds.
type VerifierKind string

const (
	VerifierCommand        VerifierKind = "command"
	VerifierHook           VerifierKind = "hook"
	VerifierPrompt         VerifierKind = "prompt"
	VerifierManual         VerifierKind = "manual"
	VerifierSubagent       VerifierKind = "subagent"
	VerifierEvidenceExists VerifierKind = "evidence-exists"
)

// VerifierKinds are the kinds a Verifier: line may name; VerifierAliases
// are the other names upstream accepts, for evidence-exists.
var (
	VerifierKinds   = []VerifierKind{VerifierCommand, VerifierHook, VerifierPrompt, VerifierManual, VerifierSubagent, VerifierEvidenceExists}
	VerifierAliases = []string{"review", "qa", "readiness"}
)

// EvidenceKinds are the kinds of evidence an evidence-exists verifier's
// Kind: line names (upstream's schema literals, matched case-sensitively).
var EvidenceKinds = []string{"review", "qa", "readiness", "command"}

// VerifierNames are every name a Verifier: line may hold, kinds first.
func VerifierNames() []string { return append(Names(VerifierKinds), VerifierAliases...) }

// Verifier is the verifier upstream ends up with.
type Verifier struct {
	Kind VerifierKind
	// Declared is false when there is no Verifier: line (upstream: manual).
	Declared bool
	Raw      string // the Verifier: value as written
	// Alias is review, qa or readiness when one of those was written.
	Alias string
	// Subagent.
	Agent, Task string
	// Evidence-exists.
	EvidenceKind string
	FreshSince   string
	// Degraded is set when upstream replaced an invalid verifier by manual.
	Degraded      bool
	DegradeReason string
}

// ParseWarning is one of upstream's parse warnings.
type ParseWarning struct {
	Reason string // upstream's reason string, also our diagnostic code
	Detail string
	Span   source.Span
}

// DroppedVAL is a VAL-like heading upstream ignores.
type DroppedVAL struct {
	Reason      DropReason
	Text        string // heading text
	HeadingSpan source.Span
	IDSpan      source.Span // the id-like first token
}

// DropReason says why upstream ignores a heading.
type DropReason string

const (
	// DropInvalidID: the id is not VAL- followed by upper-case letters,
	// digits and '-' (VAL-auth, val-AUTH-1, VAL_AUTH).
	DropInvalidID DropReason = "invalid-id"
	// DropUnderH1: a valid ### VAL-* between an H1 (or the file start) and
	// the next H2, in a file upstream reads by milestones.
	DropUnderH1 DropReason = "under-h1"
	// DropNested: a ### VAL-* inside an ungrouped ## VAL-* criterion, whose
	// body swallows it.
	DropNested DropReason = "nested"
)

// CriteriaScaffold reports whether criteria.md's text src is upstream's
// untouched scaffold, decided as upstream's isDefaultCriteriaScaffold does
// on the raw text (pi-charter src/infrastructure/store.ts@16cab0f:29-32):
// exactly one match of /^#{2,3}\s+VAL-[A-Z0-9-]+\b/gm, and a match of
// /^(?:##|###)\s+VAL-EXAMPLE\b/m. The JavaScript semantics matter: ^ also
// follows a lone \r, \s+ may run over line ends, and \b needs a word
// character on one side only, so "### VAL-A1b x" is no VAL heading here and
// "### VAL-EXAMPLE-2" is the example. at is the example heading's span
// when ok. The scan stops at the second VAL heading: a real register is
// then told from the scaffold at its top, not after reading it whole.
func CriteriaScaffold(src []byte) (at source.Span, ok bool) {
	count, example := 0, false
	for p := 0; p <= len(src); {
		if end, isVAL, isExample := scaffoldHeadingAt(src, p); isVAL {
			if count++; count > 1 {
				return source.Span{}, false
			}
			if isExample && !example {
				example, at = true, source.Span{Start: p, End: end}
			}
		}
		next := nextJSLineStart(src, p)
		if next < 0 {
			break
		}
		p = next
	}
	return at, count == 1 && example
}

// nextJSLineStart is the offset after the next JavaScript line terminator
// (\n, \r, U+2028, U+2029) at or after p, or -1.
func nextJSLineStart(src []byte, p int) int {
	for i := p; i < len(src); i++ {
		switch {
		case src[i] == '\n' || src[i] == '\r':
			return i + 1
		case src[i] == 0xe2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xa8 || src[i+2] == 0xa9):
			return i + 3
		}
	}
	return -1
}

// scaffoldHeadingAt matches the two scaffold patterns at line start p.
func scaffoldHeadingAt(src []byte, p int) (end int, isVAL, isExample bool) {
	n := 0
	for p+n < len(src) && src[p+n] == '#' {
		n++
	}
	if n != 2 && n != 3 {
		return 0, false, false
	}
	j := skipSpace(src, p+n, len(src))
	if j == p+n || !bytes.HasPrefix(src[j:], []byte("VAL-")) {
		return 0, false, false
	}
	k := j + len("VAL-")
	r := k
	for r < len(src) && (src[r] >= 'A' && src[r] <= 'Z' || src[r] >= '0' && src[r] <= '9' || src[r] == '-') {
		r++
	}
	// [A-Z0-9-]+ may give characters back until \b holds.
	for x := k + 1; x <= r; x++ {
		if isWordByte(src[x-1]) != (x < len(src) && isWordByte(src[x])) {
			isVAL = true
			break
		}
	}
	e := k + len("EXAMPLE")
	isExample = bytes.HasPrefix(src[k:], []byte("EXAMPLE")) && (e == len(src) || !isWordByte(src[e]))
	return e, isVAL, isExample
}

// Lookup returns the criterion upstream reads for id, the first of a
// repeated id, or nil. A Criteria is not changed once resolved, so the
// index is built once; a register of 5,000 VALs asked once per run of a
// long history used to scan it each time.
//
// The index holds positions in Criteria, so it depends on the sequence of
// ids alone: a version whose ids are the version before's, in order (a
// keystroke anywhere but in an id), takes its index over (shareIndex).
func (c *Criteria) Lookup(id string) *Criterion {
	i, ok := c.index().byID[id]
	if !ok {
		return nil
	}
	return c.Criteria[i]
}

// repeated returns the indexes in Criteria of the criteria whose id an
// earlier one has (upstream never reads them), in order.
func (c *Criteria) repeated() []int32 { return c.index().repeats }

func (c *Criteria) index() *idIndex {
	c.first.once.Do(func() {
		f := &c.first
		if f.prev != nil && sameIDs(f.prevIDs, c) {
			f.ids = f.prev
		} else {
			ix := &idIndex{byID: make(map[string]int32, len(c.Criteria))}
			for i, cr := range c.Criteria {
				if _, ok := ix.byID[cr.ID]; ok {
					ix.repeats = append(ix.repeats, int32(i))
				} else {
					ix.byID[cr.ID] = int32(i)
				}
			}
			f.ids = ix
		}
		f.prev, f.prevIDs = nil, nil
		f.built.Store(true)
	})
	return c.first.ids
}

// wholeFile reports whether c's criteria were parsed from the whole file
// rather than block by block (runs): each is placed at offset 0 and its
// findings are its checks, not carried located.
func (c *Criteria) wholeFile() bool { return c.runs == nil }

// sameIDs reports whether a and b hold the same ids in the same order.
func sameIDs(a, b *Criteria) bool {
	x, y := a.Criteria, b.Criteria
	// A criterion taken over, or placed anew with the same parse (a
	// keystroke's blocks but one), has the same id: not read.
	return walkCriteria(a, b, func(int, int) bool { return true }, func(i int) bool {
		return x[i].parsedCriterion == y[i].parsedCriterion || x[i].ID == y[i].ID
	})
}

// walkCriteria walks the criteria of a and b, two versions of a register,
// by index: where both place the same parsed criteria at the same index
// (a run, Criteria.runs) same(i, n) is asked once for the n of them, and
// differ(i) for each other index. It stops, returning false, when either
// answers false; a and b of different lengths are not walked (false).
func walkCriteria(a, b *Criteria, same func(i, n int) bool, differ func(i int) bool) bool {
	if len(a.Criteria) != len(b.Criteria) {
		return false
	}
	ar, br := a.runs, b.runs
	aAt, bAt := 0, 0 // where ar[0] and br[0] begin
	for i := 0; i < len(b.Criteria); {
		for len(ar) > 0 && aAt+ar[0].n <= i {
			aAt, ar = aAt+ar[0].n, ar[1:]
		}
		for len(br) > 0 && bAt+br[0].n <= i {
			bAt, br = bAt+br[0].n, br[1:]
		}
		if len(ar) > 0 && len(br) > 0 && ar[0] == br[0] && aAt == i && bAt == i {
			if !same(i, br[0].n) {
				return false
			}
			i += br[0].n
			continue
		}
		if !differ(i) {
			return false
		}
		i++
	}
	return true
}

// Effective reports whether cr is the criterion upstream reads for its id:
// not a later block of a repeated id, which upstream never sees.
func (c *Criteria) Effective(cr *Criterion) bool {
	return cr != nil && c.Lookup(cr.ID) == cr
}
