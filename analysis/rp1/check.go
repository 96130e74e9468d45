package rp1

import (
	"context"
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// DefaultQuestionBudget is the interview's budget when Options leaves it 0.
const DefaultQuestionBudget = 5

// Options tune Check.
type Options struct {
	// QuestionBudget is the number of questions an interview may ask; 0
	// means DefaultQuestionBudget.
	QuestionBudget int
	// RP1Style is analysis.Classify's verdict: a charter.md that is not
	// rp1-style gets no section or status diagnostics (SPEC §1).
	RP1Style bool
}

// sectionNeeds says what each section should hold, for messages (SPEC §1).
var sectionNeeds = map[SectionID]string{
	Problem:   "why this exists, the pain points and why now",
	Users:     "who uses it, their segments and needs",
	ValueProp: "the value delivered, benefits and differentiation",
	Scope:     "what we will and won't do",
	Success:   "metrics, failure modes and the definition of done",
}

// Check returns the diagnostics of families rp1 and scratchpad for ch. Only
// spans are set; the caller locates them (diag.Locate) with ch.Index.
func Check(ch *Charter, opts Options) []diag.Diagnostic {
	ds, _ := CheckContext(context.Background(), ch, opts)
	return ds
}

// CheckContext is Check that stops, returning ctx's error, when ctx is
// done: while the interview's answers are weighed (qaContext, which reads
// every sentence of every answer) and before each gap.
func CheckContext(ctx context.Context, ch *Charter, opts Options) ([]diag.Diagnostic, error) {
	if opts.QuestionBudget <= 0 {
		opts.QuestionBudget = DefaultQuestionBudget
	}
	f := new(found)
	switch {
	case ch.Format == FormatSkeleton:
		// rp1 reads a skeleton charter's regions only; a scratch pad in it
		// is legacy (reported by checkSkeleton), its entries unread.
		if opts.RP1Style {
			checkSkeleton(ch, ch.Skeleton, f)
		}
	default:
		if opts.RP1Style {
			sections, err := checkSections(ctx, ch, opts.QuestionBudget)
			if err != nil {
				return nil, err
			}
			f.add(sections...)
			f.add(checkStatus(ch)...)
		}
		if ch.ScratchPad != nil {
			checkScratchPad(ch, opts, f)
		}
	}
	if opts.RP1Style {
		generationConflicts(ch, f)
		checkCapped(ch, f)
	}
	ds := f.list()
	diag.Sort(ds)
	return ds, nil
}

// found gathers a check's diagnostics, keeping at most diag.MaxPerCode of
// a code (diag.Limiter) and counting the rest in one analysis-capped note
// per code: the checks that report each duplicate heading, entry, line or
// clue would otherwise hold 100,000 diagnostics of a few hundred bytes
// each (220 MB for 1 MB of "### Will" headings) before analysis.Finish
// kept 1,000.
type found struct {
	ds    []diag.Diagnostic
	limit diag.Limiter
}

func (f *found) add(ds ...diag.Diagnostic) {
	for _, d := range ds {
		if f.take(d.Code, d.Span) {
			f.put(d)
		}
	}
}

// take counts a diagnostic of code at span and reports whether it is kept:
// a loop that may make many asks before it builds one.
func (f *found) take(code diag.Code, span source.Span) bool { return f.limit.Keep("", code, span) }

// addNew adds diag.New(code, span, format, args...), made only when kept.
func (f *found) addNew(code diag.Code, span source.Span, format string, args ...any) {
	if f.take(code, span) {
		f.put(diag.New(code, span, format, args...))
	}
}

// put keeps d, taken already.
func (f *found) put(d diag.Diagnostic) { f.ds = append(f.ds, d) }

// list is what was kept, and a note for each code that was over.
func (f *found) list() []diag.Diagnostic { return append(f.ds, f.limit.Notes("")...) }

func checkSections(ctx context.Context, ch *Charter, budget int) ([]diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	qa, err := ch.qaContext(ctx)
	if err != nil {
		return nil, err
	}
	for _, g := range qa.Gaps() {
		if g.Status == GapFilled {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sec := ch.Section(g.Section)
		name := CanonicalHeading[g.Section]
		var span source.Span
		if sec != nil {
			name, span = sec.Heading, sec.HeadingSpan
		} else {
			span = insertionPoint(ch, g.Section)
		}
		if g.Status == GapCoveredByQA {
			e := g.CoveredBy
			d := diag.New(diag.SectionCoveredByQA, span,
				"%q is not written in the charter yet, but Q%d (%s) answers it; finish the interview to write it.",
				name, e.Number, e.Topic)
			d.Related = []diag.Related{{Span: e.HeadingSpan, Message: "the answer that covers it"}}
			ds = append(ds, d)
			continue
		}
		needs := sectionNeeds[g.Section]
		advice := qa.InterviewAdvice(g, budget)
		switch {
		case sec == nil:
			d := diag.New(diag.SectionMissing, span,
				"Section \"%s %s\" is missing; %s",
				strings.Repeat("#", ch.SectionLevel()), CanonicalHeading[g.Section], advice.gapMessage("add it with "+needs))
			d.Data = map[string]string{"section": string(g.Section), "heading": CanonicalHeading[g.Section]}
			ds = append(ds, d)
		case sec.Status == StatusEmpty && len(sec.Problems) > 0:
			d := diag.New(diag.SectionEmpty, span,
				"Section %q holds only the placeholder %q; %s", name, sec.Problems[0].Text, advice.gapMessage("write "+needs))
			d.Data = map[string]string{"section": string(g.Section)}
			ds = append(ds, d)
		case sec.Status == StatusEmpty:
			d := diag.New(diag.SectionEmpty, span,
				"Section %q has no content; %s", name, advice.gapMessage("write "+needs))
			d.Data = map[string]string{"section": string(g.Section)}
			ds = append(ds, d)
		default:
			ds = append(ds, partial(sec, name, needs))
		}
	}
	return ds, nil
}

// partial reports a PARTIAL section on its heading, naming each reason and
// pointing at each marker.
func partial(sec *Section, name, needs string) diag.Diagnostic {
	var reasons []string
	var related []diag.Related
	for _, p := range sec.Problems {
		switch p.Kind {
		case ProblemTBD:
			reasons = append(reasons, fmt.Sprintf("a %q marker", p.Text))
			related = append(related, diag.Related{Span: p.Span, Message: "TBD marker"})
		case ProblemPlaceholder:
			reasons = append(reasons, fmt.Sprintf("the placeholder %q", p.Text))
			related = append(related, diag.Related{Span: p.Span, Message: "placeholder"})
		case ProblemFewSentence:
			reasons = append(reasons, fmt.Sprintf("only %d sentence%s", sec.Sentences, plural(sec.Sentences)))
		}
	}
	d := diag.New(diag.SectionPartial, sec.HeadingSpan,
		"Section %q is partial: it has %s; write at least two sentences on %s.",
		name, joinReasons(reasons), needs)
	d.Related = related
	d.Data = map[string]string{"section": string(sec.ID)}
	return d
}

func joinReasons(rs []string) string {
	// Repeated markers ("TBD" twice) are named once in the message; the
	// related locations still list each.
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	switch len(out) {
	case 0:
		return "too little content"
	case 1:
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// insertionPoint is where a missing section belongs: the end of the content
// of the nearest earlier section in priority order that exists, else the
// title line, else the start of the file.
func insertionPoint(ch *Charter, id SectionID) source.Span {
	prev := -1
	for i, p := range Priority {
		if p == id {
			prev = i - 1
			break
		}
	}
	for ; prev >= 0; prev-- {
		if s := ch.Section(Priority[prev]); s != nil {
			end := trimSpan(ch.Index.Source(), s.BodySpan).End
			if end <= s.HeadingSpan.End {
				end = s.HeadingSpan.End
			}
			return source.Span{Start: end, End: end}
		}
	}
	if ch.TitleSpan != (source.Span{}) {
		return ch.TitleSpan
	}
	return source.Span{}
}

// checkStatus flags "**Status**: Complete" while the charter's gaps call
// for Draft (ExpectedStatus): a section missing or unwritten, or an
// interview under way. A section that is only PARTIAL is written: it gets
// section-partial, not this.
func checkStatus(ch *Charter) []diag.Diagnostic {
	f := ch.Header("Status")
	if f == nil || !strings.EqualFold(strings.TrimSpace(f.Value), StatusValueComplete) || ch.ExpectedStatus() == StatusValueComplete {
		return nil
	}
	var why []string
	if open := ch.Unwritten(); len(open) > 0 {
		names := make([]string, len(open))
		for i, id := range open {
			names[i] = string(id)
		}
		why = append(why, "gaps in "+strings.Join(names, ", "))
	}
	if ch.ScratchPad != nil {
		why = append(why, "an interview scratch pad")
	}
	return []diag.Diagnostic{diag.New(diag.StatusCompleteWithGaps, f.Span,
		"**Status** says Complete but the charter still has %s; finish the charter or set **Status**: Draft.",
		strings.Join(why, " and "))}
}

// generationConflicts says where the file holds evidence of the other
// generation than the one it is read as (Era.Conflicts). A scratch pad in
// a skeleton charter is legacy-scratch-pad's.
func generationConflicts(ch *Charter, f *found) {
	e := ch.Era
	for _, c := range e.Conflicts {
		if c.Kind == ClueScratchPad && e.Format == FormatSkeleton || !f.take(diag.GenerationConflict, c.Span) {
			continue
		}
		from := ""
		if len(e.Reasons) > 0 {
			r := e.Reasons[0]
			from = ", from " + r.What
			if r.Line > 0 {
				from += fmt.Sprintf(" on line %d", r.Line)
			}
		}
		f.put(diag.New(diag.GenerationConflict, c.Span,
			"%s is %s, but this charter is read as %s%s; %s.", c.What, c.Means, e.Format.Title(), from, e.Otherwise))
	}
}
