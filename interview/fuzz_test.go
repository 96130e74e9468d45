package interview

import (
	"encoding/json"
	"testing"
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
