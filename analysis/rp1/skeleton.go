package rp1

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// RegionID is upstream's name of a required region of a skeleton charter,
// as the finalizer reports it in "gaps" (FORMATS.md §2.5).
type RegionID string

const (
	RegionVision    RegionID = "Vision"
	RegionProblem   RegionID = "Problem & Context"
	RegionUsers     RegionID = "Target Users"
	RegionRationale RegionID = "Business Rationale"
	RegionWill      RegionID = "Scope Guardrails / Will"
	RegionWont      RegionID = "Scope Guardrails / Won't"
	RegionSuccess   RegionID = "Success Criteria"
)

// Regions are the required regions in document order (rp1
// plugins/dev/skills/blueprint/SKILL.md@3ea31b3a, "The required charter
// regions are").
var Regions = []RegionID{RegionVision, RegionProblem, RegionUsers, RegionRationale, RegionWill, RegionWont, RegionSuccess}

// Known reports whether id is one of the Regions.
func (id RegionID) Known() bool { return slices.Contains(Regions, id) }

// JoinRegions names regions in a sentence ("Vision, Target Users").
func JoinRegions(ids []RegionID) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = string(id)
	}
	return strings.Join(names, ", ")
}

// ScopeHeading is the H2 that holds the Will and Won't regions.
const ScopeHeading = "Scope Guardrails"

// RegionHeading is the heading text of a region, and its level.
func RegionHeading(id RegionID) (string, int) {
	switch id {
	case RegionWill:
		return "Will", 3
	case RegionWont:
		return "Won't", 3
	}
	return string(id), 2
}

// IsList: Will and Won't hold lists; their placeholder is "- _TBD_".
func (id RegionID) IsList() bool { return id == RegionWill || id == RegionWont }

// Placeholder is what the template writes into an unfilled region.
func (id RegionID) Placeholder() string {
	if id.IsList() {
		return "- " + TBDMarker
	}
	return TBDMarker
}

// TBDMarker is rp1's placeholder for unfilled content.
const TBDMarker = "_TBD_"

// RegionState says whether a region is filled or a gap, and why.
type RegionState string

const (
	RegionFilled  RegionState = "filled"
	RegionEmpty   RegionState = "empty"   // heading present, body empty or placeholder-only: a gap
	RegionMissing RegionState = "missing" // no heading upstream finds: a gap
)

// Region is one required region as upstream reads it.
type Region struct {
	ID      RegionID
	Heading *Heading // nil when missing
	// Body runs from the line after the heading to the next heading of the
	// same or a higher level, or EOF.
	Body  source.Span
	State RegionState

	// Variant is a heading meant for this region that upstream does not find
	// (### Will Do, ### Won’t, ## Vision Statement, a wrong level); set only
	// for a missing region.
	Variant *Heading
	// Legacy is a scratch-pad-era section holding this region's content
	// under its old name (## Value Proposition, ## Scope); missing regions
	// only.
	Legacy *Heading
	// Duplicates are later headings of a found region, which upstream never
	// reads (the first match wins).
	Duplicates []*Heading

	// PlaceholderLines are set when a filled region holds nothing but
	// placeholder variants upstream counts as content (TBD, *TBD*, * _TBD_,
	// {One-sentence vision}): "Complete" from nothing.
	PlaceholderLines []source.Span
	// Mixed are "_TBD_" markers inside a filled region: not a gap upstream,
	// but unfinished.
	Mixed []source.Span
	// Placeholder is the first "_TBD_" of an empty region that holds the
	// template's placeholder (an empty span when the body is blank).
	Placeholder source.Span
}

// Gap: the region is missing, empty or placeholder-only.
func (r *Region) Gap() bool { return r.State != RegionFilled }

// Skeleton is a charter read as rp1's skeleton (FormatSkeleton).
type Skeleton struct {
	Regions []*Region // always all seven, in document order

	// Scope is the "## Scope Guardrails" heading; nil when missing.
	// ScopeVariant is a heading meant for it that upstream does not find.
	Scope, ScopeVariant *Heading
	// LegacyScope is a "## Scope" section of the scratch-pad era.
	LegacyScope *Heading

	// Status is the **Status** header field; nil when there is none.
	Status *HeaderField
	// StatusJoined: the field shares its line with other fields
	// ("**Version**: 1.0.0 | **Status**: Final | …").
	StatusJoined bool
}

// Region returns the region with id.
func (sk *Skeleton) Region(id RegionID) *Region {
	for _, r := range sk.Regions {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Gaps lists the gap regions in document order.
func (sk *Skeleton) Gaps() []RegionID {
	gaps := []RegionID{}
	for _, r := range sk.Regions {
		if r.Gap() {
			gaps = append(gaps, r.ID)
		}
	}
	return gaps
}

// The two **Status** values upstream writes.
const (
	StatusValueDraft    = "Draft"
	StatusValueComplete = "Complete"
)

// ExpectedStatus is the status upstream derives: Complete when no region is
// a gap, else Draft.
func (sk *Skeleton) ExpectedStatus() string {
	if len(sk.Gaps()) == 0 {
		return StatusValueComplete
	}
	return StatusValueDraft
}

// ReadSkeleton reads any parsed charter as a skeleton, whatever its
// detected format (migration and the finalizer contract use it).
func ReadSkeleton(ch *Charter) *Skeleton {
	if ch.Skeleton != nil {
		return ch.Skeleton
	}
	return readSkeleton(ch)
}

// readSkeleton finds the seven regions. Headings match upstream's text,
// ignoring case and surrounding space (FORMATS.md §2.5: "heading text must
// match", a reading; case is unspecified there): the five H2 regions by
// their H2, Will and Won't as H3s inside "## Scope Guardrails". The first
// match wins. A region that is not found may have a Variant or a Legacy
// heading that explains why.
func readSkeleton(ch *Charter) *Skeleton {
	src := ch.Index.Source()
	hs := scanHeadings(ch)
	// Each heading's text with runs of white space made one space (for
	// comparing, case aside) and its regionKey, worked out once: the seven
	// regions each look through every heading.
	spaced, keys := make([]string, len(hs)), make([]string, len(hs))
	for i, h := range hs {
		spaced[i], keys[i] = oneSpaced(h.Text), regionKey(h.Text)
	}
	sk := &Skeleton{Status: ch.Header("Status")}
	if f := sk.Status; f != nil {
		line := ch.Index.LineSpan(ch.Index.Line(f.Span.Start))
		sk.StatusJoined = line.Start != f.Span.Start && strings.TrimSpace(string(src[line.Start:f.Span.Start])) != "" ||
			f.Span.End < line.End && strings.Contains(string(src[f.Span.End:line.End]), "**")
	}
	end := func(i int) int { // end of the body of heading hs[i]
		for j := i + 1; j < len(hs); j++ {
			if hs[j].Level <= hs[i].Level {
				return hs[j].Span.Start
			}
		}
		return len(src)
	}
	// find is the first heading of level with text starting in [from, to).
	// The headings are in file order: it looks only there, so listing a
	// region's duplicates walks the headings once, however many there are.
	find := func(level int, text string, from, to int) int {
		for i := sort.Search(len(hs), func(i int) bool { return hs[i].Span.Start >= from }); i < len(hs) && hs[i].Span.Start < to; i++ {
			if hs[i].Level == level && strings.EqualFold(spaced[i], text) {
				return i
			}
		}
		return -1
	}

	scopeFrom, scopeTo := -1, -1
	if i := find(2, ScopeHeading, 0, len(src)); i >= 0 {
		sk.Scope = &hs[i]
		scopeFrom, scopeTo = hs[i].Span.End, end(i)
	} else {
		for i, h := range hs {
			if h.Level >= 2 && h.Level <= 3 && scopeVariantKeys[keys[i]] {
				sk.ScopeVariant = &hs[i]
				scopeFrom, scopeTo = h.Span.End, end(i)
				break
			}
			if h.Level == 2 && keys[i] == "scope" && sk.LegacyScope == nil {
				sk.LegacyScope = &hs[i]
			}
		}
	}

	for _, id := range Regions {
		r := &Region{ID: id, State: RegionMissing}
		sk.Regions = append(sk.Regions, r)
		text, level := RegionHeading(id)
		i := -1
		if id.IsList() {
			if sk.Scope != nil {
				i = find(level, text, scopeFrom, scopeTo)
			}
		} else {
			i = find(level, text, 0, len(src))
		}
		if i >= 0 {
			r.Heading = &hs[i]
			r.Body = source.Span{Start: min(ch.Index.LineStart(hs[i].Line+1), len(src)), End: end(i)}
			from, to := hs[i].Span.End, len(src)
			if id.IsList() {
				to = scopeTo
			}
			for j := find(level, text, from, to); j >= 0; j = find(level, text, hs[j].Span.End, to) {
				r.Duplicates = append(r.Duplicates, &hs[j])
			}
			assessRegion(r, src)
			continue
		}
		r.Variant, r.Legacy = variantFor(id, hs, spaced, keys, scopeFrom, scopeTo, sk)
	}
	return sk
}

// assessRegion decides a found region's state by rp1's test definition
// (FORMATS.md §2.5): after trimming lines and dropping blank ones, nothing is
// left, or every line is exactly "_TBD_" or "- _TBD_" → a gap. A line that is
// only an HTML comment counts as blank (our reading: it renders as nothing).
// Otherwise the region is filled; if all it holds are other placeholder forms,
// or it mixes "_TBD_" into text, that is recorded for the diagnostics.
func assessRegion(r *Region, src []byte) {
	body := src[r.Body.Start:r.Body.End]
	// Each pass reads the lines again, comments blanked, rather than
	// keeping them: a region can hold 100,000 lines (a list of their
	// copies held 30 MB).
	text := string(body)
	ix := source.NewIndex(body)
	eachLine := func(fn func(span source.Span, t string) bool) {
		var c htmlComment
		for l := 0; l < ix.LineCount(); l++ {
			ls := ix.LineSpan(l)
			t := c.strip(text[ls.Start:ls.End])
			if strings.TrimSpace(t) == "" {
				continue
			}
			if !fn(source.Span{Start: r.Body.Start + ls.Start, End: r.Body.Start + ls.End}, t) {
				return
			}
		}
	}
	lines, exact := 0, true
	var first struct {
		span source.Span
		text string
	}
	eachLine(func(span source.Span, t string) bool {
		if lines == 0 {
			first.span, first.text = span, t
		}
		lines++
		if tt := strings.TrimSpace(t); tt != TBDMarker && tt != "- "+TBDMarker {
			exact = false
		}
		return true
	})
	if lines == 0 || exact {
		r.State = RegionEmpty
		if lines > 0 {
			i := strings.Index(first.text, TBDMarker)
			r.Placeholder = source.Span{Start: first.span.Start + i, End: first.span.Start + i + len(TBDMarker)}
		}
		return
	}
	r.State = RegionFilled
	only := r.Body.Len() <= maxPlaceholderBody
	var f codefence.Scanner
	if only {
		eachLine(func(_ source.Span, t string) bool {
			only = !f.Step(t) && placeholderOnlyLine(blankInlineCode(t))
			return only
		})
	}
	if only {
		eachLine(func(span source.Span, _ string) bool {
			r.PlaceholderLines = append(r.PlaceholderLines, span)
			return true
		})
		return
	}
	f = codefence.Scanner{}
	eachLine(func(span source.Span, t string) bool {
		if f.Step(t) {
			return true
		}
		code := blankInlineCode(t)
		for off := 0; ; {
			i := strings.Index(code[off:], TBDMarker)
			if i < 0 {
				break
			}
			r.Mixed = append(r.Mixed, source.Span{Start: span.Start + off + i, End: span.Start + off + i + len(TBDMarker)})
			off += i + len(TBDMarker)
		}
		return true
	})
}

// regionKey normalises a heading for recognising variants: lower case, curly
// apostrophes made straight, "&" spelt "and", a leading number and a
// trailing parenthetical ("In Scope (v1)") dropped, punctuation other than
// the apostrophe turned into spaces.
func regionKey(text string) string {
	t := strings.ToLower(strings.TrimSpace(text))
	if strings.ContainsAny(t, "’‘&") {
		t = regionKeyReplacer.Replace(t)
	}
	if i := strings.LastIndex(t, "("); i > 0 && strings.HasSuffix(strings.TrimSpace(t), ")") {
		t = t[:i]
	}
	return wordKey(t, true)
}

// wordKey is the words of t (runs of a-z, 0-9 and any non-ASCII character
// but white space; of the apostrophe too when apostrophe is set) joined by
// one space, leading numbers dropped: how regionKey and normalizeHeading
// key a heading, in one pass, since every heading of a charter is keyed
// and a charter can hold 200,000.
func wordKey(t string, apostrophe bool) string {
	b := make([]byte, 0, len(t))
	lead := true // leading numbers are dropped
	for i := 0; i < len(t); {
		before := len(b)
		if before > 0 {
			b = append(b, ' ')
		}
		word := len(b)
		j := i
		for j < len(t) {
			r, size := rune(t[j]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(t[j:])
			}
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'' && apostrophe || r > 0x7f && !unicode.IsSpace(r)) {
				break
			}
			b = utf8.AppendRune(b, r) // an invalid byte is U+FFFD, as ranging over t reads it
			j += size
		}
		if j == i { // a separator
			_, size := utf8.DecodeRuneInString(t[i:])
			i += size
			b = b[:before]
			continue
		}
		i = j
		if lead && digitsOnly(b[word:]) {
			b = b[:before]
			continue
		}
		lead = false
	}
	return string(b)
}

// oneSpaced is s with each run of white space made one space and none at
// either end (strings.Fields' words joined), without a copy when s is that
// already.
func oneSpaced(s string) string {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return strings.Join(strings.Fields(s), " ")
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '),
			c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

// digitsOnly: w is ASCII digits (isNumber's reading).
func digitsOnly(w []byte) bool {
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(w) > 0
}

var (
	regionKeyReplacer = strings.NewReplacer("’", "'", "‘", "'", "&", " and ")
	scopeVariantKeys  = map[string]bool{"scope guardrail": true, "scope and guardrails": true, "guardrails": true, "scope guardrails": true}
	willVariantKeys   = map[string]bool{"will": true, "will do": true, "we will": true, "in scope": true, "in": true, "will have": true, "must have": true, "must do": true, "do": true, "goals": true}
	wontVariantKeys   = map[string]bool{"won't": true, "wont": true, "won't do": true, "wont do": true, "we won't": true, "we wont": true, "will not": true, "we will not": true,
		"out of scope": true, "out": true, "won't have": true, "non goals": true, "not in scope": true, "don't": true}
	visionVariantKeys = map[string]bool{"vision": true, "vision statement": true, "product vision": true, "project vision": true, "our vision": true, "the vision": true, "north star": true}
	regionSection     = map[RegionID]SectionID{RegionProblem: Problem, RegionUsers: Users, RegionRationale: ValueProp, RegionSuccess: Success}
)

// variantFor finds, for a region upstream does not find, a heading written
// for it: a near miss (RPS001) or a scratch-pad-era name (RPS007).
func variantFor(id RegionID, hs []Heading, spaced, keys []string, scopeFrom, scopeTo int, sk *Skeleton) (variant, legacy *Heading) {
	text, level := RegionHeading(id)
	for i, h := range hs {
		key := keys[i]
		switch id {
		case RegionWill, RegionWont:
			keys := willVariantKeys
			if id == RegionWont {
				keys = wontVariantKeys
			}
			inScope := scopeFrom >= 0 && h.Span.Start >= scopeFrom && h.Span.Start < scopeTo
			if h.Level == level && strings.EqualFold(spaced[i], text) {
				continue // right where a renamed Scope Guardrails would find it
			}
			if inScope && h.Level >= 3 && keys[key] {
				return &hs[i], nil
			}
		case RegionVision:
			if h.Level >= 1 && h.Level <= 3 && visionVariantKeys[key] && !(h.Level == 2 && strings.EqualFold(spaced[i], text)) {
				return &hs[i], nil
			}
		default:
			if h.Level < 1 || h.Level > 3 {
				continue
			}
			sid, ok := headingNames[key]
			if !ok || sid != regionSection[id] || (h.Level == level && strings.EqualFold(spaced[i], text)) {
				continue
			}
			if id == RegionRationale && (key == "value proposition" || key == "value prop") {
				if legacy == nil {
					legacy = &hs[i]
				}
				continue
			}
			if variant == nil {
				variant = &hs[i]
			}
		}
	}
	if variant != nil {
		return variant, nil
	}
	if id.IsList() && sk.Scope == nil && sk.ScopeVariant == nil && sk.LegacyScope != nil {
		return nil, sk.LegacyScope
	}
	return nil, legacy
}
