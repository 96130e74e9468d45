package pi

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/internal/textdist"
)

func (c *checker) checkCriteria() {
	d := c.d
	cr := d.Criteria
	file := d.CriteriaPath
	if file == "" {
		return
	}
	f := d.File(file)
	src := f.Src
	// The findings that are not a VAL's own are few: they are gathered
	// first, put in the order of the file, and merged with the VALs' as
	// those are placed, so the file's come out of the check in order (its
	// sort finds nothing to move). Their codes are not the VALs', so the
	// limiter keeps what it kept when each kind was added in turn.
	repeats := cr.repeated()
	most := len(repeats) + len(cr.Dropped) + len(c.v.Stale) + 1 // of them
	// Room for the file's findings, made once: a register's are
	// thousands, appended one at a time. The others are gathered at its
	// end, beyond the room for the VALs': the merge writes each finding
	// at or before the next one of them it reads, so no copy is needed.
	n := most
	for _, b := range cr.found {
		n += len(b.ds)
	}
	if cr.wholeFile() {
		for _, v := range cr.Criteria {
			n += len(v.checks)
		}
	}
	c.grow(file, n)
	room := c.lastOut[:cap(c.lastOut)]
	c.gathering = true
	c.gathered = room[len(room)-most : len(room)-most : len(room)]
	// The first of a repeated id is the one upstream reads (Criteria.Lookup,
	// whose index hover, lens and the runs share); the others repeat it.
	for _, i := range repeats {
		v := cr.Criteria[i]
		first := cr.Lookup(v.ID)
		dg := diag.New(diag.DuplicateVALID, v.IDSpan(),
			"%s is already defined on line %d; give this VAL its own id (upstream would report both under one id)",
			v.ID, f.Index.Position(first.IDSpan().Start).Line+1)
		dg.Related = []diag.Related{related(file, first.IDSpan(), "first definition")}
		c.add(file, dg)
	}
	for _, dr := range cr.Dropped {
		id := string(src[dr.IDSpan.Start:dr.IDSpan.End])
		switch dr.Reason {
		case DropInvalidID:
			fix := suggestID(id)
			dg := diag.New(diag.VALIDInvalid, dr.IDSpan,
				"%q is not a valid VAL id (VAL- then upper-case letters, digits and '-'); upstream silently drops this VAL, so write %s", id, fix)
			if fix != "" && fix != id {
				dg.Fix = diag.Replace("Change the id to "+fix, dr.IDSpan, fix)
			}
			c.add(file, dg)
		case DropUnderH1:
			why := "sits under an H1 with no ## milestone heading above it"
			if cr.Mode == ModeCriteriaSection {
				why = "sits outside any ## milestone, and the file's `## Criteria` heading stops upstream's flat fallback"
			}
			c.add(file, diag.New(diag.VALUnderH1, dr.HeadingSpan,
				"%s %s, so upstream drops it; add a `## <milestone>` heading above it", id, why))
		case DropNested:
			c.add(file, diag.New(diag.VALNested, dr.HeadingSpan,
				"%s is inside the body of an ungrouped ## VAL criterion, so upstream does not read it as a criterion; put both under a `## <milestone>` heading as ### VALs", id))
		}
	}
	c.checkStale()
	c.gathering = false
	others := c.gathered
	c.gathered = nil
	diag.Sort(others)

	if cr.wholeFile() {
		// Parsed from the whole file (placed at offset 0, so their
		// checks are in file offsets): located with the others and
		// sorted after.
		for i, v := range cr.Criteria {
			if c.stopped(i) {
				return
			}
			for _, dg := range v.checks {
				c.add(file, dg)
			}
		}
	}
	// The findings of a block's VALs and milestone come located in the
	// block's text (the parse's), which starts a line: placing them is
	// adding where the block is, and its line.
	loc := f.Index.Locator()
	for i, b := range cr.found {
		if c.stopped(i) {
			return
		}
		line := loc.Line(b.at)
		if f.Index.LineStart(line) != b.at {
			line = -1 // not a line start: located with the others
		}
		for k := range b.ds {
			dg := &b.ds[k]
			key := diag.Key{Span: dg.Span.Shift(b.at), Code: dg.Code}
			for len(others) > 0 && diag.CompareKeys(others[0].Key(), key) < 0 {
				c.put(file, others[0])
				others = others[1:]
			}
			if !c.keep(file, dg.Code, key.Span) {
				continue
			}
			c.put(file, *dg)
			if line >= 0 {
				c.lastOut[len(c.lastOut)-1].Place(file, b.at, line)
			} else {
				c.lastOut[len(c.lastOut)-1].Place("", b.at, 0)
			}
		}
	}
	for _, dg := range others {
		c.put(file, dg)
	}
}

// milestoneSizeNote is the milestone-size message of a milestone with n
// VALs, or "" when n is within pi-charter's doctrine.
func milestoneSizeNote(id string, n int) string {
	if n >= 3 && n <= 8 {
		return ""
	}
	todo := "split it"
	if n < 3 {
		todo = "add the missing behaviours or merge it into another milestone"
	}
	return fmt.Sprintf("milestone %s has %s; pi-charter's doctrine is roughly 3–8 behavioural VALs per milestone, so %s", id, feature.Count(n, "VAL"), todo)
}

// criterionDiagnostics checks one VAL; src is the text v's spans index
// (its block's, or the file's), and so are the findings'.
func criterionDiagnostics(src []byte, v *parsedCriterion) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, w := range v.warnings {
		switch w.Reason {
		case "missing-verifier":
			msg := fmt.Sprintf("%s has no Verifier: line, so upstream treats it as manual; add `Verifier: <command|manual|…>`", v.ID)
			for _, f := range v.notParsed {
				if f.Key == KeyVerifier {
					msg = fmt.Sprintf("%s has no Verifier: line upstream can read (the %s one is ignored), so upstream treats it as manual; write `Verifier: %s` on a plain line", v.ID, f.Form, f.Value)
				}
			}
			dg := diag.New(diag.MissingVerifier, v.id, "%s", msg)
			if !hasNotParsed(v, KeyVerifier) { // a bullet Verifier: line has its own fix (field-not-parsed)
				at := lastTextLineEnd(src, v)
				nl := source.LineEndingAt(src, at)
				dg.Fix = diag.Insert("Add `Verifier: manual` and `Because:` lines", at, nl+"Verifier: manual"+nl+"Because: ")
				dg.Fix.NeedsInput = true // the reason is the user's to write
			}
			out = append(out, dg)
		case "missing-because":
			dg := diag.New(diag.MissingBecause, w.Span,
				"%s uses a manual verifier with no reason given; add a line `Because: <why a person checks this>`", v.ID)
			if v.field(KeyBecause) == nil { // an empty Because: line is there: nothing obvious to add
				dg.Fix = diag.Insert("Add a `Because:` line", w.Span.End, source.LineEndingAt(src, w.Span.End)+"Because: ")
				dg.Fix.NeedsInput = true
			}
			out = append(out, dg)
		case "invalid-verifier":
			dg := diag.New(diag.InvalidVerifier, w.Span,
				"%s: %s; upstream degrades the verifier to manual — use command, hook, prompt, manual, subagent (with Agent: and Task:) or evidence-exists (with Kind:)", v.ID, w.Detail)
			if k := closestVerifierKind(v.Verifier); k != "" {
				dg.Fix = diag.Replace("Change the verifier to "+k, w.Span, k)
			}
			out = append(out, dg)
		case "weak-verifier-phrase-coupled":
			out = append(out, diag.New(diag.WeakVerifierPhraseCoupled, w.Span,
				"%s: %s; run a whole test file or glob instead", v.ID, w.Detail))
		}
	}
	if v.Verifier.Kind == VerifierCommand && !hasWarning(v, "weak-verifier-phrase-coupled") {
		if f := v.field(KeyCommand); f != nil {
			if w, weak := WeakTitleFilter(f.Value); weak {
				out = append(out, diag.New(diag.WeakVerifierTitleFilter, f.ValueSpan, "%s: %s; verify the behaviour at package, file or command level", v.ID, w.Reason))
			}
		}
	}
	if dg, ok := looseFreshSince(v); ok {
		out = append(out, dg)
	}
	if v.GreedyID {
		dg := diag.New(diag.VALIDGreedy, v.id,
			"upstream reads the id as %s because the title starts right after it; put a space or ' — ' between the id and the title", v.ID)
		if v.IntendedID != "" {
			dg.Message = fmt.Sprintf("upstream reads the id as %s, swallowing the start of the title; write `%s — %s`",
				v.ID, v.IntendedID, strings.TrimPrefix(string(src[v.id.Start:v.title.End]), v.IntendedID+"-"))
			dg.Fix = diag.Replace("Write the id as "+v.IntendedID+" and the title after it", source.Span{Start: v.id.Start, End: v.title.End},
				v.IntendedID+" — "+strings.TrimPrefix(string(src[v.id.Start:v.title.End]), v.IntendedID+"-"))
		}
		out = append(out, dg)
	}
	for _, f := range v.notParsed {
		dg := diag.New(diag.FieldNotParsed, f.LineSpan,
			"upstream does not read %s fields, so this %s line is ignored; write `%s: %s` on a plain line", f.Form, f.RawKey, strings.TrimSpace(f.RawKey), f.Value)
		r := strings.TrimSpace(f.RawKey) + ": " + f.Value
		dg.Fix = diag.Replace("Rewrite as `"+r+"`", f.LineSpan, r)
		out = append(out, dg)
	}
	// A VAL can hold 100,000 lines of one unknown key: look each key up once.
	closest := map[string]string{}
	for _, f := range v.fields {
		if IsKnownKey(f.Key) {
			continue
		}
		k, ok := closest[f.Key]
		if !ok {
			k = closestKey(f.Key)
			closest[f.Key] = k
		}
		if k != "" {
			dg := diag.New(diag.FieldKeyTypo, f.KeySpan, "unknown field %q looks like a misspelt %q; upstream ignores unknown fields", f.RawKey, k)
			dg.Fix = diag.Replace("Change the key to "+canonicalKey(k), f.KeySpan, canonicalKey(k))
			out = append(out, dg)
		}
	}
	if verb, ok := taskTitle(v.Title); ok && v.Title != v.ID {
		out = append(out, diag.New(diag.VALTitleTask, v.title,
			"%q reads as a task (%s …) rather than a behaviour; state what will be observably true when it is done", v.Title, verb))
	}
	return out
}

// looseFreshSince warns about a FreshSince: value that Node accepts but
// that is not what its author is likely to mean: one read by V8's legacy
// parser, or a day its month does not have.
func looseFreshSince(v *parsedCriterion) (diag.Diagnostic, bool) {
	f := v.field(KeyFreshSince)
	if f == nil || v.Verifier.Kind != VerifierEvidenceExists || v.Verifier.FreshSince == "" {
		return diag.Diagnostic{}, false
	}
	d, ok := ParseJSDate(v.Verifier.FreshSince)
	if !ok || d.ISO && !d.Rolled {
		return diag.Diagnostic{}, false
	}
	t := d.Time()
	iso := t.Format("2006-01-02")
	if t.Hour() != 0 || t.Minute() != 0 || t.Second() != 0 || t.Nanosecond() != 0 {
		iso = t.Format("2006-01-02T15:04:05Z")
	}
	read := iso + " (UTC)"
	if d.Local {
		read = strings.TrimSuffix(iso, "Z") + " in the local time zone of the machine running pi-charter"
	}
	why := "is not an ISO 8601 date, so Node reads it by its lenient legacy rules"
	if d.ISO {
		why = "names a day its month does not have, so Node rolls it over"
	}
	return diag.New(diag.FreshSinceLoose, f.ValueSpan, "%s: FreshSince %q %s, as %s; write %s if that is what you mean",
		v.ID, v.Verifier.FreshSince, why, read, iso), true
}

func hasNotParsed(v *parsedCriterion, key string) bool {
	for _, f := range v.notParsed {
		if f.Key == key {
			return true
		}
	}
	return false
}

// lastTextLineEnd is where lines added to v go: the end of the last
// non-blank line of its body (or of its heading), so fields come after the
// description paragraph, which upstream reads only before any field.
func lastTextLineEnd(src []byte, v *parsedCriterion) int {
	end := v.heading.End
	if v.body.End > v.body.Start {
		for _, l := range splitLines(src, v.body.Start, v.body.End) {
			if t := trimSpan(src, l.span()); t.Len() > 0 {
				end = l.end
			}
		}
	}
	return end
}

func hasWarning(v *parsedCriterion, reason string) bool {
	for _, w := range v.warnings {
		if w.Reason == reason {
			return true
		}
	}
	return false
}

// suggestID upper-cases an id and turns '_' into '-'.
func suggestID(id string) string {
	s := strings.ToUpper(strings.ReplaceAll(id, "_", "-"))
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// canonicalKey is how a known key is usually written.
func canonicalKey(k string) string {
	switch k {
	case KeyFreshSince:
		return "FreshSince"
	case "requirefreshevidence":
		return "RequireFreshEvidence"
	case "requirereviewsubagent":
		return "RequireReviewSubagent"
	}
	words := strings.Fields(k)
	for i, w := range words {
		if i == 0 {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}

// closestKey returns the known key within a small edit distance of key: 1
// for keys of up to 5 letters (task, kind, agent), else 2; "" if none.
func closestKey(key string) string {
	best, bestD := "", 3
	nk := strings.ReplaceAll(key, " ", "")
	// Words further apart in length than the limit are further apart in
	// distance too: most keys need no distance computed.
	n := utf8.RuneCountInString(key)
	near := func(runes int, k string, limit int) bool { return runes-len(k) <= limit && len(k)-runes <= limit }
	for _, k := range KnownKeys {
		limit := 2
		if len(k) <= 5 {
			limit = 1
		}
		if near(n, k, limit) {
			if dist := textdist.Distance(key, k); dist <= limit && dist < bestD {
				best, bestD = k, dist
			}
		}
		if nk != key && near(n-(len(key)-len(nk)), k, limit) {
			if dist := textdist.Distance(nk, k); dist <= limit && dist < bestD {
				best, bestD = k, dist
			}
		}
	}
	return best
}

// taskVerbs open a title that reads as a to-do item, not a behaviour.
var taskVerbs = []string{"implement", "add", "create", "build", "write", "fix", "refactor", "update", "remove",
	"delete", "setup", "set up", "make", "migrate", "integrate", "introduce", "design", "configure", "install",
	"rename", "move", "extract", "clean up", "cleanup", "improve", "enable", "wire", "port", "bump", "upgrade", "todo"}

func taskTitle(title string) (string, bool) {
	t := strings.ToLower(strings.TrimSpace(title))
	for _, v := range taskVerbs {
		if strings.HasPrefix(t, v) && (len(t) == len(v) || t[len(v)] == ' ' || t[len(v)] == ':') {
			return strings.TrimSpace(title)[:len(v)], true
		}
	}
	return "", false
}

// closestVerifierKind returns the verifier kind a misspelt Verifier: value
// most likely meant (commnad → command), or "" when no kind is near.
func closestVerifierKind(v Verifier) string {
	if !v.Degraded || !strings.HasPrefix(v.DegradeReason, "unknown verifier kind") {
		return ""
	}
	raw := strings.ToLower(strings.TrimSpace(v.Raw))
	best, bestD := "", 3
	for _, k := range VerifierNames() {
		limit := 2
		if len(k) <= 5 {
			limit = 1
		}
		if dist := textdist.Distance(raw, k); dist <= limit && dist < bestD {
			best, bestD = k, dist
		}
	}
	return best
}
