package rp1

import "strings"

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
// answered scratch-pad entry whose topic names it (SPEC §1), or by an
// answered Brain Dump whose text addresses it by the section's cue words
// (SPEC §2, "Brain Dump coverage": the interview will not ask about it, and
// finishing writes it from those sentences). Skipped, pending, malformed and
// unnumbered entries cover nothing.
func (ch *Charter) Gaps() []Gap {
	gaps := make([]Gap, 0, len(Priority))
	for _, id := range Priority {
		g := Gap{Section: id, Charter: ch.SectionStatus(id), Status: GapOpen}
		switch {
		case g.Charter == StatusComplete:
			g.Status = GapFilled
		default:
			if e := ch.coveringEntry(id); e != nil {
				g.Status, g.CoveredBy = GapCoveredByQA, e
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

// coveringEntry is the first answered entry whose topic covers id, else
// an answered Brain Dump that addresses id.
func (ch *Charter) coveringEntry(id SectionID) *Entry {
	if ch.ScratchPad == nil {
		return nil
	}
	for _, e := range ch.ScratchPad.Entries {
		// An entry without a Q number is not read by the interviewer either.
		if e.Number == 0 || e.Malformed() || !e.Answered() {
			continue
		}
		for _, s := range TopicSections(e.Topic) {
			if s == id {
				return e
			}
		}
	}
	for _, e := range ch.ScratchPad.Entries {
		if e.Number != 0 && e.Answered() && IsBrainDump(e.Topic) && Addresses(e.Answer, id) {
			return e
		}
	}
	return nil
}
