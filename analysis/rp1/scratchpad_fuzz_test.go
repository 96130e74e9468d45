package rp1

import (
	"bytes"
	"testing"
)

// FuzzScratchPad aims the fuzzer at the scratch pad: the body it generates
// always follows a "## Scratch Pad" heading. The scratch pad must be found,
// lie inside the text, hold its entries in order, and its helpers must
// agree with its entries.
func FuzzScratchPad(f *testing.F) {
	for _, s := range []string{
		"", "<!-- Mode: CREATE -->\n<!-- Started: 2026-01-01 -->\n### Q1: Brain Dump\n**Asked**: x\n**Answer**: y\n<!-- End scratch pad -->\n",
		"### Q2: Users\n**Asked**: who?\n", "### Q1: a\n**Skipped**: no time\n### Q1: b\n",
		"### Q: \n**Answer**:\n**Answer**:\n## Problem\n<!-- End scratch pad -->",
		"### Q99999999999999999999: big\n", "\r\n### Q3: crlf\r\n**Asked**: a\r\n", "### Q4:\x00\xff\n**Asked**:\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		src := append([]byte("# T\n\n## Scratch Pad\n"), body...)
		ch := Parse(src)
		sp := ch.ScratchPad
		if sp == nil {
			t.Fatal("no scratch pad after a ## Scratch Pad heading")
		}
		n := len(src)
		for _, s := range sp.Entries {
			for _, sp := range []struct {
				start, end int
			}{{s.Span.Start, s.Span.End}, {s.HeadingSpan.Start, s.HeadingSpan.End}, {s.AskedSpan.Start, s.AskedSpan.End},
				{s.AnswerSpan.Start, s.AnswerSpan.End}, {s.SkippedSpan.Start, s.SkippedSpan.End}} {
				if sp.start < 0 || sp.end < sp.start || sp.end > n {
					t.Fatalf("entry span [%d,%d) outside [0,%d]", sp.start, sp.end, n)
				}
			}
			// CommonMark allows up to three spaces before the #s.
			if !bytes.HasPrefix(bytes.TrimLeft(src[s.HeadingSpan.Start:s.HeadingSpan.End], " "), []byte("###")) {
				t.Fatalf("entry heading %q does not start with ###", src[s.HeadingSpan.Start:s.HeadingSpan.End])
			}
			if s.Number < 0 {
				t.Fatalf("negative entry number %d", s.Number)
			}
		}
		last := 0
		for _, e := range sp.Entries {
			last = max(last, e.Number)
		}
		if got := sp.LastNumber(); got != last {
			t.Fatalf("LastNumber %d, want the highest entry number %d", got, last)
		}
		if p := sp.PendingEntry(); p != nil && !p.Pending() {
			t.Fatalf("PendingEntry %+v is not pending", p)
		}
		for _, d := range Check(ch, Options{RP1Style: true, QuestionBudget: 5}) {
			if d.Span.Start < 0 || d.Span.End < d.Span.Start || d.Span.End > n || d.Code.Rule() == nil {
				t.Fatalf("diagnostic %s at %+v", d.Code, d.Span)
			}
		}
	})
}
