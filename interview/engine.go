package interview

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	mode   string
	create bool // Q1 is the Brain Dump (CREATE, or RESUME of a CREATE pad)

	entries []*rp1.Entry // well-formed entries, in file order
	// asked: the entry that asked about each section (answered, skipped or
	// pending); such a section is never asked again.
	asked map[rp1.SectionID]*rp1.Entry
	// shares: the Brain Dump's sentences per section (rp1.BrainDumpShares).
	shares map[rp1.SectionID][]rp1.Sentence

	// open: sections still GAP once the Q&A counts (rp1's Gaps: an answer
	// about the section, or a Brain Dump that says enough about it).
	open []rp1.SectionID
	// coveredBy: open sections another answer says enough about to write
	// (the reason to skip their question), with what it says.
	coveredBy  map[rp1.SectionID]*rp1.Entry
	coverShare map[rp1.SectionID][]rp1.Sentence
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

	st := analyze(ch, mode)
	r := Response{Mode: mode, Metadata: Metadata{
		QuestionNumber: pad.LastNumber() + 1,
		TotalQuestions: budget,
		GapsRemaining:  st.toAsk(""),
	}}

	// An explicit finish wins over a pending question: its empty entry goes
	// with the scratch pad.
	if opts.FinishNow {
		if st.covered(rp1.Problem) && st.covered(rp1.Users) {
			// Early only when the interview would have gone on: with every
			// section covered, or the budget spent, it ends as it would
			// have ended by itself.
			switch {
			case len(st.remaining()) == 0:
				return st.success(r, msgComplete)
			case len(st.entries) >= budget && pad.PendingEntry() == nil:
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
	if len(st.remaining()) == 0 {
		return st.success(r, msgComplete)
	}
	if len(st.entries) >= budget {
		return st.success(r, budgetSpent(budget))
	}
	if st.create && len(st.entries) == 0 {
		r.Type = TypeNextQuestion
		r.NextQuestion = BrainDumpQuestion
		r.Topic = BrainDumpTopic
		return r
	}
	for _, id := range st.open {
		if st.asked[id] != nil {
			continue // never re-ask
		}
		r.Section, r.Topic = id, Topics[id]
		if e := st.coveredBy[id]; e != nil {
			r.Type = TypeSkip
			r.CoveredBy = e
			r.Message = fmt.Sprintf("%s already covered in Q%d (%s).", sectionName[id], e.Number, e.Topic)
			return r
		}
		r.Type = TypeNextQuestion
		r.NextQuestion = Question(id, st.questionContext())
		return r
	}
	return st.success(r, "Charter interview complete: every remaining gap was already asked.")
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

// analyze reads the charter's gaps and the scratch pad's answers.
func analyze(ch *rp1.Charter, mode string) *state {
	st := &state{
		ch:         ch,
		mode:       mode,
		asked:      map[rp1.SectionID]*rp1.Entry{},
		coveredBy:  map[rp1.SectionID]*rp1.Entry{},
		coverShare: map[rp1.SectionID][]rp1.Sentence{},
	}
	if pad := ch.ScratchPad; pad != nil {
		for _, e := range pad.Entries {
			if e.Malformed() {
				continue
			}
			st.entries = append(st.entries, e)
			for _, id := range e.Sections() {
				if st.asked[id] == nil {
					st.asked[id] = e
				}
			}
		}
	}
	st.create = mode == ModeCreate
	if mode == ModeResume && ch.ScratchPad != nil {
		padMode := strings.ToUpper(strings.TrimSpace(ch.ScratchPad.Mode))
		st.create = padMode == ModeCreate || (padMode != ModeUpdate && allEmpty(ch))
	}
	if bd := ch.BrainDump(); bd != nil {
		st.shares = rp1.BrainDumpShares(bd.Answer, ch.HasOwnAnswer)
	}

	for _, g := range ch.Gaps() {
		if g.Status != rp1.GapOpen {
			continue
		}
		st.open = append(st.open, g.Section)
		if st.asked[g.Section] != nil {
			continue
		}
		if e, share := ch.OtherAnswerCovering(g.Section); e != nil {
			st.coveredBy[g.Section], st.coverShare[g.Section] = e, share
		}
	}
	return st
}

// remaining lists the sections that are still gaps once every answer
// counts (gaps_remaining of a success response): open and not covered by
// another answer, whether asked or not.
func (st *state) remaining() []rp1.SectionID {
	out := []rp1.SectionID{}
	for _, id := range st.open {
		if st.coveredBy[id] == nil {
			out = append(out, id)
		}
	}
	return out
}

// toAsk lists the gaps still to be asked, in priority order, with first (the
// gap a repeated pending question is about) in front: gaps_remaining of a
// question, whose first element rp1's caller takes as the topic of the entry
// it writes (rp1 plugins/dev/commands/blueprint.md@8b1ef55,
// "map_gap_to_topic(metadata.gaps_remaining[0])"). Sections already asked,
// answered or skipped, are not listed: they will not be asked again.
func (st *state) toAsk(first rp1.SectionID) []rp1.SectionID {
	out := []rp1.SectionID{}
	if first != "" {
		out = append(out, first)
	}
	for _, id := range st.open {
		if id != first && st.asked[id] == nil && st.coveredBy[id] == nil {
			out = append(out, id)
		}
	}
	return out
}

// covered: the section is not a gap any more (filled, answered, or addressed).
func (st *state) covered(id rp1.SectionID) bool {
	for _, g := range st.remaining() {
		if g == id {
			return false
		}
	}
	return true
}

func allEmpty(ch *rp1.Charter) bool {
	for _, id := range rp1.Priority {
		if ch.SectionStatus(id) != rp1.StatusEmpty {
			return false
		}
	}
	return true
}

func (st *state) success(r Response, msg string) Response {
	r.Type = TypeSuccess
	r.Message = msg
	r.CharterComplete = true
	r.Metadata.GapsRemaining = st.remaining()
	r.CharterContent, r.Keep = st.synthesize()
	if len(r.Metadata.GapsRemaining) > 0 {
		names := make([]string, len(r.Metadata.GapsRemaining))
		for i, id := range r.Metadata.GapsRemaining {
			names[i] = string(id)
		}
		r.Message += " Still gaps: " + strings.Join(names, ", ") + "."
	}
	return r
}

// questionContext is what a question may reference per section: what the
// answers say about it, else the section's own text in the charter (in
// UPDATE the users and problem are often already written).
func (st *state) questionContext() map[rp1.SectionID][]string {
	ctx := map[rp1.SectionID][]string{}
	src := st.ch.Index.Source()
	for _, id := range rp1.Priority {
		if body := st.answerBody(id); body != "" {
			ctx[id] = []string{body}
			continue
		}
		if sec := st.ch.Section(id); sec != nil && sec.Status != rp1.StatusEmpty {
			ctx[id] = []string{string(src[sec.BodySpan.Start:sec.BodySpan.End])}
		}
	}
	return ctx
}
