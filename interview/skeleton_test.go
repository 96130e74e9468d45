package interview

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// TestSkeletonInterview answers every region of a new skeleton charter in
// turn, as rp1's parent loop does: each step asks about the first gap, the
// answer lands in that region only, **Status** follows the gaps, and the
// charter is Complete with no diagnostic at the end. CRLF stays CRLF.
func TestSkeletonInterview(t *testing.T) {
	answers := map[rp1.RegionID]string{
		rp1.RegionVision:    "Every crossing logged once.",
		rp1.RegionProblem:   "Logs are written on paper and retyped the next morning.\nErrors surface days later.",
		rp1.RegionUsers:     "Deck officers at sea and harbour clerks ashore.",
		rp1.RegionRationale: "One entry at sea replaces the paper log.\n\n## Savings\nClerks stop retyping.",
		rp1.RegionWill:      "Offline logging. PDF export.",
		rp1.RegionWont:      "- Payroll\n  - and pensions",
		rp1.RegionSuccess:   "No log is retyped a month after launch.",
	}
	for _, crlf := range []bool{false, true} {
		text := NewSkeleton("ferrylog", testNow)
		if crlf {
			text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
		}
		if ch := rp1.Parse(text); ch.Format != rp1.FormatSkeleton || !slices.Equal(ch.Skeleton.Gaps(), rp1.Regions) {
			t.Fatalf("NewSkeleton is not an all-gap skeleton:\n%s", text)
		}
		for i, id := range rp1.Regions {
			st := NextRegion(text)
			if st.Region != id || !slices.Equal(st.Gaps, rp1.Regions[i:]) || st.Question == "" {
				t.Fatalf("step %d: %+v", i, st)
			}
			p, err := AnswerRegion(text, id, answers[id])
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Edits) != 1 {
				t.Fatalf("step %d: %d edits", i, len(p.Edits))
			}
			text = Apply(text, p.Edits)
			ch := rp1.Parse(text)
			if ch.Skeleton.Region(id).Gap() {
				t.Fatalf("step %d: %s still a gap:\n%s", i, id, text)
			}
			if f := ch.Skeleton.Status; f == nil || f.Value != ch.Skeleton.ExpectedStatus() {
				t.Fatalf("step %d: status %+v", i, f)
			}
		}
		if crlf && bytes.Count(text, []byte("\n")) != bytes.Count(text, []byte("\r\n")) {
			t.Errorf("bare LF in a CRLF charter:\n%q", text)
		}
		s := strings.ReplaceAll(string(text), "\r\n", "\n")
		for _, want := range []string{
			"**Status**: Complete",
			"## Business Rationale\nOne entry at sea replaces the paper log.\n\n### Savings\nClerks stop retyping.\n",
			"### Will\n- Offline logging.\n- PDF export.\n",
			"### Won't\n- Payroll\n  - and pensions\n",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("finished charter lacks %q:\n%s", want, s)
			}
		}
		if ds := rp1.Check(rp1.Parse(text), rp1.Options{RP1Style: true}); len(ds) != 0 {
			t.Errorf("finished skeleton has diagnostics: %s", ds[0].Message)
		}
		if st := NextRegion(text); st.Region != "" || st.Status != "Complete" {
			t.Errorf("after the last answer: %+v", st)
		}
	}
}

// TestAnswerRegionPlaces: an answer goes after the text of a filled region,
// under a new heading where a missing region belongs, and into a new Scope
// Guardrails block when that is missing; a variant heading must be renamed
// first, and a scratch-pad charter is refused.
func TestAnswerRegionPlaces(t *testing.T) {
	base := "# Project Charter: x\n\n**Created**: 2026-07-20\n**Status**: Draft\n\n## Vision\nShip.\n\n## Target Users\nClerks.\n\n## Success Criteria\nFast.\n"
	cases := []struct {
		name   string
		text   string
		id     rp1.RegionID
		answer string
		want   string // a substring of the result
	}{
		{"append to a filled region", base, rp1.RegionVision, "And stay shipped.", "## Vision\nShip.\n\nAnd stay shipped.\n\n## Target Users"},
		{"a missing region goes where it belongs", base, rp1.RegionProblem, "Paper logs.", "## Vision\nShip.\n\n## Problem & Context\nPaper logs.\n\n## Target Users"},
		{"a missing Scope Guardrails block", base, rp1.RegionWont, "No payroll.", "Clerks.\n\n## Scope Guardrails\n\n### Will\n- _TBD_\n\n### Won't\n- No payroll.\n\n## Success Criteria"},
		{"the last line without a line ending", "# P\n\n**Status**: Draft\n\n## Vision\n_TBD_", rp1.RegionVision, "Ship.", "## Vision\nShip.\n"},
	}
	for _, c := range cases {
		p, err := AnswerRegion([]byte(c.text), c.id, c.answer)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := string(Apply([]byte(c.text), p.Edits)); !strings.Contains(got, c.want) {
			t.Errorf("%s: got\n%s\nwant it to hold\n%s", c.name, got, c.want)
		}
	}
	if _, err := AnswerRegion([]byte(strings.Replace(base, "## Vision", "## Vision Statement", 1)+"\n## Scope Guardrails\n### Will Do\n- a\n"), rp1.RegionWill, "x"); err == nil {
		t.Error("a variant heading should be renamed first")
	}
	if _, err := AnswerRegion([]byte("# P\n\n**Version**: 1.0.0\n\n## Problem & Context\nA. B.\n"), rp1.RegionVision, "x"); err != ErrNotSkeleton {
		t.Errorf("scratch-pad charter: %v", err)
	}
}

// TestCorrectStatus changes the status and nothing else.
func TestCorrectStatus(t *testing.T) {
	text := "# P\n\n**Created**: 2026-07-20\n**Status**: Final\n\n## Vision\n_TBD_\n"
	got := string(Apply([]byte(text), CorrectStatus([]byte(text)).Edits))
	if got != strings.Replace(text, "Final", "Draft", 1) {
		t.Errorf("got\n%s", got)
	}
	if p := CorrectStatus([]byte(got)); len(p.Edits) != 0 {
		t.Errorf("a right status needs no edit: %+v", p)
	}
}

// TestOpenRegion: each gap is opened for an answer typed in place, whether
// it holds the placeholder, is blank, or has no heading (Will and Won't
// without Scope Guardrails get the whole block). Typing over the selection
// fills that region only.
func TestOpenRegion(t *testing.T) {
	const base = "# Project Charter: relay\n**Created**: 2026-07-20\n**Status**: Draft\n\n## Vision\n_TBD_\n\n## Problem & Context\nAnswers get lost.\n\n## Target Users\n\n## Business Rationale\nRecovery.\n\n## Success Criteria\nOne topology.\n"
	for _, tc := range []struct {
		id      rp1.RegionID
		edits   int
		context string // text around the selection after the edits
	}{
		{rp1.RegionVision, 0, "## Vision\n[_TBD_]\n"},
		{rp1.RegionUsers, 1, "## Target Users\n[_TBD_]\n\n## Business"},
		{rp1.RegionWill, 1, "### Will\n- [_TBD_]\n\n### Won't\n- _TBD_\n"},
		{rp1.RegionWont, 1, "### Will\n- _TBD_\n\n### Won't\n- [_TBD_]\n"},
	} {
		for _, crlf := range []bool{false, true} {
			text := []byte(base)
			if crlf {
				text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
			}
			p, err := OpenRegion(text, tc.id)
			if err != nil {
				t.Fatalf("%s: %v", tc.id, err)
			}
			if len(p.Edits) != tc.edits {
				t.Errorf("%s: %d edits, want %d", tc.id, len(p.Edits), tc.edits)
			}
			after := Apply(text, p.Edits)
			marked := string(after[:p.Select.Start]) + "[" + string(after[p.Select.Start:p.Select.End]) + "]" + string(after[p.Select.End:])
			if !strings.Contains(strings.ReplaceAll(marked, "\r\n", "\n"), tc.context) {
				t.Errorf("%s (crlf %v): the selection is not where expected:\n%s", tc.id, crlf, marked)
			}
			if crlf && bytes.Count(after, []byte("\n")) != bytes.Count(after, []byte("\r\n")) {
				t.Errorf("%s: bare LF in a CRLF charter: %q", tc.id, after)
			}
			typed := string(after[:p.Select.Start]) + "An answer typed in place." + string(after[p.Select.End:])
			sk := rp1.Parse([]byte(typed)).Skeleton
			if sk.Region(tc.id).Gap() {
				t.Errorf("%s: still a gap after typing over the selection:\n%s", tc.id, typed)
			}
		}
	}
	if _, err := OpenRegion([]byte(base), rp1.RegionProblem); err != ErrRegionFilled {
		t.Errorf("a filled region: %v, want ErrRegionFilled", err)
	}
	if _, err := OpenRegion([]byte("# Project Charter: x\n\n## Problem & Context\nTBD\n\n## Scratch Pad\n"), rp1.RegionVision); err != ErrNotSkeleton {
		t.Errorf("a scratch-pad charter: %v, want ErrNotSkeleton", err)
	}
}

// A region whose heading rp1 does not read (a curly apostrophe) is not
// written into: the error names the heading, the region and the rename.
func TestAnswerRegionVariantHeading(t *testing.T) {
	src := "# Project Charter: x\n\n**Status**: Draft\n\n## Vision\n_TBD_\n\n## Scope Guardrails\n### Will\n- _TBD_\n### Won\u2019t\n- _TBD_\n"
	_, err := AnswerRegion([]byte(src), rp1.RegionWont, "- Billing")
	if err == nil {
		t.Fatal("wrote into a region rp1 does not find")
	}
	for _, want := range []string{"\"Won\u2019t\"", "\"Scope Guardrails / Won't\"", "\"### Won't\"", "check --fix"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %s", err, want)
		}
	}
}
