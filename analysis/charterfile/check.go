package charterfile

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// CheckCharter returns the diagnostics of a charter.md on its own: upstream's
// parse warnings for its generation, and what upstream reads silently
// (FORMATS.md §3). Where a check knows why upstream warns (a mistyped
// Objective heading, a Status line upstream cannot read, a Depends word
// that is no id), its more specific code replaces upstream's warning and
// its message quotes it, so each problem is reported once.
func CheckCharter(c *Charter) []diag.Diagnostic {
	ds, _ := checkCharter(context.Background(), c, true)
	return ds
}

// checkCharter runs upstream's warnings, and our checks when all is set;
// it stops, returning ctx's error, when ctx is done (looked at between
// checks, each linear in the file).
func checkCharter(ctx context.Context, c *Charter, all bool) ([]diag.Diagnostic, error) {
	k := &checker{c: c, t: c.text, replaced: map[int]bool{}}
	var passes []func()
	if all {
		if c.Generation.FileInterface() {
			passes = append(passes, k.criterionHeadingNearMisses, k.criterionLines, k.noteContinuations,
				k.criteriaOutsideCriteria, k.legacyEvidence, k.depends)
		} else {
			passes = append(passes, k.phases, k.inertGrammar)
		}
		passes = append(passes, k.objectiveHeadingShapes, k.duplicateSections, k.headingsInFences)
	}
	passes = append(passes, k.upstreamWarnings)
	for _, pass := range passes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pass()
	}
	k.out = append(k.out, k.limit.Notes("")...)
	diag.Sort(k.out)
	return k.out, nil
}

type checker struct {
	c   *Charter
	t   *text
	out []diag.Diagnostic
	// replaced marks upstream warnings (by index) that a more specific
	// diagnostic reports; byKey finds them.
	replaced map[int]bool
	byKey    map[warningKey][]int
	// limit keeps at most diag.MaxPerCode diagnostics of a code: a Depends
	// line can name 300,000 words that are no criterion id.
	limit diag.Limiter
	// selfFixes holds each criterion's fix for depending on itself, the
	// same for each time it does.
	selfFixes map[string]*diag.Fix
	// next is, by code and criterion, where replaceExact looks first: a
	// Depends line naming 100,000 unknown ids replaces 100,000 warnings, in
	// the order upstream made them, each found where the last one was
	// rather than by scanning the criterion's warnings from the first.
	next map[warningKey]int
}

func (k *checker) add(code diag.Code, span source.Span, fix *diag.Fix, format string, args ...any) *diag.Diagnostic {
	if !k.limit.Keep("", code, span) {
		return new(diag.Diagnostic) // counted, not kept
	}
	d := diag.New(code, span, format, args...)
	d.Fix = fix
	k.out = append(k.out, d)
	return &k.out[len(k.out)-1]
}

// replace marks upstream's warnings matching code and criterion as reported
// by a more specific diagnostic, and returns the first one's text for that
// diagnostic to quote.
func (k *checker) replace(code diag.Code, criterion string) string {
	text := ""
	for _, i := range k.warnings(code, criterion) {
		if !k.replaced[i] {
			k.replaced[i] = true
			if text == "" {
				text = k.c.Warnings[i].Text
			}
		}
	}
	return text
}

// warnings are the indexes of upstream's warnings of code about criterion.
func (k *checker) warnings(code diag.Code, criterion string) []int {
	if k.byKey == nil {
		k.byKey = map[warningKey][]int{}
		for i, w := range k.c.Warnings {
			key := warningKey{w.Code, w.Criterion}
			k.byKey[key] = append(k.byKey[key], i)
		}
	}
	return k.byKey[warningKey{code, criterion}]
}

type warningKey struct {
	code      diag.Code
	criterion string
}

func (k *checker) upstreamWarnings() {
	for i, w := range k.c.Warnings {
		if k.replaced[i] || !k.limit.Keep("", w.Code, w.Span) {
			continue
		}
		d := diag.New(w.Code, w.Span, "%s", w.Text)
		if w.Code == diag.CriterionStatusUnknown {
			k.statusTokenFix(&d, w)
		}
		switch w.Code {
		case diag.DependsSelf:
			k.dependsSelfFix(&d, w)
		case diag.CriterionStatusMissing:
			k.statusMissingFix(&d, w)
		case diag.CriteriaSectionMissing:
			k.criteriaSectionFix(&d)
		}
		k.out = append(k.out, d)
	}
}

// edit is a one-edit fix.
func edit(title string, span source.Span, newText string) *diag.Fix {
	return &diag.Fix{Title: title, Edits: []diag.Edit{{Span: span, NewText: newText}}}
}

// lineWithBreak is the span of stripped line i including its LF, for
// deleting the line.
func (t *text) lineWithBreak(i int) source.Span {
	sp := t.lineSpan(i)
	if i+1 < t.n() {
		sp.End = t.offset(t.lines[i+1].start)
	}
	return sp
}

// --- criteria ---------------------------------------------------------

// nearMissHeading is a heading that was meant as "### C<n>. Title".
var nearMissHeading = regexp.MustCompile(`^( {0,3})(#{1,6})[ \t]*([Cc])(\d+)[ \t]*([.:)\-–—]?)[ \t]*(.*?)[ \t]*$`)

func (k *checker) criterionHeadingNearMisses() {
	t := k.t
	for i := 0; i < t.n(); i++ {
		l := strings.TrimSuffix(t.line(i), "\r")
		if t.inFence(i) || !strings.HasPrefix(strings.TrimLeft(l, " "), "#") {
			continue
		}
		if _, _, _, _, ok := criterionHeading(t.line(i)); ok {
			continue
		}
		m := nearMissHeading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		indent, hashes, c, num, sep, title := m[1], m[2], m[3], m[4], m[5], m[6]
		var why []string
		if indent != "" {
			why = append(why, "it is indented")
		}
		if hashes != "###" {
			why = append(why, fmt.Sprintf("it is a level-%d heading, not ###", len(hashes)))
		}
		if l[len(indent)+len(hashes)] != ' ' && l[len(indent)+len(hashes)] != '\t' {
			why = append(why, "there is no space after ###")
		}
		if c == "c" {
			why = append(why, "the C is lower-case")
		}
		switch sep {
		case ".":
		case "":
			why = append(why, "the id has no period after it")
		default:
			why = append(why, fmt.Sprintf("the id is followed by %q, not a period", sep))
		}
		if title == "" {
			why = append(why, "there is no title after the id")
		}
		if len(why) == 0 {
			why = append(why, "there is no space between the period and the title")
		}
		id := "C" + num
		msg := fmt.Sprintf("%q is not read as criterion %s: %s; upstream reads criteria from `### C<n>. Title` headings only, so this block and its Status line are ignored",
			strings.TrimSpace(l), id, strings.Join(why, ", "))
		var fix *diag.Fix
		if title != "" {
			want := "### " + id + ". " + title
			fix = edit("Rewrite as `"+want+"`", t.lineContentSpan(i), want)
		}
		k.add(diag.CriterionHeadingNearMiss, t.lineContentSpan(i), fix, "%s", msg)
	}
}

// labelVariant is a Status, Evidence or Depends line in a form upstream
// does not read: indented, a bullet, bold, or a space before the colon.
var labelVariant = regexp.MustCompile(`(?i)^([ \t]*)(?:([-*+])[ \t]+)?(\*\*|__)?(status|evidence|depends)(\*\*|__)?([ \t]*):(\*\*|__)?[ \t]*(.*?)[ \t]*$`)

// labels are the line labels generation g reads.
func labels(g Generation) []string {
	if g == FI14 {
		return []string{"Depends", "Evidence"}
	}
	return []string{"Depends", "Status", "Evidence"}
}

// criterionLines checks the label lines of each block: variants upstream
// reads as prose, and lines a CR keeps from matching.
func (k *checker) criterionLines() {
	t, c := k.t, k.c
	for _, cr := range c.Criteria {
		last := cr.end
		if c.Generation == FI14 && cr.StatusLine != nil {
			last = cr.StatusLine.line // the rest of the block is the Evidence note
		}
		for j := cr.head + 1; j < last; j++ {
			if t.inFence(j) {
				continue
			}
			l := t.line(j)
			trimmed := strings.TrimSuffix(l, "\r")
			for _, label := range labels(c.Generation) {
				if v, _, ok := labelLine(trimmed, label); ok && len(trimmed) < len(l) && jsTrim(v) != "" {
					if _, _, ok := labelLine(l, label); !ok {
						k.crlf(cr, j, label)
					}
				}
			}
			k.labelVariant(cr, j, trimmed)
		}
	}
}

func (k *checker) crlf(cr *Criterion, j int, label string) {
	t := k.t
	quoted := ""
	if label != "Depends" {
		quoted = k.replace(diag.CriterionStatusMissing, cr.ID)
	}
	msg := fmt.Sprintf("%s: this %s: line ends in a carriage return (CRLF line endings); pi-charter splits lines on LF only, so the line does not match and its value is lost", cr.ID, label)
	if quoted != "" {
		msg += fmt.Sprintf(" (upstream reports %q)", quoted)
	} else if label == "Depends" {
		msg += ": the criterion has no dependencies for upstream"
	}
	cr1 := t.lines[j].end - 1
	k.add(diag.CriterionLineCRLF, t.lineContentSpan(j),
		edit("Remove the carriage return", t.span(cr1, cr1+1), ""), "%s", msg)
}

func (k *checker) labelVariant(cr *Criterion, j int, l string) {
	// Most lines are prose: look for a label before running the regexp.
	head := strings.TrimLeft(l, " \t-*+_")
	if !hasPrefixFold(head, "status") && !hasPrefixFold(head, "evidence") && !hasPrefixFold(head, "depends") {
		return
	}
	for _, label := range []string{"Status", "Evidence", "Depends"} {
		if _, _, ok := labelLine(l, label); ok {
			return // a line upstream reads
		}
	}
	m := labelVariant.FindStringSubmatch(l)
	if m == nil {
		return
	}
	indent, bullet, boldOpen, label, boldClose, spaceBefore, boldAfter, value := m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	label = strings.ToUpper(label[:1]) + strings.ToLower(label[1:])
	known := false
	for _, g := range labels(k.c.Generation) {
		known = known || g == label
	}
	if !known {
		return
	}
	if _, _, ok := labelLine(l, label); ok {
		return
	}
	var how []string
	if indent != "" {
		how = append(how, "indented")
	}
	if bullet != "" {
		how = append(how, "as a list item")
	}
	if boldOpen != "" || boldClose != "" || boldAfter != "" {
		how = append(how, "in bold")
	}
	if spaceBefore != "" {
		how = append(how, "with a space before the colon")
	}
	if len(how) == 0 {
		return
	}
	value = strings.TrimSuffix(strings.TrimSuffix(value, "**"), "__")
	want := strings.TrimRight(label+": "+value, " ")
	// Rewriting is the fix unless the block already has the line upstream reads.
	var fix *diag.Fix
	has := false
	switch label {
	case "Depends":
	case "Status":
		has = cr.StatusLine != nil && !cr.Legacy
	case "Evidence":
		has = cr.StatusLine != nil
	}
	if !has {
		fix = edit("Rewrite as `"+want+"`", k.t.lineContentSpan(j), want)
	}
	msg := fmt.Sprintf("%s: this %s line is written %s; upstream reads only `%s: …` at the start of a line, so it is prose", cr.ID, label, strings.Join(how, ", "), label)
	if label != "Depends" && !has {
		if q := k.replace(diag.CriterionStatusMissing, cr.ID); q != "" {
			msg += fmt.Sprintf(" (upstream reports %q)", q)
		}
	}
	if label == "Depends" {
		msg += " and the criterion has no dependencies"
	}
	k.add(diag.CriterionLabelVariant, k.t.lineContentSpan(j), fix, "%s", msg)
}

// noteContinuations: under ADR-0015 a line right after the Status line is
// body, not note; under ADR-0014 a Depends line after Evidence is note.
func (k *checker) noteContinuations() {
	t, c := k.t, k.c
	for _, cr := range c.Criteria {
		sl := cr.StatusLine
		if sl == nil {
			continue
		}
		if c.Generation == FI14 {
			for j := sl.line + 1; j < cr.end; j++ {
				if _, _, ok := labelLine(t.line(j), "Depends"); !ok {
					continue
				}
				var move *diag.Fix
				if whole := t.lineWithBreak(j); j+1 < t.n() { // the last line has no line break to move with it
					move = &diag.Fix{Title: "Move the Depends line above the Evidence line", Edits: []diag.Edit{
						{Span: source.Span{Start: sl.LineSpan.Start, End: sl.LineSpan.Start}, NewText: string(t.src[whole.Start:whole.End])},
						{Span: whole, NewText: ""},
					}}
				}
				k.add(diag.NoteContinuation, t.lineContentSpan(j), move,
					"%s: this Depends line comes after the Evidence line, which takes the rest of the block as its note: the dependency is lost and the line becomes part of the note", cr.ID)
			}
			continue
		}
		if cr.Legacy {
			continue // a legacy Evidence note runs to the end of the block, as in ADR-0014
		}
		j := sl.line + 1
		if j >= cr.end {
			continue
		}
		l := t.line(j)
		if jsTrim(l) == "" || labelPrefix(l, "Depends") || labelPrefix(l, "Status") || labelPrefix(l, "Evidence") || codefence.Opens(l) {
			continue
		}
		k.add(diag.NoteContinuation, t.lineContentSpan(j), nil,
			"%s: this line continues the Status note, but the Status value is one line: upstream reads this line as the criterion's body, not its note", cr.ID)
	}
}

func (k *checker) criteriaOutsideCriteria() {
	t, c := k.t, k.c
	criteriaLine := -1
	for i := 0; i < t.n(); i++ {
		if s, e, ok := level2(t.line(i)); ok && lowerIs(t.line(i)[s:e], "criteria") {
			criteriaLine = i
			break
		}
	}
	for _, cr := range append(append([]*Criterion(nil), c.Criteria...), c.Dropped...) {
		switch {
		case t.inFence(cr.head):
			k.add(diag.CriterionOutsideCriteria, cr.HeadingSpan, nil,
				"%s is inside a code fence, but pi-charter knows no fences: it counts as a live criterion (and needs a Status line)", cr.ID)
		case criteriaLine >= 0 && cr.head < criteriaLine:
			k.add(diag.CriterionOutsideCriteria, cr.HeadingSpan, nil,
				"%s comes before the ## Criteria heading; upstream reads criteria anywhere in the file, so it counts as a live criterion", cr.ID)
		}
	}
}

func (k *checker) legacyEvidence() {
	t, c := k.t, k.c
	if c.Generation != FI15 {
		return
	}
	for _, cr := range c.Criteria {
		if !cr.Legacy {
			continue
		}
		sl := cr.StatusLine
		var fix *diag.Fix
		restEmpty := true
		for j := sl.line + 1; j < cr.end; j++ {
			if jsTrim(t.line(j)) != "" {
				restEmpty = false
			}
		}
		l := t.line(sl.line)
		value := strings.TrimSuffix(l[strings.IndexByte(l, ':')+1:], "\r")
		tok, noteAt, ok := statusValue(jsTrimStart(value))
		valueTrim := jsTrimStart(value)
		if s, known := readToken(tok, EvidenceLineTokens); restEmpty && ok && known {
			want := statusLine(s.Current(), jsTrim(valueTrim[noteAt:]))
			fix = edit("Rewrite as `"+want+"`", t.lineContentSpan(sl.line), want)
		}
		k.add(diag.LegacyEvidenceLine, sl.LineSpan, fix,
			"%s: Evidence: is the legacy form of Status: since ADR-0015 (none reads as pending); upstream still reads it, with every later line of the block as its note", cr.ID)
	}
}

// depends: words that are not ids replace upstream's "unknown" warning.
var criterionID = regexp.MustCompile(`^C\d+$`)

func (k *checker) depends() {
	c := k.c
	known := map[string]bool{}
	for _, cr := range c.Criteria {
		known[cr.ID] = true
	}
	for _, cr := range c.Criteria {
		var fixed []string
		fixable := true
		first := -1
		for i, tok := range cr.Depends {
			if criterionID.MatchString(tok) {
				fixed = append(fixed, tok)
				continue
			}
			if first < 0 {
				first = i
			}
			switch id := strings.ToUpper(strings.Trim(tok, ".,;:()[]{}*`'\"")); {
			case connector(tok):
			case noneWord(tok):
				if len(cr.Depends) > 1 {
					fixable = false
				}
			case criterionID.MatchString(id) && known[id]:
				fixed = append(fixed, id)
			default:
				fixable = false
			}
		}
		if first < 0 {
			continue
		}
		var fix *diag.Fix
		if fixable {
			if len(fixed) == 0 {
				fix = edit("Remove the Depends line", k.t.lineWithBreak(cr.DependsLine.line), "")
			} else {
				want := strings.Join(fixed, ", ")
				fix = edit("Rewrite as `Depends: "+want+"`", k.t.span(k.t.offsetIn(cr.DependsLine), k.t.lines[cr.DependsLine.line].end), want)
			}
		}
		for i, tok := range cr.Depends {
			if criterionID.MatchString(tok) {
				continue
			}
			// Upstream warns "unknown" for every word that is not a known id.
			quoted := fmt.Sprintf("%s: Depends references unknown %s", cr.ID, tok)
			k.replaceExact(diag.DependsUnknown, cr.ID, quoted)
			what := "it is not a criterion id"
			switch id := strings.ToUpper(strings.Trim(tok, ".,;:()[]{}*`'\"")); {
			case criterionID.MatchString(id) && known[id]:
				what = "criterion ids are written " + id
			case connector(tok):
				what = "a connecting word: ids are separated by commas or spaces"
			case noneWord(tok):
				what = "a criterion without dependencies has no Depends line"
			}
			var f *diag.Fix
			if i == first {
				f = fix
			}
			k.add(diag.DependsToken, cr.DependsSpans[i], f, "%s: %q in Depends: is no criterion id (%s); upstream reports %q", cr.ID, tok, what, quoted)
		}
	}
}

// offsetIn is the stripped offset where f's value starts.
func (t *text) offsetIn(f *Field) int {
	_, at, _ := labelLine(t.line(f.line), f.Label)
	return t.lines[f.line].start + at
}

// replaceExact marks the first warning of code about criterion whose text
// is text, if one is left, as reported by a more specific diagnostic.
func (k *checker) replaceExact(code diag.Code, criterion, text string) {
	if k.next == nil {
		k.next = map[warningKey]int{}
	}
	key := warningKey{code, criterion}
	ws := k.warnings(code, criterion)
	// Asked in the order of the warnings (depends asks for each word the
	// order upstream warned about it), the one wanted is at or after the
	// last one found; the words not asked about are passed once.
	for j := k.next[key]; j < len(ws); j++ {
		if i := ws[j]; !k.replaced[i] && k.c.Warnings[i].Text == text {
			k.replaced[i], k.next[key] = true, j+1
			return
		}
	}
	for _, i := range ws {
		if !k.replaced[i] && k.c.Warnings[i].Text == text {
			k.replaced[i] = true
			return
		}
	}
}

func connector(tok string) bool {
	switch strings.ToLower(tok) {
	case "and", "or", "&", "+", "plus":
		return true
	}
	return false
}

func noneWord(tok string) bool {
	switch strings.ToLower(strings.Trim(tok, ".()")) {
	case "none", "n/a", "na", "-", "—", "–", "nothing", "nil", "null":
		return true
	}
	return false
}

// dependsSelfFix removes the criterion's own id from its Depends line.
func (k *checker) dependsSelfFix(d *diag.Diagnostic, w Warning) {
	if f, ok := k.selfFixes[w.Criterion]; ok {
		d.Fix = f
		return
	}
	if k.selfFixes == nil {
		k.selfFixes = map[string]*diag.Fix{}
	}
	defer func() { k.selfFixes[w.Criterion] = d.Fix }()
	cr := k.c.Criterion(w.Criterion)
	if cr == nil || cr.DependsLine == nil {
		return
	}
	var rest []string
	for _, dep := range cr.Depends {
		if dep != cr.ID {
			rest = append(rest, dep)
		}
	}
	if len(rest) == 0 {
		d.Fix = edit("Remove the Depends line", k.t.lineWithBreak(cr.DependsLine.line), "")
		return
	}
	want := strings.Join(rest, ", ")
	d.Fix = edit("Rewrite as `Depends: "+want+"`", k.t.span(k.t.offsetIn(cr.DependsLine), k.t.lines[cr.DependsLine.line].end), want)
}

// statusTokenFix offers the nearest valid token for an unknown one.
func (k *checker) statusTokenFix(d *diag.Diagnostic, w Warning) {
	cr := k.c.Criterion(w.Criterion)
	if cr == nil || cr.StatusLine == nil {
		return
	}
	sl := cr.StatusLine
	tokens := StatusTokens(k.c.Generation, sl.Label)
	l := strings.TrimSuffix(k.t.line(sl.line), "\r")
	_, at, _ := labelLine(l, sl.Label)
	value := l[at:]
	repl, n, guessed, ok := nearestStatus(value, tokens)
	if !ok {
		d.Message += fmt.Sprintf("; the tokens are %s", tokenList(tokens))
		return
	}
	d.Message += fmt.Sprintf("; did you mean %q?", strings.TrimSpace(repl))
	d.Fix = edit(fmt.Sprintf("Change to `%s`", strings.TrimSpace(repl)), k.t.at(sl.line, at, at+n), repl).Guess(guessed)
}

// lineBreak is the file's line break (source.LineEnding).
func (t *text) lineBreak() string { return source.LineEnding(t.src) }

// statusMissingFix writes out what upstream assumes: a pending Status line
// (Evidence: none in ADR-0014) after the block's last line of text.
func (k *checker) statusMissingFix(d *diag.Diagnostic, w Warning) {
	cr := k.c.Criterion(w.Criterion)
	if cr == nil {
		return
	}
	t := k.t
	last := cr.head
	for j := cr.head + 1; j < cr.end; j++ {
		if jsTrim(t.line(j)) != "" {
			last = j
		}
	}
	line := "Status: pending"
	if k.c.Generation == FI14 {
		line = "Evidence: none"
	}
	if t.lineBreak() == "\r\n" {
		// In a CRLF file only an empty value is read (as pending, or none).
		line = line[:strings.IndexByte(line, ':')+1]
	}
	at := t.lineContentSpan(last).End
	d.Fix = edit("Add `"+line+"`", source.Span{Start: at, End: at}, t.lineBreak()+line)
}

// criteriaSectionFix adds the ## Criteria heading above the first criterion,
// or at the end of a file without criteria.
func (k *checker) criteriaSectionFix(d *diag.Diagnostic) {
	t, nl := k.t, k.t.lineBreak()
	if len(k.c.Criteria) > 0 {
		at := k.c.Criteria[0].HeadingSpan.Start
		d.Fix = edit("Add `## Criteria` above "+k.c.Criteria[0].ID, source.Span{Start: at, End: at}, "## Criteria"+nl+nl)
		return
	}
	end := len(t.src)
	prefix := nl
	if end == 0 || strings.HasSuffix(string(t.src), "\n") {
		prefix = ""
	}
	if end > 0 {
		prefix += nl
	}
	d.Fix = edit("Add a `## Criteria` heading", source.Span{Start: end, End: end}, prefix+"## Criteria"+nl)
}
