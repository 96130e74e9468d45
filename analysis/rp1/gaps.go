package rp1

import "strings"

// The seed's gap analysis (rp1's charter interviewer, "Analyze gaps"; SPEC
// §1) in its three steps, each computed on its own:
//
//   - Step 1, section completeness (Charter.SectionCompleteness): what the
//     charter itself holds, EMPTY, PARTIAL or COMPLETE (two sentences or
//     more, no placeholder). The scratch pad plays no part.
//   - Step 2, Q&A coverage (QA.Coverage): whether an answer in the scratch
//     pad covers the section. No sentence count applies: an answer that
//     addresses the topic covers it, however short (it is written at the
//     end, and a one-sentence section is PARTIAL then, a hint for a later
//     UPDATE interview, never a reason to ask again).
//   - Step 3, gap status (GapStatusOf): FILLED when Step 1 says COMPLETE,
//     else COVERED_BY_QA when Step 2 found an answer, else GAP.
//
// QA.Gaps runs the three for every section. check, the interview, finishing
// and hover all read it; nothing else decides what is a gap.

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

// SectionCompleteness is the seed's Step 1 for section id: the status of
// its text in the charter (assess, SPEC §1); a missing heading is EMPTY.
func (ch *Charter) SectionCompleteness(id SectionID) SectionStatus {
	if s := ch.Section(id); s != nil {
		return s.Status
	}
	return StatusEmpty
}

// GapStatusOf is the seed's Step 3: FILLED when the section is COMPLETE in
// the charter (Step 1), else COVERED_BY_QA when an answer covers it (Step 2,
// coveredBy), else GAP.
func GapStatusOf(completeness SectionStatus, coveredBy *Entry) GapStatus {
	switch {
	case completeness == StatusComplete:
		return GapFilled
	case coveredBy != nil:
		return GapCoveredByQA
	}
	return GapOpen
}

// Gaps reports, in priority order, each of the five sections with its three
// steps (QA.Gaps).
func (ch *Charter) Gaps() []Gap { return ch.QA().Gaps() }

// GapsRemaining lists the GAP sections in priority order (the seed's
// gaps_remaining).
func (ch *Charter) GapsRemaining() []SectionID {
	var ids []SectionID
	for _, g := range ch.Gaps() {
		if g.Status == GapOpen {
			ids = append(ids, g.Section)
		}
	}
	return ids
}

// Gaps reports, in priority order, each of the five sections: its
// completeness in the charter (Step 1), the answer that covers it (Step 2),
// its gap status (Step 3), the entry that asked about it, and the earlier
// answer that addresses it without having been asked about it (the reason
// the interview skips its question).
func (qa *QA) Gaps() []Gap {
	gaps := make([]Gap, 0, len(Priority))
	for _, id := range Priority {
		c := qa.ch.SectionCompleteness(id)
		by := qa.Coverage(id)
		gaps = append(gaps, Gap{
			Section:     id,
			Charter:     c,
			CoveredBy:   by,
			Status:      GapStatusOf(c, by),
			AskedBy:     qa.asked[id],
			AddressedBy: qa.Addressing(id),
		})
	}
	return gaps
}

// Unwritten lists, in priority order, the sections the charter does not
// hold at all: heading missing, or no content but placeholders (Step 1
// EMPTY). These are the gaps rp1 derives **Status** from (FORMATS.md §2.5:
// Complete only without a gap); a PARTIAL section is written, so it is
// not one of them.
func (ch *Charter) Unwritten() []SectionID {
	var ids []SectionID
	for _, id := range Priority {
		if ch.SectionCompleteness(id) == StatusEmpty {
			ids = append(ids, id)
		}
	}
	return ids
}

// ExpectedStatus is the **Status** the charter calls for, derived as rp1
// derives it: Complete when there is no gap, else Draft. A skeleton
// charter's gaps are its regions (Skeleton.ExpectedStatus); the
// five-section charter's are its unwritten sections (Unwritten) and an
// interview still under way (a scratch pad).
func (ch *Charter) ExpectedStatus() string {
	if ch.Format == FormatSkeleton {
		return ch.Skeleton.ExpectedStatus()
	}
	if len(ch.Unwritten()) > 0 || ch.ScratchPad != nil {
		return StatusValueDraft
	}
	return StatusValueComplete
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
