// Package rp1 models rp1's charter.md: header, the five product sections with
// their status, and the interview scratch pad (SPEC §1).
package rp1

import (
	"sync"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// SectionID names one of the five required sections.
type SectionID string

const (
	Problem   SectionID = "problem"
	Users     SectionID = "users"
	ValueProp SectionID = "value_prop"
	Scope     SectionID = "scope"
	Success   SectionID = "success"
)

// Priority is the order in which gaps are asked about and in which missing
// headings are created.
var Priority = []SectionID{Problem, Users, ValueProp, Scope, Success}

// CanonicalHeading is the heading text upstream writes for each section.
var CanonicalHeading = map[SectionID]string{
	Problem:   "Problem & Context",
	Users:     "Target Users",
	ValueProp: "Business Rationale",
	Scope:     "Scope Guardrails",
	Success:   "Success Criteria",
}

// SectionStatus is EMPTY, PARTIAL or COMPLETE (SPEC §1): the seed's Step 1,
// section completeness (Charter.SectionCompleteness).
type SectionStatus string

const (
	StatusEmpty    SectionStatus = "EMPTY"
	StatusPartial  SectionStatus = "PARTIAL"
	StatusComplete SectionStatus = "COMPLETE"
)

// GapStatus is a section's status once the scratch pad's answers count: the
// seed's Step 3 (GapStatusOf).
type GapStatus string

const (
	GapFilled      GapStatus = "FILLED"
	GapCoveredByQA GapStatus = "COVERED_BY_QA"
	GapOpen        GapStatus = "GAP"
)

// Charter is one parsed rp1 charter.md. Spans are byte offsets into Index.Source().
type Charter struct {
	Index *source.Index

	// FrontMatter is the leading YAML block ("---" … "---") rp1 writes
	// (rp1_doc_id, template metadata); zero when there is none.
	FrontMatter source.Span

	Title     string      // text of the first H1, "" if none
	TitleSpan source.Span // the whole H1 line
	Fields    []HeaderField

	// Sections lists, in file order, every H2 except the scratch pad, and
	// every H3 that names one of the five sections outside an H2 section
	// that is one of them (real charters put all five under
	// "# Project Charter: …" as ###), with the H3s that follow it at its
	// level.
	Sections []*Section

	// Format is the generation the file is read as (Era.Format, kept as a
	// field for its many readers); Era says why (format.go).
	Format Format
	Era    Era
	// Skeleton is the charter read as rp1's skeleton (FormatSkeleton only).
	Skeleton *Skeleton

	// ScratchPad is nil when the file has no "## Scratch Pad" heading.
	ScratchPad *ScratchPad

	headingsOnce sync.Once
	headings     []Heading // scanHeadings
}

// HeaderField is a **Key**: value line in the header (Version, Status,
// Created, Last Updated), including the one-line " | " variant.
type HeaderField struct {
	Key       string // as written, without the ** markers
	Value     string
	Span      source.Span // the "**Key**: value" text
	ValueSpan source.Span
}

// Section is a section of the charter: an H2, or an H3 at the top level.
type Section struct {
	ID          SectionID // "" for sections other than the five
	Level       int       // 2 or 3
	Heading     string    // heading text without the "#"s
	HeadingSpan source.Span
	// BodySpan runs from the line after the heading to the next heading of
	// the same or a higher level (or the scratch pad, or EOF); it includes
	// subsections.
	BodySpan source.Span

	Status    SectionStatus    // only meaningful when ID != ""
	Sentences int              // sentences counted in prose and list items
	Problems  []SectionProblem // why the section is PARTIAL (empty for COMPLETE)
	// MoreMarkers: the body holds more than the maxMarkers markers listed
	// in Problems.
	MoreMarkers bool
	// Capped is set when the body nests deeper than the analysis reads
	// (bound.go): the status is judged from what was read.
	Capped *Capped
}

// ProblemKind says what makes a section partial (or, for an EMPTY section,
// which placeholder is all it holds).
type ProblemKind string

const (
	ProblemTBD         ProblemKind = "tbd"               // TBD or _TBD_
	ProblemPlaceholder ProblemKind = "placeholder"       // [To Be Determined], TODO:, <placeholder>, …
	ProblemFewSentence ProblemKind = "too-few-sentences" // fewer than two sentences
)

// SectionProblem is one reason a section is partial, with where it is.
type SectionProblem struct {
	Kind ProblemKind
	Text string      // the marker as written, or "" for too-few-sentences
	Span source.Span // the marker, or the body for too-few-sentences
}

// ScratchPad is the interview state kept in the charter.
type ScratchPad struct {
	HeadingSpan source.Span
	// Span runs from the heading to the end marker's line end, or to the next
	// H2 / EOF when the marker is missing.
	Span source.Span

	Mode        string // CREATE, UPDATE, RESUME as written in <!-- Mode: -->; "" if absent
	ModeSpan    source.Span
	Started     string
	StartedSpan source.Span

	Entries []*Entry

	HasEndMarker bool
	EndSpan      source.Span // the <!-- End scratch pad --> line

	// CutShort is set when a "## " line ended the scratch pad although the
	// end marker follows later: rp1 stops reading there (usually a heading
	// typed inside an answer). CutSpan is that line.
	CutShort bool
	CutSpan  source.Span
}

// Entry is one "### Q{N}: {Topic}" block.
type Entry struct {
	Number      int // 0 when the heading has no parsable number
	Topic       string
	HeadingSpan source.Span
	Span        source.Span // heading through the entry's last line

	Asked, Answer, Skipped          string // trimmed values; may span lines
	HasAsked, HasAnswer, HasSkipped bool   // the field line is present
	AskedSpan, AnswerSpan           source.Span
	SkippedSpan                     source.Span
}

// Malformed: none of Asked, Answer, Skipped (the interviewer skips it).
func (e *Entry) Malformed() bool { return !e.HasAsked && !e.HasAnswer && !e.HasSkipped }

// Answered: a non-empty answer.
func (e *Entry) Answered() bool { return e.Answer != "" }

// Pending: asked, but no answer yet and not skipped.
func (e *Entry) Pending() bool { return e.HasAsked && e.Answer == "" && !e.HasSkipped }

// Sections are the sections the entry is about: those its topic names
// (TopicSections); for rp1 bootstrap's "### Q4: Skipped" form (topic
// "Skipped", rp1 plugins/dev/commands/bootstrap.md@8b1ef55), whose topic
// names none, the section its **Skipped** reason names first ("Value
// proposition already covered in Q2 (Target Users)" → value_prop). The Brain
// Dump is about no section in particular: what it covers follows from what
// it says (BrainDumpShares, QA.Coverage).
func (e *Entry) Sections() []SectionID {
	if ids := TopicSections(e.Topic); len(ids) > 0 || !e.HasSkipped {
		return ids
	}
	if id := firstNamed(e.Skipped); id != "" {
		return []SectionID{id}
	}
	return nil
}

// About reports whether the entry is about section id.
func (e *Entry) About(id SectionID) bool {
	for _, s := range e.Sections() {
		if s == id {
			return true
		}
	}
	return false
}

// Gap is one section's standing in the interview: the seed's three steps
// (gaps.go) and what the interview has done about it.
type Gap struct {
	Section SectionID
	// Charter is Step 1, the section's completeness in the charter.
	Charter SectionStatus
	// CoveredBy is Step 2, the answered entry that covers the section; nil
	// when the Q&A does not cover it.
	CoveredBy *Entry
	// Status is Step 3: FILLED, COVERED_BY_QA or GAP.
	Status GapStatus
	// AskedBy is the first entry about the section (answered, skipped or
	// pending): the interview never asks about it again.
	AskedBy *Entry
	// AddressedBy is the first answer about other sections that says
	// something about this one (QA.Addressing): the interview returns skip
	// rather than ask about it, and finishing writes what that answer says.
	AddressedBy *Entry
}
