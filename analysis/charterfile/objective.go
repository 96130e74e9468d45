package charterfile

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// ParsePhases reads charter.md as the ADR-0016/0017 parser does
// (barisgit/pi-charter src/domain/charter-file.ts@72dd53d8): the first
// "# Objective" runs to the next level-1 heading or a level-2 References,
// Scope or Phases heading; "## References", "## Scope" and "## Phases" run
// to the next heading of level 1 or 2; "N. Title — status" items in
// ## Phases, each with the indented lines after it as its body.
func ParsePhases(src []byte) *Charter { return parsePhases(newText(src)) }

func parsePhases(t *text) *Charter {
	c := &Charter{Generation: PH, text: t}
	c.Objective = t.section(1, "objective", phTerminators)
	c.References = t.section(2, "references", nil)
	c.Scope = t.section(2, "scope", nil)
	c.PhasesSection = t.section(2, "phases", nil)
	c.objectiveWarnings()
	if !c.PhasesSection.Found {
		c.warn(diag.PhasesSectionMissing, source.Span{}, "missing `## Phases` section")
	} else {
		c.Phases = parsePhaseItems(t, c.PhasesSection.head+1, c.PhasesSection.end)
	}
	return c
}

// ParseObjective reads charter.md as the ADR-0018 parser does
// (charter-file.ts@a7780831): the first "# Objective" runs to the next
// level-1 heading or a level-2 References, Scope, Notes or Phases heading;
// the first "## References" and "## Scope" to the next heading of level 1
// or 2; every other line is notes.
func ParseObjective(src []byte) *Charter { return parseObjective(newText(src)) }

func parseObjective(t *text) *Charter {
	c := &Charter{Generation: OBJ, text: t}
	c.Objective = t.section(1, "objective", objTerminators)
	c.References = t.section(2, "references", nil)
	c.Scope = t.section(2, "scope", nil)
	var notes []string
	for i := 0; i < t.n(); i++ {
		claimed := false
		for _, s := range []Section{c.Objective, c.References, c.Scope} {
			if s.Found && i >= s.head && i < s.end {
				claimed = true
			}
		}
		if !claimed {
			notes = append(notes, t.line(i))
		}
	}
	c.Notes = jsTrim(blankRuns.ReplaceAllString(strings.Join(notes, "\n"), "\n\n"))
	c.objectiveWarnings()
	return c
}

// blankRuns is /\n{3,}/g, which the notes projection collapses to "\n\n".
var blankRuns = regexp.MustCompile(`\n{3,}`)

// phTerminators and objTerminators are the level-2 headings that end the
// Objective; other level-2 headings are Objective content.
var (
	phTerminators  = []string{"references", "scope", "phases"}
	objTerminators = []string{"references", "scope", "notes", "phases"}
)

func (c *Charter) warn(code diag.Code, span source.Span, text string) {
	c.Warnings = append(c.Warnings, Warning{Code: code, Text: text, Span: span})
}

func (c *Charter) objectiveWarnings() {
	if !c.Objective.Found {
		c.warn(diag.ObjectiveMissing, source.Span{}, "missing `# Objective` section")
	} else if c.Objective.Text == "" {
		c.warn(diag.ObjectiveEmpty, c.Objective.HeadingSpan, "`# Objective` section is empty")
	}
}

// section is upstream's sectionBody/findSection: the first heading of level
// whose text is name (ignoring case), to the next heading of a level up to
// level, or, for level 1, to a level-2 heading named in terminators.
func (t *text) section(level int, name string, terminators []string) Section {
	for i := 0; i < t.n(); i++ {
		l := t.line(i)
		lv, s, e, ok := heading(l)
		if !ok || lv != level || !lowerIs(l[s:e], name) {
			continue
		}
		end := t.n()
		for j := i + 1; j < t.n(); j++ {
			nl := t.line(j)
			nlv, ns, ne, ok := heading(nl)
			if ok && (nlv <= level || (level == 1 && nlv == 2 && foldIn(nl[ns:ne], terminators))) {
				end = j
				break
			}
		}
		sec := Section{Found: true, HeadingSpan: t.lineSpan(i), TitleSpan: t.at(i, s, e), head: i, end: end}
		sec.BodySpan, sec.Text = t.body(i+1, end)
		return sec
	}
	return Section{}
}

// foldIn reports whether s is one of words, ASCII letters in any case (a
// /^(a|b|c)$/i test).
func foldIn(s string, words []string) bool {
	for _, w := range words {
		if strings.EqualFold(s, w) && len(s) == len(w) {
			return true
		}
	}
	return false
}

// parsePhaseItems reads the items of lines [start, end), as the PH parser's
// loop does, then infers the current phase.
func parsePhaseItems(t *text, start, end int) []*Phase {
	var out []*Phase
	for i := start; i < end; i++ {
		l := t.line(i)
		numEnd, ts, te, ok := phaseItem(l)
		if !ok {
			continue
		}
		raw := l[ts:te]
		ph := &Phase{Status: PhaseUpcoming, ItemSpan: t.lineSpan(i), line: i}
		ph.Number, _ = strconv.ParseFloat(l[:numEnd], 64)
		if at, status, ok := statusSuffix(raw); ok {
			ph.Title = jsTrim(raw[:at])
			ph.Status, ph.Explicit = status, true
			ph.SuffixSpan = t.at(i, ts+at, te)
		} else {
			ph.Title = jsTrim(raw)
		}
		tstart := ts + strings.Index(raw, ph.Title)
		ph.TitleSpan = t.at(i, tstart, tstart+len(ph.Title))
		var body []string
		j := i + 1
		for ; j < end; j++ {
			bl := t.line(j)
			if _, _, _, item := phaseItem(bl); item {
				break
			}
			if startsWithSpace(bl) || jsTrim(bl) == "" {
				body = append(body, stripIndent4(bl))
				continue
			}
			break
		}
		ph.bodyEnd = j
		ph.Body = jsTrim(strings.Join(body, "\n"))
		if ph.Body != "" {
			ph.BodySpan = t.linesSpan(i+1, j)
		}
		out = append(out, ph)
		i = j - 1
	}
	for _, ph := range out {
		if ph.Status == PhaseCurrent {
			return out
		}
	}
	for _, ph := range out {
		if ph.Status != PhaseDone && !ph.Explicit {
			ph.Status = PhaseCurrent
			break
		}
	}
	return out
}

// startsWithSpace is /^\s+/.test(line).
func startsWithSpace(l string) bool { return l != "" && skipSpace(l, 0) > 0 }

// stripIndent4 is line.replace(/^ {1,4}/, "").
func stripIndent4(l string) string {
	n := 0
	for n < 4 && n < len(l) && l[n] == ' ' {
		n++
	}
	return l[n:]
}
