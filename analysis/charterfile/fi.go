package charterfile

import (
	"context"
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// ParseFI14 reads charter.md as the ADR-0014 parser does
// (barisgit/pi-charter src/domain/charter-file.ts@11ebdca7): the last
// "## Objective" wins; every "### C<n>. title" in the file is a criterion
// whose block ends at the next heading of any level; "Evidence:" takes the
// rest of its line and every later line of the block as its note.
func ParseFI14(src []byte) *Charter {
	c, _ := parseFI(context.Background(), newText(src), FI14)
	return c
}

// ParseFI15 reads charter.md as the ADR-0015 parser does
// (charter-file.ts@494a765e): the first "## Objective", "## References" and
// "## Scope" win; "Status:" is one line, the first one wins; "Evidence:" is
// a legacy alias read only when there is no Status line.
func ParseFI15(src []byte) *Charter {
	c, _ := parseFI(context.Background(), newText(src), FI15)
	return c
}

// parseFI parses a file-interface charter, or stops with ctx's error when
// ctx is done (looked at every 1024 criteria and Depends words).
func parseFI(ctx context.Context, t *text, gen Generation) (*Charter, error) {
	c := &Charter{Generation: gen, text: t}
	p := fiParser{ctx: ctx, c: c, t: t}
	p.sections()
	p.criteria()
	p.depends()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

type fiParser struct {
	ctx context.Context
	c   *Charter
	t   *text
	// steps counts the work stopped() has seen.
	steps int
}

// stopped reports, every 1024th call, whether the parse's context is done;
// the loops that may run long call it and end early (parseFI then returns
// the error, not the half-made charter).
func (p *fiParser) stopped() bool {
	p.steps++
	return p.steps%1024 == 0 && p.ctx.Err() != nil
}

func (p *fiParser) warn(code diag.Code, span source.Span, id, format string, args ...any) {
	p.c.Warnings = append(p.c.Warnings, Warning{Code: code, Text: fmt.Sprintf(format, args...), Span: span, Criterion: id})
}

// level2Section reads the level-2 section at line i: its body runs to the
// next level-2 heading.
func (p *fiParser) level2Section(i, titleStart, titleEnd int) Section {
	t := p.t
	end := t.n()
	for j := i + 1; j < t.n(); j++ {
		if _, _, ok := level2(t.line(j)); ok {
			end = j
			break
		}
	}
	s := Section{Found: true, HeadingSpan: t.lineSpan(i), TitleSpan: t.at(i, titleStart, titleEnd), head: i, end: end}
	s.BodySpan, s.Text = t.body(i+1, end)
	return s
}

func (p *fiParser) sections() {
	t, c := p.t, p.c
	for i := 0; i < t.n(); i++ {
		l := t.line(i)
		s, e, ok := level2(l)
		if !ok {
			continue
		}
		title := l[s:e]
		switch {
		case lowerIs(title, "objective"):
			// ADR-0014 keeps the last Objective, ADR-0015 the first.
			if c.Generation == FI14 || !c.Objective.Found {
				c.Objective = p.level2Section(i, s, e)
			}
		case lowerIs(title, "criteria"):
			if c.CriteriaHeading == nil {
				sp := t.lineSpan(i)
				c.CriteriaHeading = &sp
			}
		case c.Generation == FI15 && lowerIs(title, "references"):
			if !c.References.Found {
				c.References = p.level2Section(i, s, e)
			}
		case c.Generation == FI15 && lowerIs(title, "scope"):
			if !c.Scope.Found {
				c.Scope = p.level2Section(i, s, e)
			}
		}
	}
	if !c.Objective.Found {
		p.warn(diag.ObjectiveMissing, source.Span{}, "", "missing `## Objective` section")
	} else if c.Objective.Text == "" {
		p.warn(diag.ObjectiveEmpty, c.Objective.HeadingSpan, "", "`## Objective` section is empty")
	}
	if c.CriteriaHeading == nil {
		p.warn(diag.CriteriaSectionMissing, source.Span{}, "", "missing `## Criteria` section")
	}
}

func (p *fiParser) criteria() {
	t, c := p.t, p.c
	c.byID = map[string]*Criterion{}
	for i := 0; i < t.n() && !p.stopped(); i++ {
		l := t.line(i)
		is, ie, ts, te, ok := criterionHeading(l)
		if !ok {
			continue
		}
		end := t.n()
		for j := i + 1; j < t.n(); j++ {
			if anyHeading(t.line(j)) {
				end = j
				break
			}
		}
		cr := &Criterion{ID: l[is:ie], Title: l[ts:te], Line: i + 1, head: i, end: end,
			HeadingSpan: t.lineSpan(i), IDSpan: t.at(i, is, ie), TitleSpan: t.at(i, ts, te),
			BlockSpan: t.span(t.lines[i].start, t.lines[end-1].end)}
		if c.byID[cr.ID] != nil {
			p.warn(diag.CriterionDuplicateID, cr.IDSpan, cr.ID, "duplicate criterion id %s; later occurrence ignored", cr.ID)
			c.Dropped = append(c.Dropped, cr)
			continue
		}
		c.byID[cr.ID] = cr
		if c.Generation == FI14 {
			p.block14(cr)
		} else {
			p.block15(cr)
		}
		c.Criteria = append(c.Criteria, cr)
	}
}

// field builds the Field of a label line whose value starts at byte at.
func (p *fiParser) field(label string, i, at int) *Field {
	t := p.t
	f := &Field{Label: label, LineSpan: t.lineSpan(i), line: i}
	f.ValueSpan = t.at(i, at, len(t.line(i)))
	if tok, _, ok := statusValue(t.line(i)[at:]); ok {
		f.TokenSpan = t.at(i, at, at+len(tok))
	} else {
		f.TokenSpan = t.at(i, at, at)
	}
	return f
}

// dependsLine sets cr's Depends from the line i whose value starts at at.
func (p *fiParser) dependsLine(cr *Criterion, i int, value string, at int) {
	toks, offs := splitDepends(value)
	cr.Depends = toks
	cr.DependsLine = p.field("Depends", i, at)
	cr.DependsSpans = make([]source.Span, len(toks))
	for k, tok := range toks {
		cr.DependsSpans[k] = p.t.at(i, at+offs[k], at+offs[k]+len(tok))
	}
}

// overrideDepends records that a Depends line replaces an earlier one.
func (p *fiParser) overrideDepends(cr *Criterion) {
	if cr.DependsLine != nil {
		cr.Ignored = append(cr.Ignored, p.t.line(cr.DependsLine.line))
	}
}

// joinRest is lines.slice(from, end).join("\n").trimEnd().
func (p *fiParser) joinRest(from, end int) string {
	if from >= end {
		return ""
	}
	return jsTrimEnd(p.t.s[p.t.lines[from].start:p.t.lines[end-1].end])
}

// block14 is the ADR-0014 block loop: Depends lines (the last wins), body
// lines, and the first Evidence line, which ends the scan.
func (p *fiParser) block14(cr *Criterion) {
	t := p.t
	var body []string
	found := false
	for j := cr.head + 1; j < cr.end; j++ {
		l := t.line(j)
		if v, at, ok := labelLine(l, "Depends"); ok {
			p.overrideDepends(cr)
			p.dependsLine(cr, j, v, at)
			continue
		}
		if v, at, ok := labelLine(l, "Evidence"); ok {
			cr.StatusLine = p.field("Evidence", j, at)
			raw := v
			if rest := p.joinRest(j+1, cr.end); rest != "" {
				raw = v + "\n" + rest
			}
			p.evidenceValue14(cr, raw)
			found = true
			break
		}
		body = append(body, l)
	}
	if !found {
		p.warn(diag.CriterionStatusMissing, cr.HeadingSpan, cr.ID, "%s: missing Evidence line; treating as \"Evidence: none\"", cr.ID)
		cr.Status, cr.Note = StatusNone, ""
	}
	cr.Body = jsTrim(strings.Join(body, "\n"))
}

// statusOf reads raw, the value of cr's Status or Evidence line, as one
// of tokens (matched as upstream matches them) and the note after it. A
// pass without a note gets upstream's warning, passWithoutNote (a format
// taking the id).
func (p *fiParser) statusOf(cr *Criterion, raw string, tokens []Status, passWithoutNote string) (Status, string, bool) {
	tok, noteAt, matched := statusValue(raw)
	s, known := readToken(tok, tokens)
	if !matched || !known {
		return "", "", false
	}
	note := jsTrim(raw[noteAt:])
	if s == StatusPass && note == "" {
		p.warn(diag.CriterionPassEmptyNote, cr.StatusLine.LineSpan, cr.ID, passWithoutNote, cr.ID)
	}
	return s, note, true
}

func (p *fiParser) evidenceValue14(cr *Criterion, raw string) {
	if s, note, ok := p.statusOf(cr, raw, EvidenceLineTokens,
		"%s: Evidence is \"pass\" with an empty note; completion requires a note saying what was run and what it showed"); ok {
		cr.Status, cr.Note = s, note
		return
	}
	if jsTrim(raw) == "" {
		cr.Status, cr.Note = StatusNone, ""
		return
	}
	p.warn(diag.CriterionStatusUnknown, cr.StatusLine.ValueSpan, cr.ID,
		"%s: Evidence line must start with pass, fail, or none (got \"%s\"); treating as none", cr.ID, jsSlice40(jsTrim(raw)))
	cr.Status, cr.Note = StatusNone, jsTrim(raw)
}

// block15 is the ADR-0015 block loop: Depends lines anywhere (the last
// wins), the first Status line, legacy Evidence lines (the last one is
// read when there is no Status line), everything else body.
func (p *fiParser) block15(cr *Criterion) {
	t := p.t
	var body []string
	legacy, bodyBeforeLegacy := -1, 0
	legacyAt := 0
	for j := cr.head + 1; j < cr.end; j++ {
		l := t.line(j)
		if v, at, ok := labelLine(l, "Depends"); ok {
			p.overrideDepends(cr)
			p.dependsLine(cr, j, v, at)
			continue
		}
		if v, at, ok := labelLine(l, "Status"); ok {
			if cr.StatusLine != nil {
				p.warn(diag.CriterionStatusDuplicate, t.lineSpan(j), cr.ID, "%s: duplicate Status line; later occurrence ignored", cr.ID)
				cr.Ignored = append(cr.Ignored, l)
			} else {
				cr.StatusLine = p.field("Status", j, at)
				p.statusValue15(cr, v)
			}
			continue
		}
		if _, at, ok := labelLine(l, "Evidence"); ok {
			if legacy >= 0 {
				cr.Ignored = append(cr.Ignored, t.line(legacy)) // a later Evidence line wins
			}
			legacy, legacyAt, bodyBeforeLegacy = j, at, len(body)
			continue
		}
		body = append(body, l)
	}
	if legacy >= 0 {
		if cr.StatusLine != nil {
			p.warn(diag.CriterionStatusAndEvidence, t.lineSpan(legacy), cr.ID, "%s: both Status and legacy Evidence lines found; Status wins", cr.ID)
			cr.Ignored = append(cr.Ignored, t.line(legacy))
		} else {
			cr.StatusLine, cr.Legacy = p.field("Evidence", legacy, legacyAt), true
			raw := t.line(legacy)[legacyAt:]
			if rest := p.joinRest(legacy+1, cr.end); rest != "" {
				raw += "\n" + rest
			}
			p.legacyValue15(cr, raw)
			body = body[:bodyBeforeLegacy]
		}
	}
	if cr.StatusLine == nil {
		p.warn(diag.CriterionStatusMissing, cr.HeadingSpan, cr.ID, "%s: missing Status line; treating as pending", cr.ID)
		cr.Status, cr.Note = StatusPending, ""
	}
	cr.Body = jsTrim(strings.Join(body, "\n"))
}

func (p *fiParser) statusValue15(cr *Criterion, raw string) {
	if s, note, ok := p.statusOf(cr, raw, StatusLineTokens,
		"%s: Status is \"pass\" with an empty note; completion requires evidence saying what was observed"); ok {
		cr.Status, cr.Note = s, note
		return
	}
	if jsTrim(raw) != "" {
		p.warn(diag.CriterionStatusUnknown, cr.StatusLine.ValueSpan, cr.ID,
			"%s: Status line must start with pending, in-progress, blocked, pass, or fail (got \"%s\"); treating as pending", cr.ID, jsSlice40(jsTrim(raw)))
	}
	cr.Status, cr.Note = StatusPending, jsTrim(raw)
}

func (p *fiParser) legacyValue15(cr *Criterion, raw string) {
	s, note, ok := p.statusOf(cr, raw, EvidenceLineTokens,
		"%s: legacy pass evidence has an empty note; completion requires evidence saying what was observed")
	switch {
	case ok:
		cr.Status, cr.Note = s.Current(), note
	case jsTrim(raw) == "":
		cr.Status, cr.Note = StatusPending, ""
	default:
		p.warn(diag.CriterionStatusUnknown, cr.StatusLine.ValueSpan, cr.ID,
			"%s: legacy Evidence line must start with pass, fail, or none (got \"%s\"); treating as pending", cr.ID, jsSlice40(jsTrim(raw)))
		cr.Status, cr.Note = StatusPending, jsTrim(raw)
	}
}

// depends reports dangling and self references, then the first cycle, as
// upstream's "depends sanity" pass does.
func (p *fiParser) depends() {
	c := p.c
	ids := map[string]*Criterion{}
	for _, cr := range c.Criteria {
		ids[cr.ID] = cr
	}
	for _, cr := range c.Criteria {
		for k, d := range cr.Depends {
			if p.stopped() {
				return
			}
			if ids[d] == nil {
				p.warn(diag.DependsUnknown, cr.DependsSpans[k], cr.ID, "%s: Depends references unknown %s", cr.ID, d)
			}
			if d == cr.ID {
				p.warn(diag.DependsSelf, cr.DependsSpans[k], cr.ID, "%s: Depends references itself", cr.ID)
			}
		}
	}
	p.cycle(ids)
}

// cycle is upstream's detectCycles: a depth-first walk in file order that
// reports the first cycle it meets and stops.
func (p *fiParser) cycle(ids map[string]*Criterion) {
	const visiting, done = 1, 2
	state := map[string]int{}
	// path is the walk's stack, shared: copying it at each step made a
	// long Depends chain cost memory quadratic in its length.
	var path []string
	var visit func(id string) bool
	visit = func(id string) bool {
		switch state[id] {
		case done:
			return false
		case visiting:
			cyc := append(append([]string(nil), path...), id)
			// Point at the edge that closes the cycle: the last criterion's
			// Depends entry naming id.
			from := ids[path[len(path)-1]]
			span := from.DependsLine.LineSpan
			for k, d := range from.Depends {
				if d == id {
					span = from.DependsSpans[k]
				}
			}
			p.warn(diag.DependsCycle, span, from.ID, "dependency cycle: %s", strings.Join(cyc, " -> "))
			return true
		}
		state[id] = visiting
		path = append(path, id)
		for _, d := range ids[id].Depends {
			if ids[d] != nil && visit(d) {
				state[id] = done
				return true
			}
		}
		path = path[:len(path)-1]
		state[id] = done
		return false
	}
	for _, cr := range p.c.Criteria {
		if visit(cr.ID) {
			return
		}
	}
}
