package charterfile

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// --- the Objective heading ---------------------------------------------

var (
	atxObjective  = regexp.MustCompile(`(?i)^([ \t]*)(#{1,6})([ \t]*)objective([ \t]*)(:|\.|#+)?[ \t]*$`)
	boldObjective = regexp.MustCompile(`(?i)^\*\*objective:?\*\*:?[ \t]*$`)
	setextText    = regexp.MustCompile(`(?i)^[ \t]{0,3}objective[ \t]*:?[ \t]*$`)
	setextRule    = regexp.MustCompile(`^[ \t]{0,3}(=+|-+)[ \t]*$`)
)

// objectiveHeadingShapes finds Objective headings upstream does not see
// when it reports the Objective missing.
func (k *checker) objectiveHeadingShapes() {
	t, c := k.t, k.c
	if c.Objective.Found {
		return
	}
	want, level := "# Objective", 1
	if c.Generation.FileInterface() {
		want, level = "## Objective", 2
	}
	type candidate struct {
		span source.Span
		why  string
	}
	var found []candidate
	for i := 0; i < t.n(); i++ {
		if t.inFence(i) {
			continue
		}
		l := strings.TrimSuffix(t.line(i), "\r")
		bom := false
		if i == 0 && strings.HasPrefix(l, "\uFEFF") {
			l, bom = l[len("\uFEFF"):], true
		}
		switch m := atxObjective.FindStringSubmatch(l); {
		case m != nil:
			var why []string
			if bom {
				why = append(why, "the file starts with a byte order mark, which upstream keeps as part of the first line")
			}
			if m[1] != "" {
				why = append(why, "it is indented")
			}
			if len(m[2]) != level {
				why = append(why, fmt.Sprintf("it is a level-%d heading", len(m[2])))
			}
			if m[3] == "" {
				why = append(why, fmt.Sprintf("there is no space after %s", m[2]))
			}
			if m[5] != "" {
				why = append(why, fmt.Sprintf("%q follows the word", m[5]))
			}
			if len(why) > 0 {
				found = append(found, candidate{t.lineContentSpan(i), strings.Join(why, ", ")})
			}
		case boldObjective.MatchString(l):
			found = append(found, candidate{t.lineContentSpan(i), "it is bold text, not a heading"})
		case setextText.MatchString(l) && i+1 < t.n() && setextRule.MatchString(strings.TrimSuffix(t.line(i+1), "\r")):
			sp := t.lineContentSpan(i)
			sp.End = t.lineContentSpan(i + 1).End
			found = append(found, candidate{sp, "it is a setext heading (underlined), which upstream does not read"})
		}
	}
	if len(found) == 0 {
		return
	}
	quoted := k.replace(diag.ObjectiveMissing, "")
	for n, f := range found {
		var fix *diag.Fix
		if n == 0 {
			fix = edit("Rewrite as `"+want+"`", f.span, want)
		}
		k.add(diag.ObjectiveHeadingShape, f.span, fix,
			"upstream reads the Objective from a `%s` line and does not see this one: %s; it reports %q", want, f.why, quoted)
	}
}

// --- duplicate sections ----------------------------------------------

func (k *checker) duplicateSections() {
	t, c := k.t, k.c
	seen := map[string][]int{}
	var order []string
	names := []string{"objective", "references", "scope", "phases"}
	for i := 0; i < t.n(); i++ {
		if t.inFence(i) {
			continue // reserved-heading-in-fence says what a fenced heading does
		}
		l := t.line(i)
		var title string
		lv := 0
		if c.Generation.FileInterface() {
			s, e, ok := level2(l)
			if !ok {
				continue
			}
			lv, title = 2, l[s:e]
		} else {
			v, s, e, ok := heading(l)
			if !ok {
				continue
			}
			lv, title = v, l[s:e]
		}
		for _, name := range names {
			wantLevel := 2
			if name == "objective" && !c.Generation.FileInterface() {
				wantLevel = 1
			}
			if lv == wantLevel && lowerIs(title, name) {
				if seen[name] == nil {
					order = append(order, name)
				}
				seen[name] = append(seen[name], i)
			}
		}
	}
	for _, name := range order {
		ls := seen[name]
		if len(ls) < 2 {
			continue
		}
		read := map[Generation]map[string]bool{
			FI14: {"objective": true},
			FI15: {"objective": true, "references": true, "scope": true},
			PH:   {"objective": true, "references": true, "scope": true, "phases": true},
			OBJ:  {"objective": true, "references": true, "scope": true},
		}[c.Generation]
		if !read[name] {
			continue
		}
		keep := ls[0]
		if c.Generation == FI14 {
			keep = ls[len(ls)-1] // ADR-0014 keeps the last Objective
		}
		heading := t.lineContentSpan(keep)
		for _, i := range ls {
			if i == keep {
				continue
			}
			what := "upstream reads the first one and ignores this one"
			switch {
			case c.Generation == FI14:
				what = "ADR-0014 reads the last one; this one is ignored"
			case c.Generation == OBJ:
				what = "upstream reads the first one; this one and its text become notes"
			}
			code := diag.DuplicateSection
			if name == "objective" {
				code = diag.DuplicateObjective
			}
			d := k.add(code, t.lineContentSpan(i), nil, "a second %q heading: %s", strings.TrimSpace(strings.TrimSuffix(t.line(i), "\r")), what)
			d.Related = []diag.Related{{Span: heading, Message: "the one upstream reads"}}
		}
	}
}

// --- headings inside code fences -----------------------------------------

func (k *checker) headingsInFences() {
	t, c := k.t, k.c
	sections := []struct {
		name string
		s    Section
	}{{"Objective", c.Objective}, {"References", c.References}, {"Scope", c.Scope}, {"Phases", c.PhasesSection}}
	for _, f := range t.fence {
		last := f.close
		if f.closed {
			last--
		}
		for i := f.open + 1; i <= last; i++ {
			l := t.line(i)
			var effects []string
			if c.Generation.FileInterface() {
				if !anyHeading(l) {
					continue
				}
				if _, _, _, _, ok := criterionHeading(l); ok {
					continue // criterion-outside-criteria says it
				}
				for _, cr := range c.Criteria {
					if cr.end != i {
						continue
					}
					what := "the rest of the block"
					if cr.StatusLine == nil && k.statusLineAfter(i) {
						what = "the rest of the block, where its Status line is"
						if q := k.replace(diag.CriterionStatusMissing, cr.ID); q != "" {
							what += fmt.Sprintf(" (upstream reports %q)", q)
						}
					}
					effects = append(effects, fmt.Sprintf("ends %s's block, so upstream does not read %s", cr.ID, what))
				}
			} else if _, _, _, ok := heading(l); !ok {
				continue
			}
			for _, s := range sections {
				if !s.s.Found {
					continue
				}
				if s.s.end == i {
					effects = append(effects, fmt.Sprintf("ends the %s section", s.name))
				}
				if s.s.head == i {
					effects = append(effects, fmt.Sprintf("is where upstream reads the %s section from", s.name))
				}
			}
			if len(effects) == 0 {
				continue
			}
			k.add(diag.ReservedHeadingInFence, t.lineContentSpan(i), nil,
				"%q is inside a code fence, but pi-charter's parser knows no fences: it reads this line as a heading, which %s",
				strings.TrimSuffix(l, "\r"), strings.Join(effects, " and "))
		}
	}
}

// statusLineAfter reports whether a Status (or Evidence) line follows line
// i before the next criterion heading.
func (k *checker) statusLineAfter(i int) bool {
	t := k.t
	for j := i + 1; j < t.n(); j++ {
		l := t.line(j)
		if _, _, _, _, ok := criterionHeading(l); ok {
			return false
		}
		if labelPrefix(l, "Evidence") || (k.c.Generation != FI14 && labelPrefix(l, "Status")) {
			return true
		}
	}
	return false
}

// --- grammar the generation does not read ---------------------------------

func (k *checker) inertGrammar() {
	t, c := k.t, k.c
	criteria, phases := -1, -1
	for i := 0; i < t.n() && (criteria < 0 || phases < 0); i++ {
		l := t.line(i)
		if _, _, _, _, ok := criterionHeading(l); ok && criteria < 0 {
			criteria = i
		}
		if lv, s, e, ok := heading(l); ok && lv == 2 {
			if lowerIs(l[s:e], "criteria") && criteria < 0 {
				criteria = i
			}
			if lowerIs(l[s:e], "phases") && phases < 0 {
				phases = i
			}
		}
	}
	if criteria >= 0 {
		since := "since ADR-0016 pi-charter reads no criteria"
		if c.Generation == OBJ {
			since = "since ADR-0018 pi-charter reads only the Objective, References and Scope"
		}
		where := "notes"
		if o := c.Objective; o.Found && criteria > o.head && criteria < o.end {
			where = "part of the Objective's text"
		} else if c.Generation == PH {
			where = "text upstream ignores"
		}
		k.add(diag.InertGrammar, t.lineContentSpan(criteria), nil,
			"criteria are inert here: %s, so these criteria and their Status lines are %s and nothing tracks them (`charter-lsp migrate` rewrites them as an Acceptance list and status notes)", since, where)
	}
	if phases >= 0 && c.Generation == OBJ {
		k.add(diag.InertGrammar, t.lineContentSpan(phases), nil,
			"phases are notes since ADR-0018: upstream no longer reads their status; nothing needs migrating")
	}
	if phases >= 0 && c.Generation == PH {
		k.add(diag.InertGrammar, t.lineContentSpan(phases), nil,
			"pi-charter since ADR-0018 (October 2026) shows phases as notes and no longer reads their status; the file stays valid")
	}
}

// --- phases (ADR-0016/0017) -----------------------------------------------

func (k *checker) phases() {
	c := k.c
	if c.Generation != PH {
		return
	}
	k.notesInObjective()
	if !c.PhasesSection.Found {
		return
	}
	for _, ph := range c.Phases {
		k.phaseSuffix(ph)
	}
	k.phaseItemShapes()
	k.phaseBodyBreaks()
}

func (k *checker) notesInObjective() {
	t, o := k.t, k.c.Objective
	if !o.Found {
		return
	}
	for i := o.head + 1; i < o.end; i++ {
		l := t.line(i)
		if lv, s, e, ok := heading(l); ok && lv == 2 && lowerIs(l[s:e], "notes") {
			k.add(diag.NotesInObjective, t.lineContentSpan(i), nil,
				"## Notes does not end the Objective in a phases charter (ADR-0016/0017): upstream reads these notes as part of the Objective")
		}
	}
}

// phaseStatusWords maps what people write after a phase to the status
// upstream knows; blocked has none.
var phaseStatusWords = map[string]PhaseStatus{
	string(PhaseDone): PhaseDone, string(PhaseCurrent): PhaseCurrent, string(PhaseUpcoming): PhaseUpcoming,
	"complete": PhaseDone, "completed": PhaseDone, "finished": PhaseDone, "shipped": PhaseDone, "passed": PhaseDone,
	"in progress": PhaseCurrent, "in-progress": PhaseCurrent, "active": PhaseCurrent, "wip": PhaseCurrent, "doing": PhaseCurrent,
	"ongoing": PhaseCurrent, "started": PhaseCurrent, "now": PhaseCurrent,
	"todo": PhaseUpcoming, "to do": PhaseUpcoming, "pending": PhaseUpcoming, "planned": PhaseUpcoming, "next": PhaseUpcoming,
	"later": PhaseUpcoming, "not started": PhaseUpcoming,
	"blocked": "",
}

func (k *checker) phaseSuffix(ph *Phase) {
	word, before, how := suffixVariant(ph)
	if word == "" {
		return
	}
	var fix *diag.Fix
	status := phaseStatusWords[word]
	if status != "" {
		want := jsTrimEnd(before) + " — " + string(status)
		fix = edit("Rewrite as `"+want+"`", ph.TitleSpan, want).Guess(string(status) != word)
	}
	k.add(diag.PhaseSuffixVariant, ph.TitleSpan, fix,
		"phase %s: upstream reads a status only from a final \" — upcoming|current|done\" (a space, an em dash, the word); here %s, so %q stays in the title and the phase reads as %s (inferred)",
		phaseNumber(ph), how, word, ph.Status)
}

// suffixVariant finds a status written at the end of a phase's title in a
// shape upstream does not read ("- done", "(done)", "— in progress"): the
// word, the title before it, and how it differs from " — word"; word is ""
// when there is none (or the phase's suffix was read).
func suffixVariant(ph *Phase) (word, before, how string) {
	if ph.Explicit {
		return "", "", ""
	}
	title := ph.Title
	// "(done)" or "[done]" at the end.
	if n := len(title); n > 2 && (title[n-1] == ')' || title[n-1] == ']') {
		open := strings.LastIndexAny(title, "([")
		if open > 0 {
			w := strings.ToLower(strings.TrimSpace(title[open+1 : n-1]))
			if _, ok := phaseStatusWords[w]; ok {
				word, before, how = w, title[:open], "in brackets"
			}
		}
	}
	// A dash separator: the last one whose words after it are a status
	// (status words are short: only the title's end is searched).
	stop := max(0, len(title)-48)
	for i := len(title); word == "" && i > stop; {
		r, size := utf8.DecodeLastRuneInString(title[:i])
		i -= size
		if r != '—' && r != '–' && r != '-' {
			continue
		}
		w := strings.ToLower(jsTrim(title[i+size:]))
		if _, ok := phaseStatusWords[w]; !ok {
			continue
		}
		spaced := i > 0 && isJSSpace(lastRune(title[:i]))
		switch {
		case r == '—' && spaced:
			how = fmt.Sprintf("%q is not upcoming, current or done", w)
		case r == '—':
			how = "there is no space before the em dash"
		case r == '–':
			how = "it uses an en dash (–), not an em dash (—)"
		case spaced || (i > 0 && title[i-1] == '-'):
			how = "it uses a hyphen, not an em dash (—)"
		default:
			continue // "add-on": a hyphen inside a word
		}
		word, before = w, strings.TrimRight(title[:i], "-")
	}
	return word, before, how
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func phaseNumber(ph *Phase) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%f", ph.Number), "0"), ".")
}

var (
	parenItem    = regexp.MustCompile(`^(\d+)\)[ \t]+(\S.*)$`)
	gluedItem    = regexp.MustCompile(`^(\d+)\.([A-Za-z].*)$`)
	indentedItem = regexp.MustCompile(`^([ \t]+)(\d+)[.)][ \t]+\S`)
	bulletItem   = regexp.MustCompile(`^[-*+][ \t]+\S`)
	headingItem  = regexp.MustCompile(`(?i)^#{3,6}[ \t]+(phase[ \t]+)?\d+`)
)

func (k *checker) phaseItemShapes() {
	t, c := k.t, k.c
	sec := c.PhasesSection
	// bodyOf[i] is the phase whose body holds line i.
	bodyOf := map[int]*Phase{}
	for _, ph := range c.Phases {
		for i := ph.line + 1; i < ph.bodyEnd; i++ {
			bodyOf[i] = ph
		}
	}
	for i := sec.head + 1; i < sec.end; i++ {
		if t.inFence(i) {
			continue
		}
		l := strings.TrimSuffix(t.line(i), "\r")
		if _, _, _, ok := phaseItem(t.line(i)); ok {
			continue
		}
		sp := t.lineContentSpan(i)
		switch {
		case parenItem.MatchString(l):
			m := parenItem.FindStringSubmatch(l)
			want := m[1] + ". " + m[2]
			k.add(diag.PhaseItemShape, sp, edit("Rewrite as `"+want+"`", sp, want),
				"%q is not a phase: upstream reads only \"N. Title\" items (a period, not a parenthesis), so it ignores this line", l)
		case gluedItem.MatchString(l):
			m := gluedItem.FindStringSubmatch(l)
			want := m[1] + ". " + m[2]
			k.add(diag.PhaseItemShape, sp, edit("Rewrite as `"+want+"`", sp, want),
				"%q is not a phase: upstream needs a space after the period, so it ignores this line", l)
		case indentedItem.MatchString(l):
			m := indentedItem.FindStringSubmatch(l)
			ph := bodyOf[i]
			if ph != nil && (strings.Contains(m[1], "\t") || len(m[1]) >= 3) {
				continue // a list nested in the phase's body
			}
			what := "ignores it"
			if ph != nil {
				what = fmt.Sprintf("folds it into the body of phase %s", phaseNumber(ph))
			}
			k.add(diag.PhaseItemShape, sp, edit("Remove the indentation", t.at(i, 0, len(m[1])), ""),
				"%q is indented: upstream reads phases only from column 0, so it %s", strings.TrimSpace(l), what)
		case bulletItem.MatchString(l) && bodyOf[i] == nil:
			k.add(diag.PhaseItemShape, sp, nil,
				"%q is a bullet, not a phase: upstream reads only \"N. Title\" items in ## Phases, so it ignores this line", l)
		case headingItem.MatchString(l):
			k.add(diag.PhaseItemShape, sp, nil,
				"%q is a heading, not a phase: upstream reads only \"N. Title\" items in ## Phases, so it ignores this line", l)
		}
	}
}

func (k *checker) phaseBodyBreaks() {
	t, c := k.t, k.c
	end := c.PhasesSection.end
	for _, ph := range c.Phases {
		j := ph.bodyEnd
		if j >= end {
			continue
		}
		if _, _, _, ok := phaseItem(t.line(j)); ok {
			continue
		}
		l := strings.TrimSuffix(t.line(j), "\r")
		if parenItem.MatchString(l) || gluedItem.MatchString(l) || bulletItem.MatchString(l) || headingItem.MatchString(l) {
			continue // phase-item-shape says it
		}
		dropped := 0
		for m := j + 1; m < end; m++ {
			if _, _, _, ok := phaseItem(t.line(m)); ok {
				break
			}
			if startsWithSpace(t.line(m)) && jsTrim(t.line(m)) != "" {
				dropped++
			}
		}
		var fix *diag.Fix
		if !codefence.Opens(l) {
			fix = edit(fmt.Sprintf("Indent the line into phase %s's body", phaseNumber(ph)), t.at(j, 0, 0), "   ")
		}
		msg := fmt.Sprintf("this unindented line ends the body of phase %s: upstream drops it", phaseNumber(ph))
		if dropped > 0 {
			msg += fmt.Sprintf(", and the %d indented line(s) after it", dropped)
		}
		k.add(diag.PhaseBodyBreak, t.lineContentSpan(j), fix, "%s", msg)
	}
}
