package interview

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// A skeleton charter (rp1 PR #436 on) has no scratch pad: the charter text
// is the interview's only state. The parent asks one question for the
// first gap region, writes the answer into that region, derives **Status**
// from the gaps, re-reads, and repeats (rp1 plugins/shared/
// parent-owned-interview.md@1668412e). These functions are those steps, as
// pure edits.

// RegionQuestions are the questions asked for each region.
var RegionQuestions = map[rp1.RegionID]string{
	rp1.RegionVision:    "Where should this project be in a few years? Say it in one sentence: the future it makes possible.",
	rp1.RegionProblem:   Templates[rp1.Problem],
	rp1.RegionUsers:     Templates[rp1.Users],
	rp1.RegionRationale: Templates[rp1.ValueProp],
	rp1.RegionWill:      "What will v1 do? List what is in scope.",
	rp1.RegionWont:      "What will v1 explicitly not do? List what is out of scope, to keep focus.",
	rp1.RegionSuccess:   Templates[rp1.Success],
}

// SkeletonStep is where a skeleton charter's interview stands.
type SkeletonStep struct {
	Region   rp1.RegionID   // the first gap, asked next; "" when none is left
	Question string         // the question for Region
	Gaps     []rp1.RegionID // every gap, in document order
	Status   string         // the **Status** the gaps call for
}

// NextRegion is the next step for a skeleton charter: the first gap region
// and its question (the value question names the users and the problem from
// those regions, as in the scratch-pad interview).
func NextRegion(text []byte) SkeletonStep { return NextRegionOf(rp1.Parse(text)) }

// NextRegionOf is NextRegion of a charter parsed already.
func NextRegionOf(ch *rp1.Charter) SkeletonStep {
	sk := rp1.ReadSkeleton(ch)
	st := SkeletonStep{Gaps: sk.Gaps(), Status: sk.ExpectedStatus()}
	if len(st.Gaps) == 0 {
		return st
	}
	st.Region = st.Gaps[0]
	st.Question = regionQuestion(ch, sk, st.Region)
	return st
}

// RegionQuestion is the question asked for region id of a skeleton
// charter (NextRegion's for its first gap; an editor that lets the user
// pass over a gap asks the next one with it).
func RegionQuestion(text []byte, id rp1.RegionID) string {
	ch := rp1.Parse(text)
	return regionQuestion(ch, rp1.ReadSkeleton(ch), id)
}

// regionQuestion fills the value question with the users and the problem
// from their regions, as in the scratch-pad interview.
func regionQuestion(ch *rp1.Charter, sk *rp1.Skeleton, id rp1.RegionID) string {
	if id != rp1.RegionRationale {
		return RegionQuestions[id]
	}
	src := ch.Index.Source()
	ctx := map[rp1.SectionID][]string{}
	for id, sec := range map[rp1.RegionID]rp1.SectionID{rp1.RegionUsers: rp1.Users, rp1.RegionProblem: rp1.Problem} {
		if r := sk.Region(id); r != nil && !r.Gap() {
			ctx[sec] = []string{string(src[r.Body.Start:r.Body.End])}
		}
	}
	return Question(rp1.ValueProp, ctx)
}

// ErrNotSkeleton: the charter is of the scratch-pad era; its answers belong
// in the scratch pad, or it should be migrated first.
var ErrNotSkeleton = errors.New("interview: the charter is in the scratch-pad format, not rp1's skeleton: migrate it first (charter-lsp migrate), or use the scratch-pad interview")

// AnswerRegion writes answer into region id of a skeleton charter: in place
// of its _TBD_ when it is a gap, after its text otherwise, or under a new
// heading where the region belongs when the heading is missing. Will and
// Won't take lists (prose becomes one item per sentence; nested items and
// indentation are kept). **Status** is then set to what the gaps call for.
// The plan is one edit against text.
func AnswerRegion(text []byte, id rp1.RegionID, answer string) (Plan, error) {
	ch := rp1.Parse(text)
	if ch.Format != rp1.FormatSkeleton {
		return Plan{Cursor: -1}, ErrNotSkeleton
	}
	answer = strings.TrimSpace(strings.ReplaceAll(answer, "\r\n", "\n"))
	if answer == "" {
		return Plan{Cursor: -1}, errors.New("interview: an empty answer fills nothing")
	}
	sk := ch.Skeleton
	r := sk.Region(id)
	if r == nil {
		return Plan{Cursor: -1}, fmt.Errorf("interview: %q is not a region of rp1's charter", id)
	}
	if r.Variant != nil {
		return Plan{Cursor: -1}, fmt.Errorf("interview: the heading %q is meant for %q, but rp1 does not read it; rename it %q first (charter-lsp check --fix, or the region-heading-variant quick fix)", r.Variant.Text, id, canonicalHeading(id))
	}
	nl := eol(text)
	heading, level := rp1.RegionHeading(id)
	body := rp1.DemoteHeadings(answer, level)
	if id.IsList() {
		body = listify(body)
	}
	body = withEOL(body, nl)

	var e Edit
	switch {
	case r.Heading != nil && r.Gap():
		e = Edit{Span: r.Body, NewText: body + nl + nl}
		if r.Body.End == len(text) {
			e.NewText = body + nl
		}
		if r.Body.Start == r.Heading.Span.End { // heading on the last line, no line ending
			e.NewText = nl + e.NewText
		}
	case r.Heading != nil:
		end := trimmedEnd(text, r.Body)
		e = Edit{Span: source.Span{Start: end, End: end}, NewText: nl + nl + body}
	default:
		at, withScope := ch.RegionInsertion(id)
		block := strings.Repeat("#", level) + " " + heading + nl + body + nl
		if withScope {
			will, wont := "- "+rp1.TBDMarker, "- "+rp1.TBDMarker
			if id == rp1.RegionWill {
				will = body
			} else {
				wont = body
			}
			block = rp1.ScopeBlock(will, wont, nl)
		}
		e = rp1.InsertBlock(text, at, block, nl)
	}
	after := Apply(text, []Edit{e})
	if fix := rp1.Parse(after).StatusFix(); fix != nil {
		after = Apply(after, fix.Edits)
	}
	return Plan{Edits: []Edit{diffEdit(text, after)}, Cursor: -1}, nil
}

// RegionPlan prepares a region for an answer typed in place: the edits
// (none when the region already holds the template's placeholder) and the
// placeholder to select, in the text after them.
type RegionPlan struct {
	Edits  []Edit
	Select source.Span
}

// ErrRegionFilled: the region is not a gap; there is no placeholder to
// answer in place.
var ErrRegionFilled = errors.New("interview: the region is already filled")

// OpenRegion readies gap region id of a skeleton charter for the user to
// type its answer: the region's "_TBD_" is selected, so typing replaces
// it; a region whose body is blank gets the placeholder first, and a
// missing one its heading (with Scope Guardrails when Will or Won't has
// none) where the template puts it. **Status** is left alone: the region
// is still a gap until the answer is typed.
func OpenRegion(text []byte, id rp1.RegionID) (RegionPlan, error) {
	ch := rp1.Parse(text)
	if ch.Format != rp1.FormatSkeleton {
		return RegionPlan{}, ErrNotSkeleton
	}
	r := ch.Skeleton.Region(id)
	switch {
	case r == nil:
		return RegionPlan{}, fmt.Errorf("interview: %q is not a region of rp1's charter", id)
	case r.Variant != nil:
		return RegionPlan{}, fmt.Errorf("interview: the heading %q is meant for %q, but rp1 does not read it; rename it %q first (charter-lsp check --fix, or the region-heading-variant quick fix)", r.Variant.Text, id, canonicalHeading(id))
	case !r.Gap():
		return RegionPlan{}, ErrRegionFilled
	case r.Placeholder.Len() > 0:
		return RegionPlan{Select: r.Placeholder}, nil
	}
	nl := eol(text)
	heading, level := rp1.RegionHeading(id)
	var e Edit
	if r.Heading != nil {
		// A blank body: the placeholder goes on the line after the heading.
		at := r.Body.Start
		insert := id.Placeholder() + nl
		if at == r.Heading.Span.End { // the heading is the last line, with no line ending
			insert = nl + id.Placeholder()
		}
		e = Edit{Span: source.Span{Start: at, End: at}, NewText: insert}
	} else {
		at, withScope := ch.RegionInsertion(id)
		block := strings.Repeat("#", level) + " " + heading + nl + id.Placeholder() + nl
		if withScope {
			block = rp1.ScopeBlock(rp1.RegionWill.Placeholder(), rp1.RegionWont.Placeholder(), nl)
		}
		e = rp1.InsertBlock(text, at, block, nl)
	}
	after := Apply(text, []Edit{e})
	r2 := rp1.ReadSkeleton(rp1.Parse(after)).Region(id)
	if r2 == nil || r2.Placeholder.Len() == 0 {
		return RegionPlan{}, fmt.Errorf("interview: could not open %q for an answer", id)
	}
	return RegionPlan{Edits: []Edit{e}, Select: r2.Placeholder}, nil
}

// CorrectStatus sets **Status** to what the gaps call for and changes
// nothing else (the parent's first step when the stored status disagrees);
// an empty plan when it already agrees.
func CorrectStatus(text []byte) Plan {
	if fix := rp1.Parse(text).StatusFix(); fix != nil {
		return Plan{Edits: fix.Edits, Cursor: -1}
	}
	return Plan{Cursor: -1}
}

// NewSkeleton is the charter /blueprint writes when there is none: the
// template's seven regions holding _TBD_, created today, Draft.
func NewSkeleton(project string, now time.Time) []byte {
	if strings.TrimSpace(project) == "" {
		project = "[To Be Determined]"
	}
	var b strings.Builder
	b.WriteString("# Project Charter: " + strings.TrimSpace(project) + "\n\n")
	b.WriteString("**Created**: " + now.UTC().Format("2006-01-02") + "\n")
	b.WriteString("**Status**: " + rp1.StatusValueDraft + "\n")
	for _, id := range rp1.Regions {
		heading, level := rp1.RegionHeading(id)
		if id == rp1.RegionWill {
			b.WriteString("\n## " + rp1.ScopeHeading + "\n")
		}
		b.WriteString("\n" + strings.Repeat("#", level) + " " + heading + "\n" + id.Placeholder() + "\n")
	}
	return []byte(b.String())
}

// ProjectName is the name rp1 gives a new charter at path: the project
// folder's (the folder holding .rp1/), else the charter's folder's.
func ProjectName(path string) string {
	if name := projectFolder(path); name != "" {
		return name
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return filepath.Base(filepath.Dir(abs))
}

// projectFolder is the name of the folder holding .rp1/ when the charter
// lives under it, else "".
func projectFolder(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := filepath.ToSlash(abs)
	if i := strings.LastIndex(p, "/.rp1/"); i > 0 {
		return filepath.Base(filepath.FromSlash(p[:i]))
	}
	return ""
}

// listify turns prose into list items, one per sentence; list items (and
// their nested items) are kept as written.
func listify(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case rp1.IsListItem(t), strings.HasPrefix(t, "#"):
			out = append(out, line)
		default:
			for _, sen := range rp1.SplitSentences(t) {
				out = append(out, "- "+sen.Text)
			}
		}
	}
	return strings.Join(out, "\n")
}

// trimmedEnd is the end of the last non-blank character in span.
func trimmedEnd(text []byte, s source.Span) int {
	end := s.End
	for end > s.Start && (text[end-1] == ' ' || text[end-1] == '\t' || text[end-1] == '\n' || text[end-1] == '\r') {
		end--
	}
	return end
}

// diffEdit is one edit turning old into new: the changed middle.
func diffEdit(old, new []byte) Edit {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	q := 0
	for q < len(old)-p && q < len(new)-p && old[len(old)-1-q] == new[len(new)-1-q] {
		q++
	}
	return Edit{Span: source.Span{Start: p, End: len(old) - q}, NewText: string(new[p : len(new)-q])}
}

// canonicalHeading is the heading line rp1's template writes for id.
func canonicalHeading(id rp1.RegionID) string {
	name, level := rp1.RegionHeading(id)
	return strings.Repeat("#", level) + " " + name
}
