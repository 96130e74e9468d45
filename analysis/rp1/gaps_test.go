package rp1

import (
	"slices"
	"strings"
	"testing"
)

// pad is a CREATE scratch pad holding entries.
func pad(entries ...string) string {
	return "# Project Charter: [To Be Determined]\n\n**Version**: 1.0.0\n**Status**: Draft\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n" +
		strings.Join(entries, "\n\n") + "\n\n<!-- End scratch pad -->\n"
}

func entry(n int, topic, answer string) string {
	return "### Q" + string(rune('0'+n)) + ": " + topic + "\n**Asked**: ?\n**Answer**: " + answer
}

func skipped(n int, topic, reason string) string {
	return "### Q" + string(rune('0'+n)) + ": " + topic + "\n**Skipped**: " + reason
}

// seedBrainDump is the Brain Dump of the seed's CREATE example ("User
// mentions problem and users"): one sentence on each.
const seedBrainDump = "The problem: on-call engineers lose the first ten minutes of every incident searching five wikis for runbooks, and half of them are stale. " +
	"The users are on-call engineers and their team leads at companies with 20-200 engineers."

// TestThreeSteps: Step 1 reads the charter only, Step 2 the Q&A only (no
// sentence count), Step 3 combines them as the seed does.
func TestThreeSteps(t *testing.T) {
	type want struct {
		completeness SectionStatus
		covered      int // Q number of the covering entry, 0 for none
		status       GapStatus
		addressed    int // for a GAP: Q number of the answer that addresses it unasked
	}
	cases := []struct {
		name, text string
		want       map[SectionID]want
	}{
		{
			name: "the seed's CREATE example after Q1: one sentence each covers problem and users",
			text: pad(entry(1, "Brain Dump", seedBrainDump)),
			want: map[SectionID]want{
				Problem:   {StatusEmpty, 1, GapCoveredByQA, 0},
				Users:     {StatusEmpty, 1, GapCoveredByQA, 0},
				ValueProp: {StatusEmpty, 0, GapOpen, 0},
				Scope:     {StatusEmpty, 0, GapOpen, 0},
				Success:   {StatusEmpty, 0, GapOpen, 0},
			},
		},
		{
			name: "the seed's skip example: the Brain Dump speaks to the value too, which addresses it until the skip is recorded",
			text: pad(entry(1, "Brain Dump", seedBrainDump+" Unlike a wiki search, it saves every on-call engineer ten minutes per page.")),
			want: map[SectionID]want{
				ValueProp: {StatusEmpty, 0, GapOpen, 1},
			},
		},
		{
			name: "after the skip is recorded the value is covered by the Brain Dump",
			text: pad(entry(1, "Brain Dump", seedBrainDump+" Unlike a wiki search, it saves every on-call engineer ten minutes per page."),
				skipped(2, "Value Proposition", "Value proposition already covered in brain dump response.")),
			want: map[SectionID]want{
				ValueProp: {StatusEmpty, 1, GapCoveredByQA, 1},
				Scope:     {StatusEmpty, 0, GapOpen, 0},
			},
		},
		{
			name: "a one-word answer to its own question covers it; an answer that declines covers nothing",
			text: pad(entry(1, "Brain Dump", "Weeds are a pain."), entry(2, "Target Users", "Allotment holders."), entry(3, "Value Proposition", "I don't know yet.")),
			want: map[SectionID]want{
				Problem:   {StatusEmpty, 1, GapCoveredByQA, 0},
				Users:     {StatusEmpty, 2, GapCoveredByQA, 0},
				ValueProp: {StatusEmpty, 0, GapOpen, 0},
			},
		},
		{
			name: "Step 1 is the charter's own: a complete section is FILLED whatever the Q&A says",
			text: "# Project Charter: X\n\n## Target Users\n\nClerks. Officers at sea.\n\n## Scratch Pad\n\n" + entry(1, "Target Users", "Someone else.") + "\n",
			want: map[SectionID]want{
				Users:   {StatusComplete, 1, GapFilled, 0},
				Problem: {StatusEmpty, 0, GapOpen, 0},
			},
		},
		{
			name: "a sentence that clearly speaks to another section addresses it; a word in passing does not",
			text: pad(entry(1, "Brain Dump", seedBrainDump),
				entry(2, "Value Proposition", "One search box for every runbook, faster than any wiki. We will measure success by the time from page to runbook."),
				entry(3, "Scope", "Confluence and Notion are in. It should save a little time.")),
			// "save" in the scope answer is one value cue: it stays there.
			want: map[SectionID]want{
				ValueProp: {StatusEmpty, 2, GapCoveredByQA, 0},
				Success:   {StatusEmpty, 0, GapOpen, 2},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := Parse([]byte(c.text))
			qa := ch.QA()
			gaps := qa.Gaps()
			for _, g := range gaps {
				w, ok := c.want[g.Section]
				if !ok {
					continue
				}
				if got := ch.SectionCompleteness(g.Section); got != w.completeness || g.Charter != got {
					t.Errorf("%s: Step 1 %s (gap says %s), want %s", g.Section, got, g.Charter, w.completeness)
				}
				if got := qnum(qa.Coverage(g.Section)); got != w.covered || qnum(g.CoveredBy) != got {
					t.Errorf("%s: Step 2 covered by Q%d, want Q%d", g.Section, got, w.covered)
				}
				if got := GapStatusOf(g.Charter, g.CoveredBy); got != w.status || g.Status != got {
					t.Errorf("%s: Step 3 %s, want %s", g.Section, got, w.status)
				}
				if got := qnum(g.AddressedBy); got != w.addressed && g.Status == GapOpen {
					t.Errorf("%s: addressed by Q%d, want Q%d", g.Section, got, w.addressed)
				}
			}
		})
	}
}

func qnum(e *Entry) int {
	if e == nil {
		return 0
	}
	return e.Number
}

// TestSaidNeverRepeats: what the answers say is placed once: the Brain
// Dump's sentences each in one section, a sentence that leaves its answer
// no longer in the section the answer was about.
func TestSaidNeverRepeats(t *testing.T) {
	text := pad(entry(1, "Brain Dump", "Name: Runbook Radar\n"+seedBrainDump+" Unlike a wiki search, it saves every on-call engineer ten minutes per page."),
		entry(2, "Scope", "v1 indexes Confluence and Notion. We won't edit runbooks. Success means we measure page-to-runbook time under a minute."))
	qa := Parse([]byte(text)).QA()
	var all []string
	for _, id := range Priority {
		for _, s := range qa.Said(id) {
			all = append(all, s.Text)
		}
	}
	joined := strings.Join(all, "\n")
	for _, s := range SplitSentences(seedBrainDump + " v1 indexes Confluence and Notion. We won't edit runbooks.") {
		if n := strings.Count(joined, s.Text); n != 1 {
			t.Errorf("%q said %d times:\n%s", s.Text, n, joined)
		}
	}
	if strings.Contains(joined, "Runbook Radar") {
		t.Errorf("the name line went into a section:\n%s", joined)
	}
	if got := qa.Said(Success); len(got) != 1 || got[0].Text != "Success means we measure page-to-runbook time under a minute." || got[0].Entry.Number != 2 {
		t.Errorf("success: %+v", got)
	}
	if got := qa.Said(Scope); len(got) != 1 || got[0].Text != "v1 indexes Confluence and Notion. We won't edit runbooks." {
		t.Errorf("scope: %+v", got)
	}
}

// TestAnswerUnits: an answer stays whole unless one of its sentences
// clearly belongs elsewhere; structured markdown and an answer whose every
// sentence would leave stay whole.
func TestAnswerUnits(t *testing.T) {
	open := func(SectionID) bool { return true }
	scope := []SectionID{Scope}
	cases := []struct {
		answer string
		want   map[SectionID]string
	}{
		{"In: booking. Out: billing.", map[SectionID]string{Scope: "In: booking. Out: billing."}},
		{"- In: booking\n- Success = zero double bookings, measured each term",
			map[SectionID]string{Scope: "- In: booking", Success: "- Success = zero double bookings, measured each term"}},
		{"### Out\n- Success metrics dashboards, measured later", map[SectionID]string{Scope: "### Out\n- Success metrics dashboards, measured later"}},
		{"Success is measured by adoption.", map[SectionID]string{Scope: "Success is measured by adoption."}},
		{"- In: booking\n  - and clash warnings\n- Success is measured by adoption.", map[SectionID]string{Scope: "- In: booking\n  - and clash warnings\n- Success is measured by adoption."}},
	}
	for _, c := range cases {
		got := AnswerUnits(c.answer, scope, open)
		if !mapsEqual(got, c.want) {
			t.Errorf("AnswerUnits(%q) = %q, want %q", c.answer, got, c.want)
		}
	}
	// A section that is not open (answered on its own, or complete) takes
	// nothing.
	if got := AnswerUnits("- In: booking\n- Success = zero double bookings, measured each term", scope, func(id SectionID) bool { return id != Success }); len(got) != 1 {
		t.Errorf("moved into a closed section: %q", got)
	}
}

func mapsEqual(a, b map[SectionID]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestStatusFollowsWrittenSections: rp1 derives **Status** from the gaps:
// a charter whose five sections are all written is Complete even when one
// is a single sentence (section-partial, a hint); an unwritten section or
// a scratch pad makes it Draft, and only then does check say a stored
// Complete is wrong.
func TestStatusFollowsWrittenSections(t *testing.T) {
	const written = "# Project Charter: X\n\n**Status**: Complete\n\n## Problem & Context\n\nPaper logs. They get lost.\n\n## Target Users\n\nClerks.\n\n" +
		"## Business Rationale\n\nOne entry. No retyping.\n\n## Scope Guardrails\n\nLogging. Not pay.\n\n## Success Criteria\n\nNo retyping. Same-day answers.\n"
	cases := []struct {
		name, text string
		want       string
		codes      []string
	}{
		{"one sentence is written", written, StatusValueComplete, []string{"section-partial"}},
		{"an unwritten section", strings.Replace(written, "Clerks.", "_TBD_", 1), StatusValueDraft, []string{"section-empty", "status-complete-with-gaps"}},
		{"a missing section", strings.Replace(written, "## Target Users\n\nClerks.\n\n", "", 1), StatusValueDraft, []string{"section-missing", "status-complete-with-gaps"}},
		{"an interview under way", written + "\n## Scratch Pad\n\n<!-- End scratch pad -->\n", StatusValueDraft, []string{"section-partial", "status-complete-with-gaps"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := Parse([]byte(c.text))
			if got := ch.ExpectedStatus(); got != c.want {
				t.Errorf("ExpectedStatus = %s, want %s", got, c.want)
			}
			var codes []string
			for _, d := range Check(ch, Options{RP1Style: true}) {
				codes = append(codes, d.Code.String())
			}
			slices.Sort(codes)
			codes = slices.Compact(codes)
			if !slices.Equal(codes, c.codes) {
				t.Errorf("check codes %v, want %v", codes, c.codes)
			}
		})
	}
}
