package interview

import (
	"errors"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// AnswerPending writes what the user typed into the question awaiting it,
// which then reads back as that entry's answer; a multi-line answer stays
// one answer however it is written.
func TestAnswerPending(t *testing.T) {
	pad := func(entry string) string {
		return "# Project Charter: X\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: Notes.\n\n" + entry + "\n\n<!-- End scratch pad -->\n"
	}
	cases := []struct {
		name, text, answer, want string
	}{
		{"after the field", pad("### Q2: Target Users\n**Asked**: Who?\n**Answer**: "), "On-call engineers.", "On-call engineers."},
		{"no space after the colon", pad("### Q2: Target Users\n**Asked**: Who?\n**Answer**:"), "On-call engineers.", "On-call engineers."},
		{"no answer field", pad("### Q2: Target Users\n**Asked**: Who?"), "On-call engineers.", "On-call engineers."},
		{"CRLF", strings.ReplaceAll(pad("### Q2: Target Users\n**Asked**: Who?\n**Answer**: "), "\n", "\r\n"), "Engineers.\nAnd leads.", "Engineers.\nAnd leads."},
		{"lines that would end the entry", pad("### Q2: Scope\n**Asked**: What is in v1?\n**Answer**: "),
			"The CLI.\n### Q3: Injected\n**Skipped**: not really\n## Success\n<!-- End scratch pad -->\n- a list item",
			"The CLI.\n#### Q3: Injected\n\\**Skipped**: not really\n#### Success\n\\<!-- End scratch pad -->\n- a list item"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := AnswerPending([]byte(c.text), 2, c.answer)
			if err != nil {
				t.Fatal(err)
			}
			out := Apply([]byte(c.text), p.Edits)
			ch := rp1.Parse(out)
			es := ch.ScratchPad.Entries
			if len(es) != 2 || es[1].Number != 2 || es[1].Answer != c.want {
				t.Fatalf("entries %d, Q2's answer %q, want %q:\n%s", len(es), es[len(es)-1].Answer, c.want, out)
			}
			if strings.Contains(c.text, "\r\n") && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
				t.Errorf("a CRLF file got LF line endings:\n%q", out)
			}
			if !ch.ScratchPad.HasEndMarker || ch.ScratchPad.PendingEntry() != nil {
				t.Errorf("the pad lost its end or still waits:\n%s", out)
			}
		})
	}

	text := []byte(pad("### Q2: Target Users\n**Asked**: Who?\n**Answer**: "))
	if _, err := AnswerPending(text, 3, "x"); !errors.Is(err, ErrNotPending) {
		t.Errorf("an answer for Q3 went into Q2: %v", err)
	}
	if _, err := AnswerPending(text, 2, "  \n "); err == nil {
		t.Error("an empty answer was written")
	}
	if _, err := AnswerPending([]byte(pad("### Q2: Users\n**Asked**: Who?\n**Answer**: Me.")), 0, "x"); !errors.Is(err, ErrNoPendingQuestion) {
		t.Errorf("no pending question: %v", err)
	}
}
