package charterfile

import (
	"regexp"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Complete offers what the generation's grammar reads at off in the
// folder's charter.md (CompleteAt), in the order given; nil when nothing
// completes there.
func Complete(v *View, off int) []feature.CompletionItem {
	if v.Charter == nil {
		return nil
	}
	comp := v.Charter.CompleteAt(off)
	if comp == nil {
		return nil
	}
	items := []feature.CompletionItem{}
	for i, it := range comp.Items {
		filter := it.Filter
		if filter == "" {
			filter = it.Label
		}
		items = append(items, feature.CompletionItem{Label: it.Label, Detail: it.Detail, Kind: feature.Value,
			Span: comp.Span, Insert: it.Insert, Filter: filter, Sort: string(rune('a' + i))})
	}
	return items
}

// Completion is what may be written at an offset of charter.md: the words
// the generation's grammar reads there, and the span the chosen one
// replaces.
type Completion struct {
	Span  source.Span
	Items []CompletionItem
}

// CompletionItem is one choice.
type CompletionItem struct {
	Label  string // as shown
	Insert string // what replaces Span
	Detail string
	// Filter is what the editor matches the typed text against, when that
	// is not the label (a suffix typed with a hyphen matches "— done").
	Filter string
}

// phaseDash is what is typed to start a phase's status suffix: white space,
// then an em dash, an en dash or one or two hyphens, then the word so far.
var phaseDash = regexp.MustCompile(`\s+(—|–|--?)\s*([A-Za-z]*)$`)

// CompleteAt says what completes at off, or nil:
//   - after "Depends:" in a criterion block, the ids of the other criteria
//     not yet on the line;
//   - in the token of a "Status:" or "Evidence:" line, the tokens its
//     generation reads;
//   - after a dash at the end of a phase item in ## Phases, the suffixes
//     " — upcoming|current|done", written with the em dash upstream needs;
//   - at the start of a line in a criterion block, its labels.
func (c *Charter) CompleteAt(off int) *Completion {
	t := c.text
	i := t.lineOf(off)
	line := t.lineContentSpan(i)
	if off < line.Start || off > line.End {
		return nil
	}
	l := strings.TrimSuffix(t.line(i), "\r")
	col := off - line.Start // the stripped line and the file agree up to a comment
	if t.span(t.lines[i].start, t.lines[i].start+col).End != off {
		return nil // inside or after an HTML comment: not what upstream reads
	}
	if c.Generation.FileInterface() {
		if cr := c.blockOf(i); cr != nil {
			return c.completeInBlock(cr, i, l, col)
		}
		return nil
	}
	if c.Generation == PH && c.PhasesSection.Found && i > c.PhasesSection.head && i < c.PhasesSection.end {
		return c.completePhase(i, l, col)
	}
	return nil
}

func (c *Charter) completeInBlock(cr *Criterion, i int, l string, col int) *Completion {
	t := c.text
	before := l[:col]
	for _, label := range []string{"Depends", "Status", "Evidence"} {
		if !labelPrefix(l, label) {
			continue
		}
		if col <= len(label) {
			return nil // in the label itself
		}
		at := skipSpace(l, len(label)+1)
		if col < at {
			return nil
		}
		if label == "Depends" {
			return c.completeDepends(cr, i, l, at, col)
		}
		if label == "Status" && c.Generation == FI14 {
			return nil // ADR-0014 reads Evidence lines only
		}
		// The token runs from the value's start to the first space; past
		// it is the note.
		end := at
		for end < len(l) && !isJSSpace(rune(l[end])) {
			end++
		}
		if col > end {
			return nil
		}
		comp := &Completion{Span: t.at(i, at, end)}
		for _, tok := range StatusTokens(c.Generation, label) {
			comp.Items = append(comp.Items, CompletionItem{Label: string(tok), Insert: string(tok), Detail: tok.Meaning()})
		}
		return comp
	}
	// The start of a line: a label.
	word := strings.TrimLeft(before, " \t")
	if word != before || strings.ContainsAny(word, ": ") {
		return nil
	}
	labels := []string{"Status", "Depends"}
	if c.Generation == FI14 {
		labels = []string{"Evidence", "Depends"}
	}
	end := col
	for end < len(l) && l[end] != ' ' && l[end] != ':' {
		end++
	}
	comp := &Completion{Span: t.at(i, 0, end)}
	for _, lb := range labels {
		if hasPrefixFold(lb, word) {
			comp.Items = append(comp.Items, CompletionItem{Label: lb + ":", Insert: lb + ": ",
				Detail: map[string]string{"Status": "the criterion's status and a note", "Evidence": "the criterion's evidence: pass, fail or none, and a note",
					"Depends": "the criteria this one needs first"}[lb]})
		}
	}
	if len(comp.Items) == 0 {
		return nil
	}
	return comp
}

func (c *Charter) completeDepends(cr *Criterion, i int, l string, at, col int) *Completion {
	t := c.text
	start, end := col, col
	sep := func(b byte) bool { return b == ',' || b == ' ' || b == '\t' }
	for start > at && !sep(l[start-1]) {
		start--
	}
	for end < len(l) && !sep(l[end]) {
		end++
	}
	listed := map[string]bool{cr.ID: true}
	toks, offs := splitDepends(l[at:])
	for k, tok := range toks {
		if at+offs[k] != start {
			listed[tok] = true
		}
	}
	comp := &Completion{Span: t.at(i, start, end)}
	for _, x := range c.Criteria {
		if !listed[x.ID] {
			comp.Items = append(comp.Items, CompletionItem{Label: x.ID, Insert: x.ID, Detail: x.Title + " (" + string(x.Status) + ")"})
		}
	}
	return comp
}

func (c *Charter) completePhase(i int, l string, col int) *Completion {
	if _, _, _, ok := phaseItem(l); !ok {
		return nil
	}
	m := phaseDash.FindStringSubmatchIndex(l[:col])
	if m == nil {
		return nil
	}
	end := col
	for end < len(l) && (l[end] >= 'a' && l[end] <= 'z' || l[end] >= 'A' && l[end] <= 'Z') {
		end++
	}
	comp := &Completion{Span: c.text.at(i, m[0], end)}
	typed := l[m[0]:m[3]] // the white space and the dash, as typed
	for _, s := range PhaseStatuses {
		w := string(s)
		comp.Items = append(comp.Items, CompletionItem{Label: "— " + w, Insert: " — " + w, Detail: s.Meaning(), Filter: typed + " " + w})
	}
	return comp
}
