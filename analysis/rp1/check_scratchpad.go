package rp1

import (
	"strconv"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// topicHint lists topics the interviewer maps to sections, for messages.
const topicHint = "Problem & Context, Target Users, Value Proposition, Scope or Success Criteria"

func checkScratchPad(ch *Charter, opts Options, f *found) {
	sp := ch.ScratchPad
	checkEntries(sp, opts, f)
	f.add(checkMode(ch)...)
	switch {
	case sp.CutShort:
		d := diag.New(diag.ScratchpadAnswerHeading, sp.CutSpan,
			"This \"## \" line ends the scratch pad for rp1 before its end marker%s; write it as \"####\" or plain text.",
			cutVictim(sp))
		f.add(d)
	case !sp.HasEndMarker:
		d := diag.New(diag.ScratchpadMissingEnd, sp.HeadingSpan,
			"The scratch pad has no <!-- End scratch pad --> marker; add it after the last entry so the interview state has a clear end.")
		f.add(d)
	}
}

// cutVictim names the entry whose answer a stray "## " line cuts off.
func cutVictim(sp *ScratchPad) string {
	if n := len(sp.Entries); n > 0 {
		e := sp.Entries[n-1]
		if e.Number > 0 {
			return ", cutting off the rest of Q" + strconv.Itoa(e.Number)
		}
	}
	return ""
}

func checkEntries(sp *ScratchPad, opts Options, f *found) {
	seen := map[int]*Entry{}
	highest, counted := 0, 0
	next := sp.LastNumber() + 1 // asked once: it reads every entry
	for _, e := range sp.Entries {
		if e.Number == 0 {
			f.addNew(diag.ScratchpadMalformedEntry, e.HeadingSpan,
				"Entry heading is not \"### Q{N}: {Topic}\", so the interviewer cannot number it; rename it like \"### Q%d: %s\".",
				next, topicOr(e.Topic))
			continue
		}
		if e.Malformed() {
			f.addNew(diag.ScratchpadMalformedEntry, e.HeadingSpan,
				"Q%d has none of **Asked**, **Answer** or **Skipped**, so the interviewer skips it; add the question and its answer, or delete the entry.",
				e.Number)
			continue
		}
		counted++
		if counted == opts.QuestionBudget+1 {
			f.addNew(diag.ScratchpadOverBudget, e.HeadingSpan,
				"Q%d is beyond the question budget of %d, so the interviewer would have finished before it; finish the interview or raise questionBudget.",
				e.Number, opts.QuestionBudget)
		}
		if first := seen[e.Number]; first != nil {
			if f.take(diag.ScratchpadDuplicateNumber, e.HeadingSpan) {
				d := diag.New(diag.ScratchpadDuplicateNumber, e.HeadingSpan,
					"Q%d is used twice; renumber this entry Q%d so answers are not confused.", e.Number, highest+1)
				d.Related = []diag.Related{{Span: first.HeadingSpan, Message: "first Q" + strconv.Itoa(e.Number)}}
				f.put(d)
			}
		} else if e.Number < highest {
			f.addNew(diag.ScratchpadOutOfOrder, e.HeadingSpan,
				"Q%d comes after Q%d; number entries in the order asked, since the next question is numbered from the last one.",
				e.Number, highest)
		}
		seen[e.Number] = e
		if e.Number > highest {
			highest = e.Number
		}
		if len(e.Sections()) == 0 && !IsBrainDump(e.Topic) && !IsProjectName(e.Topic) {
			f.addNew(diag.ScratchpadUnknownTopic, e.HeadingSpan,
				"Topic %q maps to no charter section, so its answer covers nothing; name it %s.", e.Topic, topicHint)
		}
		if e.Pending() {
			f.addNew(diag.ScratchpadPending, e.HeadingSpan,
				"Q%d (%s) awaits an answer; write it after **Answer**: and run the interview again.", e.Number, topicOr(e.Topic))
		}
	}
}

// checkMode compares the <!-- Mode: --> comment with the file. CREATE
// starts from an empty charter, so it contradicts a charter with any of the
// five sections written (not EMPTY) outside the scratch pad; UPDATE extends
// an existing charter, so it contradicts one with none written. RESUME is
// always consistent: a scratch pad exists. Any other value is unknown.
func checkMode(ch *Charter) []diag.Diagnostic {
	sp := ch.ScratchPad
	if sp.Mode == "" {
		return nil
	}
	var written []string
	for _, id := range Priority {
		if ch.SectionCompleteness(id) != StatusEmpty {
			written = append(written, string(id))
		}
	}
	var msg string
	switch strings.ToUpper(sp.Mode) {
	case "CREATE":
		if len(written) > 0 {
			msg = "Mode is CREATE but the charter already has written sections (" + strings.Join(written, ", ") +
				"); an interview on an existing charter is UPDATE, so change it to <!-- Mode: UPDATE -->."
		}
	case "UPDATE":
		if len(written) == 0 {
			msg = "Mode is UPDATE but the charter has none of the five sections written; change it to <!-- Mode: CREATE --> so the interview starts with the brain dump."
		}
	case "RESUME":
	default:
		msg = "Mode " + strconv.Quote(sp.Mode) + " is not CREATE, UPDATE or RESUME; rp1 cannot use it, so correct the <!-- Mode: --> comment."
	}
	if msg == "" {
		return nil
	}
	return []diag.Diagnostic{diag.New(diag.ScratchpadModeMismatch, sp.ModeSpan, "%s", msg)}
}

func topicOr(t string) string {
	if t == "" {
		return "Topic"
	}
	return t
}
