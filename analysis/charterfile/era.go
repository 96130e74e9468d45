package charterfile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Evidence is what a .charters/<id> folder holds that tells which
// generation its charter.md is written for.
type Evidence struct {
	Text   []byte  // charter.md
	State  *State  // state.json as read; nil when there is none
	Events *Events // events.jsonl as read; nil when there is none
}

// Era is the generation a charter.md is read as, and why. Decide makes it;
// the folder (Dir.Era) keeps it, and every reader of the charter (check,
// status, hover, migrate) uses this one decision.
type Era struct {
	Generation Generation
	// Reasons are the evidence that decided, the deciding one first.
	Reasons []Reason
	// Otherwise says what would make it another generation.
	Otherwise string
	// Mismatch: the text is written in the grammar of the other family
	// than state.json declares; it is read as the declaration says, as
	// upstream reads it.
	Mismatch bool
	// Conflicts are evidence for another generation than the one chosen;
	// Check reports each as generation-mismatch.
	Conflicts []Conflict
}

// Reason is one piece of evidence: where it is, and what it says.
type Reason struct {
	File string      // CharterFile, StateFile or EventsFile
	Span source.Span // in File; empty for evidence that is an absence
	Line int         // 1-based line of Span in File; 0 for an absence
	Text string
}

// String is the reason as people read it: "state.json:3: …".
func (r Reason) String() string {
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", r.File, r.Line, r.Text)
	}
	return fmt.Sprintf("%s: %s", r.File, r.Text)
}

// Conflict is evidence that points to another generation than the one
// chosen: reported in File at Span, with the evidence it contradicts.
type Conflict struct {
	File    string
	Span    source.Span
	Message string
	Related []Reason
}

// String is the conflict as people read it: the file, then what it says.
func (c Conflict) String() string { return c.File + ": " + c.Message }

// Strings are the era's reasons as people read them.
func (e Era) Strings() []string { return feature.Strings(e.Reasons) }

// Reading is the era in the shape every family says its reading in.
func (e Era) Reading() *feature.Reading {
	return feature.NewReading(string(e.Generation), e.Generation.Title(), e.Reasons, e.Otherwise, e.Conflicts)
}

// Decide picks the generation charter.md is read as, from everything the
// folder holds (FORMATS.md §1, §2.0):
//
//  1. The family. A valid state.json's schemaVersion decides it, as it
//     decides which code reads the file upstream: "file-interface" (FI14,
//     FI15) or "phases" (PH, OBJ). Without one the text decides: a level-1
//     "# Objective" is the Objective grammar; otherwise criteria (### C<n>.
//     headings, ## Criteria, Status: or Evidence: lines) are the file
//     interface; otherwise the Objective grammar. A text in the other
//     family's grammar than declared is a Mismatch.
//  2. File interface: what the state was written by decides. state.json's
//     criteriaSnapshot is in ADR-0014's shape (evidence {status, note},
//     evidenceSeq: FI14) or ADR-0015's (status {value, note}, statusSeq:
//     FI15; ADR-0015's loader rewrites an old snapshot on its next update);
//     with no snapshot, the field names of the journal's last
//     criterion_changed event (evidence.* or status.*). With neither, the
//     text: a Status: line in a criterion or a ## References section is
//     FI15, Evidence: lines alone FI14, and nothing either way FI15, the
//     newer reading. Status lines under an ADR-0014 state are a conflict.
//  3. Objective grammar: today's pi-charter (ADR-0018, OBJ) unless the file
//     holds a phases section as ADR-0016/0017 reads it (a level-2
//     "## Phases" outside code fences), so a current charter is never read
//     with the phases grammar and never warned about a missing ## Phases:
//     "## Phase 1: discovery" or "### Phases" are notes. A "## Notes"
//     heading inside the Objective as the phases grammar reads it (which
//     would swallow it) is ADR-0018's shape, where the old phases are kept
//     as notes: OBJ, unless the journal holds charter_file_changed events,
//     which only the phases-era pi-charter writes. With a ## Phases section
//     the phases grammar reports nothing today's does not (its Objective
//     holds the Objective-only one), so the file loses no warning to it.
func Decide(ev Evidence) Era { return decide(ev, newText(ev.Text)) }

func decide(ev Evidence, t *text) Era {
	cl := cluesOf(t)
	d := decider{ev: ev, t: t, cl: cl}
	declared := ""
	if st := ev.State; st != nil && st.Valid {
		declared = st.SchemaVersion
		d.reason(StateFile, st.Span("schemaVersion"), fmt.Sprintf("schemaVersion %q: pi-charter reads the file with %s", declared, familyName(declared)))
	} else if st != nil {
		d.reason(StateFile, st.ProblemSpan, "not valid ("+st.Problem+"): the text decides the family")
	} else {
		d.reason(StateFile, source.Span{}, "none: the text decides the family")
	}
	textFamily := SchemaPhases
	if cl.l1Objective < 0 && cl.criteria >= 0 {
		textFamily = SchemaFileInterface
	}
	family := declared
	if family == "" {
		family = textFamily
		if textFamily == SchemaFileInterface {
			d.reason(CharterFile, t.lineContentSpan(cl.criteria), "the criteria grammar (### C<n>. criteria, ## Criteria, Status: or Evidence: lines) without a level-1 # Objective: the file interface")
		} else if cl.l1Objective >= 0 {
			d.reason(CharterFile, t.lineContentSpan(cl.l1Objective), "a level-1 # Objective: the Objective grammar (ADR-0016 on)")
		}
	} else if textFamily != family && (cl.l1Objective >= 0 || cl.criteria >= 0) {
		d.mismatch(declared)
	}
	if family == SchemaFileInterface {
		d.fileInterface()
	} else {
		d.objective()
	}
	return d.era
}

// familyName names the family of a schemaVersion.
func familyName(schema string) string {
	if schema == SchemaFileInterface {
		return "the file-interface grammars (ADR-0014/0015)"
	}
	return "the Objective grammars (ADR-0016 on)"
}

// clues are the lines of charter.md that speak for a generation (stripped
// line indexes, -1 when absent).
type clues struct {
	l1Objective int // the first "# Objective"
	criteria    int // the first criteria grammar: ### C<n>., ## Criteria, Status: or Evidence:
	status      int // the first Status: line inside a criterion block
	evidence    int // the first Evidence: line inside a criterion block
	references  int // the first "## References" (FI15's section)
	phases      int // the first level-2 "## Phases" outside code fences
	phasesLike  int // a heading naming phases in another shape (### Phases, ## Phase 1: …)
	notes       int // a level-2 "## Notes" inside the phases grammar's Objective (with ## Phases)
}

func cluesOf(t *text) clues {
	cl := clues{l1Objective: -1, criteria: -1, status: -1, evidence: -1, references: -1, phases: -1, phasesLike: -1, notes: -1}
	first := func(p *int, i int) {
		if *p < 0 {
			*p = i
		}
	}
	inBlock := false
	for i := 0; i < t.n(); i++ {
		l := t.line(i)
		if _, _, _, _, ok := criterionHeading(l); ok {
			first(&cl.criteria, i)
			inBlock = true
			continue
		}
		if anyHeading(l) {
			inBlock = false
		}
		if lv, s, e, ok := heading(l); ok {
			title := l[s:e]
			switch {
			case lv == 1 && lowerIs(title, "objective"):
				first(&cl.l1Objective, i)
			case lv == 2 && lowerIs(title, "criteria"):
				first(&cl.criteria, i)
			case lv == 2 && lowerIs(title, "references"):
				first(&cl.references, i)
			case lv == 2 && lowerIs(title, "phases") && !t.inFence(i):
				first(&cl.phases, i)
			case lv >= 2 && lv <= 4 && namesPhases(title):
				first(&cl.phasesLike, i)
			}
		}
		for _, lab := range []struct {
			name string
			in   *int
		}{{"Status", &cl.status}, {"Evidence", &cl.evidence}} {
			if labelPrefix(l, lab.name) {
				first(&cl.criteria, i)
				if inBlock {
					first(lab.in, i)
				}
			}
		}
	}
	if cl.phases >= 0 {
		obj := t.section(1, "objective", phTerminators)
		for i := obj.head + 1; obj.Found && i < obj.end; i++ {
			if lv, s, e, ok := heading(t.line(i)); ok && lv == 2 && lowerIs(t.line(i)[s:e], "notes") {
				cl.notes = i
				break
			}
		}
	}
	return cl
}

type decider struct {
	ev  Evidence
	t   *text
	cl  clues
	era Era
}

func (d *decider) reason(file string, span source.Span, text string) {
	d.era.Reasons = append(d.era.Reasons, d.at(file, span, text))
}

// at is a Reason with its line.
func (d *decider) at(file string, span source.Span, text string) Reason {
	r := Reason{File: file, Span: span, Text: text}
	switch {
	case span == (source.Span{}): // an absence
	case file == CharterFile:
		r.Line = bytes.Count(d.ev.Text[:min(span.Start, len(d.ev.Text))], []byte("\n")) + 1
	case file == StateFile && d.ev.State != nil:
		r.Line = d.ev.State.line(span.Start)
	}
	return r
}

// eventReason is a reason about event e of the journal.
func (d *decider) eventReason(e *Event, text string) Reason {
	return Reason{File: EventsFile, Span: e.Span, Text: text, Line: e.Line + 1}
}

// lineReason is a reason about stripped line i of charter.md.
func (d *decider) lineReason(i int, text string) Reason {
	return d.at(CharterFile, d.t.lineContentSpan(i), text)
}

func (d *decider) mismatch(declared string) {
	d.era.Mismatch = true
	marker := d.cl.criteria
	msg := fmt.Sprintf("state.json declares schemaVersion %q, but this file is written in the file-interface grammar (## Objective, ### C<n>. criteria): upstream reads it as an Objective-only charter, so the Objective is missing and the criteria are notes (`charter-lsp migrate` rewrites it)", declared)
	if declared == SchemaFileInterface {
		marker = d.cl.l1Objective
		msg = fmt.Sprintf("state.json declares schemaVersion %q, but this file is written in the Objective grammar (# Objective, ADR-0016 and later): upstream treats a file-interface charter as read-only history, shows state.json's objective and reads none of this file; start a new charter instead (`charter-lsp migrate`)", declared)
	}
	st := d.ev.State
	d.era.Conflicts = append(d.era.Conflicts, Conflict{File: CharterFile, Span: d.t.lineContentSpan(marker), Message: msg,
		Related: []Reason{d.at(StateFile, st.Span("schemaVersion"), "the declared schema version")}})
}

// fileInterface decides between ADR-0014 and ADR-0015.
func (d *decider) fileInterface() {
	cl := d.cl
	side, sideReason := d.sidecarFI()
	var text Generation
	var textReason Reason
	switch {
	case cl.status >= 0:
		text, textReason = FI15, d.lineReason(cl.status, "a Status: line in a criterion, which ADR-0015 introduced (ADR-0014 reads it as prose)")
	case cl.references >= 0:
		text, textReason = FI15, d.lineReason(cl.references, "## References, a section ADR-0015 introduced")
	case cl.evidence >= 0:
		text, textReason = FI14, d.lineReason(cl.evidence, "Evidence: lines and no Status: line: ADR-0014's criteria")
	}
	switch {
	case side != "":
		d.era.Generation = side
		d.era.Reasons = append(d.era.Reasons, sideReason...)
		if side == FI14 && text == FI15 && cl.status >= 0 {
			d.era.Conflicts = append(d.era.Conflicts, Conflict{File: CharterFile, Span: textReason.Span,
				Message: "this Status: line is read as prose: the charter's state was written by pi-charter ADR-0014, whose criteria take Evidence: lines (pass, fail or none), so the criterion's status is lost there; pi-charter ADR-0015 and later read Status: lines (and rewrite the state's snapshot on their next update)",
				Related: sideReason})
		}
		if side == FI14 {
			d.era.Otherwise = "pi-charter ADR-0015 or later rewrites state.json's snapshot with status/statusSeq on its next update; the file is then read with Status: lines (ADR-0015)"
		} else {
			d.era.Otherwise = "nothing in charter.md: the state was written by pi-charter ADR-0015 or later (an ADR-0014 snapshot, evidence/evidenceSeq, would read it as ADR-0014; its Evidence: lines are read as ADR-0015's legacy alias)"
		}
	case text != "":
		d.era.Generation = text
		d.era.Reasons = append(d.era.Reasons, textReason)
		if text == FI14 {
			d.era.Otherwise = "a Status: line in a criterion, a ## References section, or a state.json snapshot in ADR-0015's shape (status/statusSeq) would read it as ADR-0015"
		} else {
			d.era.Otherwise = "a state.json snapshot in ADR-0014's shape (evidence/evidenceSeq) or journal events with evidence.* fields would read it as ADR-0014"
		}
	default:
		d.era.Generation = FI15
		d.reason(CharterFile, source.Span{}, "neither Status: nor Evidence: lines, and no snapshot or journal field names: the newer file-interface reading (ADR-0015)")
		d.era.Otherwise = "Evidence: lines in the criteria, or a state.json snapshot in ADR-0014's shape (evidence/evidenceSeq), would read it as ADR-0014"
	}
}

// sidecarFI is the file-interface generation the state and the journal
// were written by, with the evidence; "" when they do not say.
func (d *decider) sidecarFI() (Generation, []Reason) {
	var n14, n15 int
	var snap Reason
	if st := d.ev.State; st != nil {
		for _, s := range st.CriteriaSnapshot {
			switch s.Shape {
			case FI14:
				n14++
			case FI15:
				n15++
			}
		}
		snap = d.at(StateFile, st.Span("criteriaSnapshot"), "")
	}
	// The journal's criterion_changed events name the fields they change:
	// evidence.* (ADR-0014) or status.* (ADR-0015).
	var last Generation
	var lastReason Reason
	if ev := d.ev.Events; ev != nil {
		var lastEvent *Event
		var lastField string
		for i := range ev.Parsed {
			e := &ev.Parsed[i]
			if e.Type != "criterion_changed" {
				continue
			}
			field := e.Str("field")
			switch {
			case strings.HasPrefix(field, "evidence."):
				last = FI14
			case strings.HasPrefix(field, "status."):
				last = FI15
			default:
				continue
			}
			lastEvent, lastField = e, field
		}
		// The reason is the last event's, made once: made for each event,
		// each looked its line up among all the events (a journal of 6,000
		// criterion changes cost 36 million comparisons).
		if lastEvent != nil {
			lastReason = d.eventReason(lastEvent, fmt.Sprintf("the last criterion_changed event names field %q, as pi-charter %s writes it", lastField, adr(last)))
		}
	}
	switch {
	case n14 > 0 && n15 > 0:
		snap.Text = fmt.Sprintf("criteriaSnapshot mixes ADR-0014 entries (evidence, evidenceSeq: %d) and ADR-0015 entries (status, statusSeq: %d), which no pi-charter writes together; ADR-0015's loader reads both", n14, n15)
		d.era.Conflicts = append(d.era.Conflicts, Conflict{File: StateFile, Span: snap.Span, Message: "state.json's " + snap.Text + ": read as ADR-0015"})
		return FI15, []Reason{snap}
	case n15 > 0:
		snap.Text = "criteriaSnapshot entries in ADR-0015's shape (status {value, note}, statusSeq): the state was written by pi-charter ADR-0015 or later"
		return FI15, []Reason{snap}
	case n14 > 0:
		snap.Text = "criteriaSnapshot entries in ADR-0014's shape (evidence {status, note}, evidenceSeq): the state was written by pi-charter ADR-0014"
		if last == FI15 {
			// ADR-0015 writes its snapshot with every criterion change:
			// an ADR-0014 state after one was written by ADR-0014 again.
			d.era.Conflicts = append(d.era.Conflicts, Conflict{File: StateFile, Span: snap.Span,
				Message: "state.json's criteriaSnapshot is in ADR-0014's shape, but events.jsonl records ADR-0015 status changes: the state was rewritten by pi-charter ADR-0014 after ADR-0015 used it; read as ADR-0014, the state's writer",
				Related: []Reason{lastReason}})
		}
		return FI14, []Reason{snap}
	case last != "":
		return last, []Reason{lastReason}
	}
	return "", nil
}

// adr names a file-interface generation's ADR.
func adr(g Generation) string {
	if g == FI14 {
		return "ADR-0014"
	}
	return "ADR-0015"
}

// objective decides between the phases grammar and today's Objective-only
// one.
func (d *decider) objective() {
	cl, t := d.cl, d.t
	var fileChanged Reason
	if ev := d.ev.Events; ev != nil {
		for i := range ev.Parsed {
			if e := &ev.Parsed[i]; e.Type == "charter_file_changed" {
				fileChanged = d.eventReason(e, "charter_file_changed events, which only the phases-era pi-charter (ADR-0016/0017) writes; it reads ## Notes as part of the Objective")
				break
			}
		}
	}
	if d.era.Mismatch {
		// The other family's text under "phases": read as today's pi-charter does.
		d.era.Generation = OBJ
		d.era.Otherwise = "a state.json with schemaVersion \"file-interface\" would read the criteria (ADR-0014/0015)"
		return
	}
	switch {
	case cl.phases < 0:
		d.era.Generation = OBJ
		why := "no level-2 ## Phases section: today's Objective-only grammar (ADR-0018)"
		if cl.phasesLike >= 0 {
			why = fmt.Sprintf("no level-2 ## Phases section (%q is not one, and is read as ordinary text): today's Objective-only grammar (ADR-0018)", strings.TrimSpace(strings.TrimSuffix(t.line(cl.phasesLike), "\r")))
		}
		d.reason(CharterFile, source.Span{}, why)
		d.era.Otherwise = "a level-2 `## Phases` heading would read it with the phases grammar (ADR-0016/0017)"
	case cl.notes >= 0 && fileChanged.File == "":
		d.era.Generation = OBJ
		d.era.Reasons = append(d.era.Reasons, d.lineReason(cl.notes, "## Notes, which the phases grammar would read as part of the Objective: ADR-0018's notes, which keep the old ## Phases as notes"))
		d.era.Otherwise = "charter_file_changed events in events.jsonl (written by the phases-era pi-charter), or no ## Notes heading inside the Objective, would read it with the phases grammar (ADR-0016/0017)"
	default:
		d.era.Generation = PH
		d.era.Reasons = append(d.era.Reasons, d.lineReason(cl.phases, "a ## Phases section: the phases grammar (ADR-0016/0017); today's pi-charter (ADR-0018) reads its items as notes"))
		if cl.notes >= 0 {
			d.era.Reasons = append(d.era.Reasons, fileChanged)
		}
		d.era.Otherwise = "without the ## Phases heading the file reads as Objective-only (ADR-0018), as today's pi-charter reads every phases charter"
	}
}

// namesPhases reports whether a heading's text starts with the word
// "phase" or "phases" (Phase plan, Phases, phase 1: …).
func namesPhases(title string) bool {
	if len(title) < 5 || !hasPrefixFold(title, "phase") {
		return false
	}
	rest := title[5:]
	if rest != "" && (rest[0] == 's' || rest[0] == 'S') {
		rest = rest[1:]
	}
	return rest == "" || rest[0] == ' ' || rest[0] == ':' || rest[0] == '\t'
}

// labelPrefix reports whether l starts with "Label:" in any case, whatever
// follows (a CRLF line included).
func labelPrefix(l, label string) bool {
	return len(l) > len(label) && hasPrefixFold(l, label) && l[len(label)] == ':'
}
