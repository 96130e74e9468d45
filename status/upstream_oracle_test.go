package status_test

// An oracle for how pi-charter v3 reads a charter directory's charter.md and
// criteria.md, written from upstream's code and independent of our parsers:
// it applies upstream's regular expressions (translated to RE2 with
// JavaScript's \s, "." and trim) line by line, the way upstream does.
//
// Every rule cites where it lives in barisgit/pi-charter at commit 16cab0f,
// the last v3 snapshot before ADR-0014 replaced the register:
//
//	charter-md.ts = src/domain/charter-md.ts
//	verifier.ts   = src/domain/verifier.ts
//	store.ts      = src/infrastructure/store.ts
//	service.ts    = src/application/service.ts
//
// docs/pi-charter-reading.md lists the same rules in prose.

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/status"
)

// reading is what upstream's charter_status shows of a register: the
// fields compared between the oracle and `status --format json`.
type reading struct {
	Milestones []rMilestone      `json:"milestones"`
	Criteria   []rCriterion      `json:"criteria"`
	ValTotal   int               `json:"valTotal"`
	Commands   map[string]string `json:"commands"`
	Warnings   []rWarning        `json:"warnings"`
	// Scaffold: criteria.md exists and is the scaffold, so charter.md was read.
	Scaffold bool `json:"scaffold"`
}

type rMilestone struct {
	ID           string   `json:"milestoneId"`
	Title        string   `json:"title"`
	CriterionIDs []string `json:"criterionIds"`
}

type rCriterion struct {
	ID                   string              `json:"id"`
	Title                string              `json:"title"`
	MilestoneID          string              `json:"milestoneId"` // ours: upstream's criteria carry no milestone
	Spec                 status.VerifierSpec `json:"verifierSpec"`
	RequireFreshEvidence bool                `json:"requireFreshEvidence"`
}

type rWarning struct {
	Reason      string `json:"reason"`
	CriterionID string `json:"criterionId,omitempty"`
	File        string `json:"file"` // ours: which file the warning is about
}

// JavaScript's \s (and what trim() removes), "." and \w, as RE2 classes.
const (
	jsSpaces = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`
	jsS      = `[` + jsSpaces + `]`
	jsDot    = `[^\n\r\x{2028}\x{2029}]`
)

var (
	// charter-md.ts:204 — /^#\s+/ (an H1 ends the current H2 section).
	oH1 = regexp.MustCompile(`^#` + jsS + `+`)
	// charter-md.ts:132 and :211 — /^##\s+(.+?)\s*$/.
	oH2 = regexp.MustCompile(`^##` + jsS + `+(` + jsDot + `+?)` + jsS + `*$`)
	// charter-md.ts:235 — /^###\s+(.+?)\s*$/.
	oH3 = regexp.MustCompile(`^###` + jsS + `+(` + jsDot + `+?)` + jsS + `*$`)
	// charter-md.ts:145 — VAL_HEADING_RE = /^VAL-[A-Z0-9-]+/.
	oUngrouped = regexp.MustCompile(`^VAL-[A-Z0-9-]+`)
	// charter-md.ts:258 — /^(VAL-[A-Z0-9-]+)\s*(?:[—-]\s*)?(.*)$/.
	oCriterion = regexp.MustCompile(`^(VAL-[A-Z0-9-]+)` + jsS + `*(?:[—-]` + jsS + `*)?(` + jsDot + `*)$`)
	// charter-md.ts:415 — /^([A-Za-z][A-Za-z ]+):\s*(.*?)\s*$/ on line.trim().
	oField = regexp.MustCompile(`^([A-Za-z][A-Za-z ]+):` + jsS + `*(` + jsDot + `*?)` + jsS + `*$`)
	// charter-md.ts:73 — /^([^:]+):\s*(.*?)\s*$/ on line.trim().
	oCommand = regexp.MustCompile(`^([^:]+):` + jsS + `*(` + jsDot + `*?)` + jsS + `*$`)
	// charter-md.ts:226 and :561 — /\s+/.
	oSpaces = regexp.MustCompile(jsS + `+`)
	// store.ts:30 — /^#{2,3}\s+VAL-[A-Z0-9-]+\b/ (matched at each line start, see oLineStarts).
	oScaffoldVAL = regexp.MustCompile(`^#{2,3}` + jsS + `+VAL-[A-Z0-9-]+\b`)
	// store.ts:31 — /^(?:##|###)\s+VAL-EXAMPLE\b/.
	oScaffoldExample = regexp.MustCompile(`^(?:##|###)` + jsS + `+VAL-EXAMPLE\b`)
)

// jsTrim is String.prototype.trim: white space and line terminators.
func jsTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return strings.ContainsRune("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff", r) || r >= 0x2000 && r <= 0x200a
	})
}

// jsLines is s.split(/\r?\n/).
func jsLines(s string) []string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// jsToLower is toLowerCase for the text the generator writes ('İ' is the one
// character it uses whose JavaScript lower case differs from Go's).
func jsToLower(s string) string { return strings.ToLower(strings.ReplaceAll(s, "İ", "i\u0307")) }

// normalizeHeading, charter-md.ts:561-563.
func oNormalize(s string) string {
	s = jsToLower(jsTrim(s))
	if isASCIIWord(s) {
		return s
	}
	return oSpaces.ReplaceAllString(s, " ")
}

// isASCIIWord: s has no character \s could match (speed only).
func isASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x80 {
			return false
		}
	}
	return true
}

// oLineStarts are the offsets where JavaScript's multiline ^ matches: the
// start and after each \n, \r, U+2028, U+2029.
func oLineStarts(s string) []int {
	out := []int{0}
	for i, r := range s {
		if r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 {
			out = append(out, i+utf8.RuneLen(r))
		}
	}
	return out
}

// oScaffold is isDefaultCriteriaScaffold, store.ts:29-32. A match of the
// first pattern can only start at a line start, and none can start inside
// another (what follows a line start inside one is white space or "VAL-"),
// so counting line starts that match counts String.match's matches.
func oScaffold(s string) bool {
	count, example := 0, false
	for _, p := range oLineStarts(s) {
		if !strings.HasPrefix(s[p:], "##") { // both patterns start so; skip the regexp
			continue
		}
		if oScaffoldVAL.MatchString(s[p:]) {
			count++
		}
		if oScaffoldExample.MatchString(s[p:]) {
			example = true
		}
	}
	return count == 1 && example
}

// Every heading pattern needs a leading '#', every field a letter: testing
// that first keeps the regular expressions off most lines (speed only).
func hashLine(line string) bool { return strings.HasPrefix(line, "#") }

func matchIf(maybe bool, re *regexp.Regexp, s string) []string {
	if !maybe {
		return nil
	}
	return re.FindStringSubmatch(s)
}

// oSection is one H2 section.
type oSection struct {
	heading string
	body    []string
}

// oSplitH2Map is splitH2Sections, charter-md.ts:126-143: a Map from the
// normalized heading to the body; text before the first H2 and after an H2
// whose heading normalizes to "" is dropped; a later section of the same
// name replaces the earlier one. An H1 does not end a section.
func oSplitH2Map(s string) map[string][]string {
	out := map[string][]string{}
	cur, open := "", false
	var body []string
	for _, line := range jsLines(s) {
		if m := matchIf(hashLine(line), oH2, line); m != nil {
			if open && cur != "" {
				out[cur] = body
			}
			cur, open, body = oNormalize(m[1]), true, nil
			continue
		}
		if open && cur != "" {
			body = append(body, line)
		}
	}
	if open && cur != "" {
		out[cur] = body
	}
	return out
}

// oSplitCriteriaH2 is splitCriteriaH2Sections, charter-md.ts:198-222: an
// H1 closes the section and drops what follows up to the next H2; an H2
// whose trimmed text is "" opens nothing.
func oSplitCriteriaH2(lines []string) []oSection {
	var out []oSection
	var cur *oSection
	for _, line := range lines {
		if hashLine(line) && oH1.MatchString(line) {
			if cur != nil {
				out = append(out, *cur)
			}
			cur = nil
			continue
		}
		if m := matchIf(hashLine(line), oH2, line); m != nil {
			if cur != nil {
				out = append(out, *cur)
			}
			cur = nil
			if h := jsTrim(m[1]); h != "" {
				cur = &oSection{heading: h}
			}
			continue
		}
		if cur != nil {
			cur.body = append(cur.body, line)
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

type oCrit struct {
	rCriterion
	warnings []rWarning
}

// oParseLevel3 is parseCriteriaByHeadingLevel(…, 3), charter-md.ts:230-255:
// every ### heading ends the previous body; text before the first is
// dropped; a heading that is blank after trimming or not a VAL yields no
// criterion.
func (o *oracle) oParseLevel3(lines []string, milestone string) []oCrit {
	var out []oCrit
	heading, open := "", false
	var body []string
	flush := func() {
		if open && heading != "" {
			if c, ok := o.criterion(heading, body, milestone); ok {
				out = append(out, c)
			}
		}
	}
	for _, line := range lines {
		if m := matchIf(hashLine(line), oH3, line); m != nil {
			flush()
			heading, open, body = jsTrim(m[1]), true, nil
			continue
		}
		if open {
			body = append(body, line)
		}
	}
	flush()
	return out
}

// oracle reads one charter directory.
type oracle struct {
	// date says whether Node's Date.parse accepts a FreshSince value.
	date func(string) bool
	// weak says whether a Command: value is phrase-coupled
	// (isPhraseCoupledTestCommand, charter-md.ts:309-410).
	weak func(command string) bool
	file string // the file criteria come from, for warnings
}

// criterion is parseCriterion, charter-md.ts:257-300, with parseFields
// (:412-420), parseVerifier (:450-498), parseVerifierKind (:500-516),
// evidenceKindAlias (:518-522), parseBoolean (:528-534) and validateVerifier
// (verifier.ts:68-93).
func (o *oracle) criterion(heading string, body []string, milestone string) (oCrit, bool) {
	m := oCriterion.FindStringSubmatch(heading)
	if m == nil {
		return oCrit{}, false
	}
	id := m[1]
	c := oCrit{rCriterion: rCriterion{ID: id, Title: jsTrim(m[2]), MilestoneID: milestone}}
	if c.Title == "" {
		c.Title = id
	}
	// parseFields: a Map, so the last line of a key wins; keys normalized.
	fields := map[string]string{}
	for _, line := range body {
		l := jsTrim(line)
		if f := matchIf(l != "" && (l[0]|0x20 >= 'a' && l[0]|0x20 <= 'z'), oField, l); f != nil {
			fields[oNormalize(f[1])] = f[2]
		}
	}
	warn := func(reason string) {
		c.warnings = append(c.warnings, rWarning{Reason: reason, CriterionID: id, File: o.file})
	}
	verifierRaw, hasVerifier := fields["verifier"]
	if !hasVerifier {
		warn("missing-verifier") // :264-266
	}
	because := jsTrim(fields["because"])
	if hasVerifier && jsToLower(jsTrim(verifierRaw)) == "manual" && because == "" {
		warn("missing-because") // :271-273
	}
	// parseVerifierKind: trimmed, lower-cased; an unknown kind warns and is manual.
	kind := "manual"
	alias := ""
	if hasVerifier {
		switch k := jsToLower(jsTrim(verifierRaw)); k {
		case "command", "hook", "prompt", "manual", "subagent", "evidence-exists":
			kind = k
		case "review", "qa", "readiness":
			kind, alias = "evidence-exists", k
		default:
			warn("invalid-verifier")
		}
	}
	command, hasCommand := fields["command"]
	spec := status.VerifierSpec{Kind: kind}
	valid := true
	switch kind {
	case "command":
		spec.Command = jsTrim(command)
	case "subagent":
		// agent/task: Type.String() each, so both lines must exist (an
		// empty value is still a string).
		agent, hasAgent := fields["agent"]
		task, hasTask := fields["task"]
		valid = hasAgent && hasTask
		a, t := jsTrim(agent), jsTrim(task)
		spec.Agent, spec.Task = &a, &t
	case "evidence-exists":
		// evidenceKind: fields.get("kind")?.trim() ?? alias — a Kind line,
		// even an empty one, wins over the alias; the literals are
		// case-sensitive. freshSince only when non-blank, then Date.parse.
		ek, hasKind := fields["kind"]
		if hasKind {
			spec.EvidenceKind = jsTrim(ek)
		} else {
			spec.EvidenceKind = alias
		}
		valid = slices.Contains([]string{"review", "qa", "readiness", "command"}, spec.EvidenceKind)
		if fs := jsTrim(fields["freshsince"]); fs != "" {
			spec.FreshSince = fs
			valid = valid && o.date(fs)
		}
	}
	if !valid {
		warn("invalid-verifier") // :496
		spec = status.VerifierSpec{Kind: "manual"}
	}
	c.Spec = spec
	if spec.Kind == "command" && hasCommand && o.weak(command) {
		warn("weak-verifier-phrase-coupled") // :275-281
	}
	// requireFreshEvidence: the first alias present decides (??), and a
	// value that is not a boolean is false (:290-293, :528-534).
	for _, k := range []string{"fresh evidence required", "require fresh evidence", "requirefreshevidence"} {
		if v, ok := fields[k]; ok {
			c.RequireFreshEvidence = slices.Contains([]string{"true", "yes"}, jsToLower(jsTrim(v)))
			break
		}
	}
	return c, true
}

// read is loadParsedCharter (store.ts:16-27) followed by charter_status's
// views (service.ts@16cab0f: computeMilestoneStatusSummaries,
// computeValTotals, loadCharterCommands, loadCharterParseWarnings).
func (o *oracle) read(charter string, criteria *string) reading {
	r := reading{Commands: map[string]string{}, Milestones: []rMilestone{}, Criteria: []rCriterion{}, Warnings: []rWarning{}}
	sections := oSplitH2Map(charter)
	var crits []oCrit
	var milestones []rMilestone
	if criteria != nil && !oScaffold(*criteria) {
		// parseCriteriaMarkdown, charter-md.ts:152-165.
		o.file = "criteria.md"
		lines := jsLines(*criteria)
		for _, s := range oSplitCriteriaH2(lines) { // parseCriteriaWithMilestones, :171-196
			if oUngrouped.MatchString(s.heading) {
				// An ungrouped ## VAL-*: its body is the whole section.
				if c, ok := o.criterion(s.heading, s.body, ""); ok {
					crits = append(crits, c)
				}
				continue
			}
			cs := o.oParseLevel3(s.body, "")
			if len(cs) == 0 {
				continue
			}
			id := oSpaces.Split(s.heading, -1)[0] // milestoneHeadingParts, :224-228
			var ids []string
			for i := range cs {
				cs[i].MilestoneID = id
				ids = append(ids, cs[i].ID)
			}
			crits = append(crits, cs...)
			milestones = append(milestones, rMilestone{ID: id, Title: s.heading, CriterionIDs: ids})
		}
		if len(crits) == 0 {
			milestones = nil
			// :157-159: a "criteria" H2 section is re-split at H2s it
			// cannot contain, so the register is empty; else flat ### VALs.
			if _, ok := oSplitH2Map(*criteria)["criteria"]; !ok {
				crits = o.oParseLevel3(lines, "")
			}
		}
	} else {
		// Legacy (:109-117): charter.md's "criteria" section, flat ### VALs.
		r.Scaffold = criteria != nil
		o.file = "charter.md"
		crits = o.oParseLevel3(sections["criteria"], "")
	}
	for _, c := range crits {
		r.Criteria = append(r.Criteria, c.rCriterion)
		r.Warnings = append(r.Warnings, c.warnings...)
	}
	r.ValTotal = len(crits)
	r.Milestones = milestones
	if len(milestones) == 0 && len(crits) > 0 {
		ids := make([]string, len(crits))
		for i, c := range crits {
			ids[i] = c.ID
		}
		r.Milestones = []rMilestone{{ID: "", Title: "", CriterionIDs: ids}}
	}
	if r.Milestones == nil {
		r.Milestones = []rMilestone{}
	}
	// parseCommands, charter-md.ts:68-92, only when the section exists (:120),
	// after the criteria (:108-120), so its warnings come last.
	if body, ok := sections["commands"]; ok {
		for _, raw := range body {
			line := jsTrim(raw)
			if line == "" || strings.HasPrefix(line, "<!--") {
				continue
			}
			m := oCommand.FindStringSubmatch(line)
			if m == nil {
				r.Warnings = append(r.Warnings, rWarning{Reason: "malformed-command", File: "charter.md"})
				continue
			}
			key, value := jsToLower(jsTrim(m[1])), jsTrim(m[2])
			if key == "" || value == "" {
				r.Warnings = append(r.Warnings, rWarning{Reason: "malformed-command", File: "charter.md"})
				continue
			}
			if _, dup := r.Commands[key]; dup {
				r.Warnings = append(r.Warnings, rWarning{Reason: "duplicate-command", File: "charter.md"})
			}
			r.Commands[key] = value
		}
	}
	return r
}
