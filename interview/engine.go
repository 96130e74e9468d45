package interview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// Modes, as upstream spells them.
const (
	ModeCreate = "CREATE"
	ModeUpdate = "UPDATE"
	ModeResume = "RESUME"
)

// DefaultBudget is upstream's question budget.
const DefaultBudget = 5

// Options are the caller's inputs besides the text.
type Options struct {
	Mode      string    // CREATE, UPDATE or RESUME; "" detects it as upstream does
	Budget    int       // question budget; <= 0 means DefaultBudget
	Now       time.Time // clock for Started, Created and Last Updated
	FinishNow bool      // the user asks to finish early
	// Path, when set, lets Next refuse pi-charter files, which are charters
	// of another kind.
	Path string
}

// state is what Next learns from the charter before deciding.
type state struct {
	ch     *rp1.Charter
	qa     *rp1.QA
	gaps   []rp1.Gap // the seed's three steps per section (rp1.QA.Gaps)
	mode   string
	create bool // Q1 is the Brain Dump (CREATE, or RESUME of a CREATE pad)

	// name is the project's name (the title's, the Brain Dump's or the
	// name question's answer); "" when unknown. titled: the title waits
	// for it. nameAsked: the name question was asked already.
	name              string
	titled, nameAsked bool
	path              string
}

// Next returns the one interview action for a charter's text; exists says
// whether the file exists at all. It never panics and its Response always
// marshals to valid JSON of upstream's shape.
func Next(text []byte, exists bool, opts Options) Response {
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	fail := func(format string, args ...any) Response {
		return Response{Type: TypeError, Message: fmt.Sprintf(format, args...),
			Metadata: Metadata{TotalQuestions: budget, GapsRemaining: []rp1.SectionID{}}}
	}

	mode := strings.ToUpper(strings.TrimSpace(opts.Mode))
	switch mode {
	case "", ModeCreate, ModeUpdate, ModeResume:
	default:
		return fail("Unknown mode %q: use CREATE, UPDATE or RESUME.", opts.Mode)
	}
	if why := notACharter(text, opts.Path); why != "" {
		return fail("Not an rp1 charter: %s.", why)
	}
	if !exists {
		text = nil
	}
	ch := rp1.Parse(text)
	if ch.Format == rp1.FormatSkeleton {
		// rp1 (PR #436 on) keeps no scratch pad in a skeleton charter; one
		// written now would be ignored (legacy-scratch-pad).
		return fail("This charter is in rp1's skeleton format (seven regions, no scratch pad): its interview asks for the first gap region and writes the answer there; use `charter-lsp interview --contract finalizer` (next region: %s).", firstGap(ch))
	}
	if mode == "" {
		mode = DetectMode(ch, exists)
	}
	pad := ch.ScratchPad
	if mode == ModeResume && pad == nil {
		r := fail("Cannot resume: the charter has no ## Scratch Pad. Start an interview in CREATE or UPDATE mode.")
		r.Mode = mode
		return r
	}
	if pad != nil && len(pad.Entries) > 0 && allMalformed(pad.Entries) {
		r := fail("Cannot parse the scratch pad: none of its %d entries has **Asked**, **Answer** or **Skipped**. Manual review required.", len(pad.Entries))
		r.Mode = mode
		return r
	}

	st := analyze(ch, mode, opts.Path)
	r := Response{Mode: mode, Metadata: Metadata{
		QuestionNumber: pad.LastNumber() + 1,
		TotalQuestions: budget,
		GapsRemaining:  st.toAsk(""),
	}}
	spent := len(st.qa.Entries) >= budget

	// An explicit finish wins over a pending question: its empty entry goes
	// with the scratch pad.
	if opts.FinishNow {
		if st.settled(rp1.Problem) && st.settled(rp1.Users) {
			// Early only when the interview would have gone on: with every
			// section covered, or the budget spent, it ends as it would
			// have ended by itself.
			switch {
			case len(st.unwritten()) == 0:
				return st.success(r, msgComplete)
			case spent && pad.PendingEntry() == nil:
				return st.success(r, budgetSpent(budget))
			}
			return st.success(r, "Charter interview finished early at the user's request.")
		}
		r.Type = TypeError
		r.Message = "Cannot finish yet: the problem and the target users must be covered first."
		return r
	}
	if p := pad.PendingEntry(); p != nil {
		r.Type = TypeNextQuestion
		r.NextQuestion = p.Asked
		r.Pending = p
		r.Topic = p.Topic
		r.Section = firstOf(p.Sections())
		r.Metadata.QuestionNumber = p.Number
		// gaps_remaining[0] is the gap this question is about: rp1's
		// caller labels the entry it writes from it.
		r.Metadata.GapsRemaining = st.toAsk(r.Section)
		r.Message = fmt.Sprintf("Q%d (%s) is awaiting an answer: write it after **Answer**: and run the interview again.", p.Number, p.Topic)
		return r
	}
	toAsk := st.toAsk("")
	needName := st.titled && st.name == "" && !st.nameAsked
	switch {
	case len(toAsk) == 0 && (!needName || spent):
		if len(st.unwritten()) == 0 {
			return st.success(r, msgComplete)
		}
		return st.success(r, "Charter interview complete: every remaining gap was already asked.")
	case spent:
		return st.success(r, budgetSpent(budget))
	case st.create && len(st.qa.Entries) == 0:
		r.Type = TypeNextQuestion
		r.NextQuestion = BrainDumpQuestion
		r.Topic = BrainDumpTopic
		return r
	case len(toAsk) == 0:
		// Every section is covered but the title still waits for the
		// project's name: one question, inside the budget.
		r.Type = TypeNextQuestion
		r.NextQuestion = ProjectNameQuestion
		r.Topic = rp1.ProjectNameTopic
		return r
	}
	id := toAsk[0]
	r.Section, r.Topic = id, Topics[id]
	if e := st.gap(id).AddressedBy; e != nil {
		r.Type = TypeSkip
		r.CoveredBy = e
		r.Metadata.GapsRemaining = toAsk[1:]
		r.Message = skipMessage(id, e)
		return r
	}
	r.Type = TypeNextQuestion
	r.NextQuestion = Question(id, st.questionContext())
	return r
}

// skipMessage says which earlier answer covers section id, as the seed
// words it: "Value proposition already covered in brain dump response."
func skipMessage(id rp1.SectionID, e *rp1.Entry) string {
	if rp1.IsBrainDump(e.Topic) {
		return sectionName[id] + " already covered in brain dump response."
	}
	return fmt.Sprintf("%s already covered in Q%d (%s).", sectionName[id], e.Number, e.Topic)
}

// msgComplete ends an interview that covered every section.
const msgComplete = "Charter interview complete. All required sections covered."

func budgetSpent(budget int) string {
	return fmt.Sprintf("Charter interview complete: the question budget (%d) is spent.", budget)
}

// sectionName is how messages name a section.
var sectionName = map[rp1.SectionID]string{
	rp1.Problem:   "Problem & context",
	rp1.Users:     "Target users",
	rp1.ValueProp: "Value proposition",
	rp1.Scope:     "Scope",
	rp1.Success:   "Success criteria",
}

// DetectMode is upstream's detection: no file or an empty one → CREATE; a
// scratch pad → RESUME; otherwise UPDATE.
func DetectMode(ch *rp1.Charter, exists bool) string {
	switch {
	case !exists || len(bytes.TrimSpace(ch.Index.Source())) == 0:
		return ModeCreate
	case ch.ScratchPad != nil:
		return ModeResume
	}
	return ModeUpdate
}

// notACharter says why text cannot be an rp1 charter, or "". We refuse only
// what cannot be markdown at all (binary, not UTF-8, a JSON document) and the
// files of pi-charter; any other markdown, even a charter.md another tool
// wrote, may take an interview (UPDATE appends a scratch pad to it).
func notACharter(text []byte, path string) string {
	switch {
	case bytes.IndexByte(text, 0) >= 0:
		return "the file holds binary data (NUL bytes)"
	case !utf8.Valid(text):
		return "the file is not UTF-8 text"
	}
	if t := bytes.TrimSpace(text); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		return "the file is a JSON document"
	}
	if path != "" {
		switch analysis.Classify(path, text) {
		case analysis.KindPiCharter, analysis.KindCriteria, analysis.KindReport, analysis.KindState,
			analysis.KindCriterionState, analysis.KindEvidence, analysis.KindConfig,
			analysis.KindChartersCharter, analysis.KindChartersState, analysis.KindChartersEvents:
			return "it is a pi-charter or configuration file, not an rp1 charter.md"
		}
	}
	return ""
}

func firstGap(ch *rp1.Charter) string {
	if g := ch.Skeleton.Gaps(); len(g) > 0 {
		return string(g[0])
	}
	return "none, every region is written"
}

func allMalformed(es []*rp1.Entry) bool {
	for _, e := range es {
		if !e.Malformed() {
			return false
		}
	}
	return true
}

func firstOf(ids []rp1.SectionID) rp1.SectionID {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// analyze reads the charter's gaps, the scratch pad's answers and the
// project's name.
func analyze(ch *rp1.Charter, mode, path string) *state {
	qa := ch.QA()
	st := &state{ch: ch, qa: qa, gaps: qa.Gaps(), mode: mode, path: path}
	st.create = mode == ModeCreate
	if mode == ModeResume && ch.ScratchPad != nil {
		padMode := strings.ToUpper(strings.TrimSpace(ch.ScratchPad.Mode))
		st.create = padMode == ModeCreate || (padMode != ModeUpdate && allEmpty(ch))
	}
	st.name, st.titled = ch.ProjectName()
	if st.name == "" {
		if bd := ch.BrainDump(); bd != nil {
			st.name = rp1.NameIn(bd.Answer)
		}
	}
	for _, e := range qa.Entries {
		if !rp1.IsProjectName(e.Topic) {
			continue
		}
		st.nameAsked = true
		if st.name == "" && e.Number != 0 && e.Answered() {
			st.name = rp1.NameFromAnswer(e.Answer)
		}
	}
	return st
}

func (st *state) gap(id rp1.SectionID) rp1.Gap {
	for _, g := range st.gaps {
		if g.Section == id {
			return g
		}
	}
	return rp1.Gap{Section: id}
}

// unwritten lists the sections finishing now would leave unwritten
// (gaps_remaining of a success response): GAP (Step 3), and no earlier
// answer addresses them either, whether asked or not.
func (st *state) unwritten() []rp1.SectionID {
	out := []rp1.SectionID{}
	for _, g := range st.gaps {
		if g.Status == rp1.GapOpen && g.AddressedBy == nil {
			out = append(out, g.Section)
		}
	}
	return out
}

// toAsk lists the GAP sections (Step 3) not asked about yet, in priority
// order, with first (the gap a repeated pending question is about) in
// front: gaps_remaining of a question, whose first element rp1's caller
// takes as the topic of the entry it writes (rp1
// plugins/dev/commands/blueprint.md@8b1ef55,
// "map_gap_to_topic(metadata.gaps_remaining[0])"). A section already asked
// (answered, skipped or pending) is not listed: it is never asked again.
func (st *state) toAsk(first rp1.SectionID) []rp1.SectionID {
	out := []rp1.SectionID{}
	if first != "" {
		out = append(out, first)
	}
	for _, g := range st.gaps {
		if g.Section != first && g.Status == rp1.GapOpen && g.AskedBy == nil {
			out = append(out, g.Section)
		}
	}
	return out
}

// settled: finishing now writes the section (it is filled, covered or
// addressed).
func (st *state) settled(id rp1.SectionID) bool {
	return !slices.Contains(st.unwritten(), id)
}

func allEmpty(ch *rp1.Charter) bool {
	for _, id := range rp1.Priority {
		if ch.SectionCompleteness(id) != rp1.StatusEmpty {
			return false
		}
	}
	return true
}

func (st *state) success(r Response, msg string) Response {
	r.Type = TypeSuccess
	r.Message = msg
	r.CharterComplete = true
	r.Metadata.GapsRemaining = st.unwritten()
	r.CharterContent, r.Keep = st.synthesize()
	r.Title = st.title()
	if len(r.Metadata.GapsRemaining) > 0 {
		names := make([]string, len(r.Metadata.GapsRemaining))
		for i, id := range r.Metadata.GapsRemaining {
			names[i] = string(id)
		}
		r.Message += " Still gaps: " + strings.Join(names, ", ") + "."
	}
	return r
}

// title is the name a finished charter's placeholder title takes ("" when
// the title is not a placeholder): the project's name, else, as rp1's
// template names a new charter, the folder holding .rp1/.
func (st *state) title() string {
	if !st.titled {
		return ""
	}
	if st.name != "" {
		return st.name
	}
	return projectFolder(st.path)
}

// TitleFor is the title a charter finished now takes (Response.Title of a
// success): for an interview agent's success, whose contract has no field
// for it, the name is read as the built-in engine reads it.
func TitleFor(text []byte, path string) string {
	return analyze(rp1.Parse(text), "", path).title()
}

// questionContext is what a question may reference per section: what the
// answers say about it, else the section's own text in the charter (in
// UPDATE the users and problem are often already written).
func (st *state) questionContext() map[rp1.SectionID][]string {
	ctx := map[rp1.SectionID][]string{}
	src := st.ch.Index.Source()
	for _, id := range rp1.Priority {
		if said := st.qa.Said(id); len(said) > 0 {
			for _, s := range said {
				ctx[id] = append(ctx[id], s.Text)
			}
			continue
		}
		if sec := st.ch.Section(id); sec != nil && sec.Status != rp1.StatusEmpty {
			ctx[id] = []string{string(src[sec.BodySpan.Start:sec.BodySpan.End])}
		}
	}
	return ctx
}
