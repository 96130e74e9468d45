package rp1

import "context"

// QA is the scratch pad read as the seed's qa_history: the entries the
// interviewer counts, the entry that asked about each section, and what each
// answer says about each section (Said). It is the input of Step 2
// (Coverage) and what finishing writes.
type QA struct {
	ch *Charter
	// Entries are the well-formed entries in file order: the seed's
	// questions_asked (answered, skipped or pending).
	Entries []*Entry

	asked     map[SectionID]*Entry // the first entry about each section
	own       map[SectionID]*Entry // the first usable answer about each section, Brain Dump aside
	brainDump *Entry               // the first usable Brain Dump answer
	said      map[SectionID][]Said
	complete  map[SectionID]bool // COMPLETE in the charter (Step 1), asked once
}

// Said is what one answer says about one section, as markdown to write
// there: the answer whole, or the sentences of it that belong to the
// section.
type Said struct {
	Entry *Entry
	Text  string
}

// QA reads the charter's scratch pad (an empty QA when there is none).
func (ch *Charter) QA() *QA {
	qa, _ := ch.qaContext(context.Background())
	return qa
}

// qaContext is QA that stops, returning ctx's error, when ctx is done while
// it weighs the answers: every sentence of every answer is matched against
// every section's cue words, and an answer can hold 300,000 sentences.
func (ch *Charter) qaContext(ctx context.Context) (*QA, error) {
	qa := &QA{ch: ch, asked: map[SectionID]*Entry{}, own: map[SectionID]*Entry{}, said: map[SectionID][]Said{},
		complete: map[SectionID]bool{}}
	for _, id := range Priority {
		qa.complete[id] = ch.SectionCompleteness(id) == StatusComplete
	}
	if ch.ScratchPad == nil {
		return qa, nil
	}
	var answers []*Entry
	for _, e := range ch.ScratchPad.Entries {
		if e.Malformed() {
			continue
		}
		qa.Entries = append(qa.Entries, e)
		for _, id := range e.Sections() {
			if qa.asked[id] == nil {
				qa.asked[id] = e
			}
		}
		// An entry without a Q number is not read by the interviewer, and
		// an answer that declines ("I don't know") says nothing.
		if e.Number == 0 || !e.Answered() || Declines(e.Answer) {
			continue
		}
		answers = append(answers, e)
		switch {
		case IsBrainDump(e.Topic):
			if qa.brainDump == nil {
				qa.brainDump = e
			}
		default:
			for _, id := range e.Sections() {
				if qa.own[id] == nil {
					qa.own[id] = e
				}
			}
		}
	}
	if err := qa.distribute(ctx, answers); err != nil {
		return nil, err
	}
	return qa, nil
}

// Asked is the first entry about section id (answered, skipped or pending),
// or nil: a section asked about is never asked again.
func (qa *QA) Asked(id SectionID) *Entry { return qa.asked[id] }

// Own is the first usable answer to a question about section id (not the
// Brain Dump), or nil.
func (qa *QA) Own(id SectionID) *Entry { return qa.own[id] }

// Said lists, in scratch-pad order, what the answers say about section id.
func (qa *QA) Said(id SectionID) []Said { return qa.said[id] }

// Coverage is the seed's Step 2 for section id: the answer that covers it,
// or nil. Covered are
//
//   - a section with an answer of its own: an answered entry whose topic
//     names it (SPEC §1), unless the answer declines ("I don't know");
//   - problem and users, the sections the Brain Dump question asks about
//     ("Who is it for? What problem does it solve?"), when the Brain Dump
//     says something about them (the seed's CREATE example: "User mentions
//     problem and users → gaps_remaining = [value_prop, scope, success]");
//   - a section whose question was already settled without an answer of its
//     own (skipped, or declined) by an earlier answer that addresses it:
//     the seed's skip, "Value proposition already covered in brain dump
//     response".
//
// No sentence count applies: one sentence addressing the topic covers it.
func (qa *QA) Coverage(id SectionID) *Entry {
	if e := qa.own[id]; e != nil {
		return e
	}
	if bd := qa.brainDump; bd != nil && (id == Problem || id == Users) && qa.saidBy(id, bd) {
		return bd
	}
	if a := qa.asked[id]; a != nil && !a.Pending() {
		return qa.Addressing(id)
	}
	return nil
}

// Addressing is the first answer about other sections (or the Brain Dump)
// that says something about section id, or nil. Until the section is asked
// about, this is the interview's reason to return skip for it.
func (qa *QA) Addressing(id SectionID) *Entry {
	for _, s := range qa.said[id] {
		if !s.Entry.About(id) {
			return s.Entry
		}
	}
	return nil
}

func (qa *QA) saidBy(id SectionID, e *Entry) bool {
	for _, s := range qa.said[id] {
		if s.Entry == e {
			return true
		}
	}
	return false
}

// open: section id can take sentences from answers about other sections:
// it has no answer of its own and is not COMPLETE in the charter (whose
// text finishing keeps).
func (qa *QA) open(id SectionID) bool {
	return qa.own[id] == nil && !qa.complete[id]
}

// distribute decides what each answer says about each section (share.go):
// the Brain Dump is split by sentence among the sections (BrainDumpShares);
// any other answer stays with the sections its topic names, but for the
// sentences that clearly speak about another open section, which move
// there (AnswerUnits). No sentence goes to two sections, so no section
// repeats another's text. Answers to the project-name question describe no
// section.
func (qa *QA) distribute(ctx context.Context, answers []*Entry) error {
	for _, e := range answers {
		if err := ctx.Err(); err != nil {
			return err
		}
		if IsProjectName(e.Topic) {
			continue
		}
		if IsBrainDump(e.Topic) {
			if e != qa.brainDump {
				continue // a second Brain Dump is not read
			}
			shares, err := brainDumpShares(ctx, e.Answer, func(id SectionID) bool { return !qa.open(id) })
			if err != nil {
				return err
			}
			for _, id := range Priority {
				if len(shares[id]) > 0 {
					qa.said[id] = append(qa.said[id], Said{e, FormatSentences(shares[id])})
				}
			}
			continue
		}
		ids := e.Sections()
		if len(ids) == 0 {
			continue
		}
		units, err := answerUnits(ctx, e.Answer, ids, qa.open)
		if err != nil {
			return err
		}
		for _, id := range Priority {
			if text, ok := units[id]; ok {
				qa.said[id] = append(qa.said[id], Said{e, text})
			}
		}
	}
	return nil
}
