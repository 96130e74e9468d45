package interview

import (
	"encoding/json"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// FuzzNext: whatever the text and options, Next returns JSON-valid output of
// a known type and its edits apply without panicking.
func FuzzNext(f *testing.F) {
	for _, s := range []string{"", skeletonText, "## Scratch Pad\n### Q1: Brain Dump\n**Answer**: x\n## Scratch Pad\n",
		"# T\r\n## Problem\r\n\r\nA. B.\r\n## Scratch Pad\r\n### Q: \r\n**Asked**:\r\n", "\xff\xfe", "### Q99999999999999999999: x\n"} {
		f.Add([]byte(s), "", 5, false)
	}
	f.Fuzz(func(t *testing.T, text []byte, mode string, budget int, finish bool) {
		r := Next(text, true, Options{Mode: mode, Budget: budget % 10, FinishNow: finish})
		b, err := json.Marshal(r)
		if err != nil || !json.Valid(b) {
			t.Fatalf("invalid JSON: %v", err)
		}
		switch r.Type {
		case TypeNextQuestion, TypeSkip, TypeSuccess, TypeError:
		default:
			t.Fatalf("type %q", r.Type)
		}
		if r.Metadata.GapsRemaining == nil {
			t.Fatal("gaps_remaining is null")
		}
		if p, err := PlanFor(text, r, testNow); err == nil {
			Apply(text, p.Edits)
		}
	})
}

// FuzzAnswerRegion: whatever the charter and the answer, writing the answer
// into the next gap region never panics, and when it succeeds the region is
// no longer a gap (unless the answer is only a placeholder) and the status
// follows the gaps.
func FuzzAnswerRegion(f *testing.F) {
	for _, s := range []string{string(NewSkeleton("p", testNow)), "# P\n\n## Vision\n_TBD_", "# P\r\n**Status**: Final\r\n\r\n## Vision\r\n\r\n## Scope Guardrails\r\n### Will\r\n- _TBD_\r\n"} {
		f.Add([]byte(s), "One sentence. Two.")
		f.Add([]byte(s), "```\n## x")
	}
	f.Fuzz(func(t *testing.T, text []byte, answer string) {
		st := NextRegion(text)
		if st.Region == "" {
			return
		}
		p, err := AnswerRegion(text, st.Region, answer)
		if err != nil {
			return
		}
		after := rp1.Parse(Apply(text, p.Edits))
		if after.Format != rp1.FormatSkeleton {
			t.Fatalf("the answer turned the skeleton into %s", after.Format)
		}
		if sk := after.Skeleton; sk.Status != nil && sk.Status.Value != sk.ExpectedStatus() {
			t.Fatalf("status %q, gaps call for %s", sk.Status.Value, sk.ExpectedStatus())
		}
	})
}
