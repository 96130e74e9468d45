package rp1

import (
	"context"
	"slices"
	"strings"
)

// Section returns the first section with id, or nil when the heading is
// missing.
func (ch *Charter) Section(id SectionID) *Section {
	for _, s := range ch.Sections {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Header returns the first header field named key (ignoring case), or nil.
func (ch *Charter) Header(key string) *HeaderField {
	for i := range ch.Fields {
		if strings.EqualFold(ch.Fields[i].Key, key) {
			return &ch.Fields[i]
		}
	}
	return nil
}

// SectionStatus is the status of section id; a missing heading is EMPTY.
func (ch *Charter) SectionStatus(id SectionID) SectionStatus {
	if s := ch.Section(id); s != nil {
		return s.Status
	}
	return StatusEmpty
}

// Gaps reports, in priority order, each of the five sections as FILLED
// (COMPLETE in the charter), COVERED_BY_QA or GAP. A section is covered by an
// answered scratch-pad entry about it (its topic, or the reason of rp1's
// "### Qn: Skipped" form, names it; SPEC §1), by an answered Brain Dump that
// says enough about it to write it (BrainDumpShares, Writable), or, once its
// question was skipped, by another answer that says enough about it: the
// interview will not ask about it, and finishing writes it from those
// sentences. Skipped, pending, malformed and unnumbered entries cover
// nothing themselves.
func (ch *Charter) Gaps() []Gap {
	gaps := make([]Gap, 0, len(Priority))
	var shares map[SectionID][]Sentence
	bd := ch.BrainDump()
	if bd != nil {
		shares = BrainDumpShares(bd.Answer, ch.HasOwnAnswer)
	}
	for _, id := range Priority {
		g := Gap{Section: id, Charter: ch.SectionStatus(id), Status: GapOpen}
		switch {
		case g.Charter == StatusComplete:
			g.Status = GapFilled
		default:
			if e := ch.answerAbout(id); e != nil {
				g.Status, g.CoveredBy = GapCoveredByQA, e
			} else if bd != nil && Writable(shares[id]) {
				g.Status, g.CoveredBy = GapCoveredByQA, bd
			} else if ch.skipped(id) {
				// The interview skipped it because another answer says
				// enough about it (SPEC §2, skip).
				if e, _ := ch.OtherAnswerCovering(id); e != nil {
					g.Status, g.CoveredBy = GapCoveredByQA, e
				}
			}
		}
		gaps = append(gaps, g)
	}
	return gaps
}

// GapsRemaining lists the GAP sections in priority order (gaps_remaining).
func (ch *Charter) GapsRemaining() []SectionID {
	var ids []SectionID
	for _, g := range ch.Gaps() {
		if g.Status == GapOpen {
			ids = append(ids, g.Section)
		}
	}
	return ids
}

// Answered lists the entries the interviewer reads as answers: numbered,
// well-formed and with a non-empty answer, in file order.
func (ch *Charter) Answered() []*Entry {
	if ch.ScratchPad == nil {
		return nil
	}
	var out []*Entry
	for _, e := range ch.ScratchPad.Entries {
		// An entry without a Q number is not read by the interviewer either.
		if e.Number != 0 && !e.Malformed() && e.Answered() {
			out = append(out, e)
		}
	}
	return out
}

// BrainDump is the first answered Brain Dump entry, or nil.
func (ch *Charter) BrainDump() *Entry {
	for _, e := range ch.Answered() {
		if IsBrainDump(e.Topic) {
			return e
		}
	}
	return nil
}

// HasOwnAnswer: an answered entry is about section id (not counting the
// Brain Dump).
func (ch *Charter) HasOwnAnswer(id SectionID) bool { return ch.answerAbout(id) != nil }

// answerAbout is the first answered entry about id.
func (ch *Charter) answerAbout(id SectionID) *Entry {
	for _, e := range ch.Answered() {
		if e.About(id) {
			return e
		}
	}
	return nil
}

// skipped: a well-formed entry about id was skipped.
func (ch *Charter) skipped(id SectionID) bool {
	if ch.ScratchPad == nil {
		return false
	}
	for _, e := range ch.ScratchPad.Entries {
		if e.Number != 0 && e.HasSkipped && !e.Answered() && e.About(id) {
			return true
		}
	}
	return false
}

// OtherAnswerCovering is the first answer about other sections (not the
// Brain Dump) that says enough about id to write it, and what it says
// (AnswerShare, Writable); nil when none does. One sentence in passing is not
// enough: a section written from it would be partial.
func (ch *Charter) OtherAnswerCovering(id SectionID) (*Entry, []Sentence) {
	e, share, _ := ch.otherAnswerCovering(context.Background(), id)
	return e, share
}

// otherAnswerCovering is OtherAnswerCovering that stops, returning ctx's
// error, when ctx is done: it reads every sentence of every answer.
func (ch *Charter) otherAnswerCovering(ctx context.Context, id SectionID) (*Entry, []Sentence, error) {
	for _, e := range ch.Answered() {
		if IsBrainDump(e.Topic) || e.About(id) {
			continue
		}
		// The sections e is about, once: answerShare asks for each sentence.
		about := e.Sections()
		share, err := answerShare(ctx, e.Answer, func(x SectionID) bool { return slices.Contains(about, x) }, id)
		if err != nil {
			return nil, nil, err
		}
		if Writable(share) {
			return e, share, nil
		}
	}
	return nil, nil, nil
}
