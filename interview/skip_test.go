package interview

import (
	"errors"
	"strings"
	"testing"
)

func TestSkipPending(t *testing.T) {
	const head = "# Project Charter: X\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n"
	for _, tt := range []struct {
		name, text, reason, want string
	}{
		{"empty answer line",
			head + "### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: \n\n<!-- End scratch pad -->\n", "",
			head + "### Q1: Brain Dump\n**Asked**: Tell me.\n**Skipped**: Skipped by the user.\n\n<!-- End scratch pad -->\n"},
		{"CRLF, answer at EOF without a line ending",
			strings.ReplaceAll(head, "\n", "\r\n") + "### Q1: Brain Dump\r\n**Asked**: Tell me.\r\n**Answer**: ", "not now",
			strings.ReplaceAll(head, "\n", "\r\n") + "### Q1: Brain Dump\r\n**Asked**: Tell me.\r\n**Skipped**: not now"},
		{"no answer line",
			head + "### Q2: Target Users\n**Asked**: Who?\n\n<!-- End scratch pad -->\n", "  multi\nline  ",
			head + "### Q2: Target Users\n**Asked**: Who?\n**Skipped**: multi line\n\n<!-- End scratch pad -->\n"},
		{"the first pending entry only",
			head + "### Q1: Brain Dump\n**Asked**: A?\n**Answer**: yes\n\n### Q2: Scope\n**Asked**: B?\n**Answer**:\n", "",
			head + "### Q1: Brain Dump\n**Asked**: A?\n**Answer**: yes\n\n### Q2: Scope\n**Asked**: B?\n**Skipped**: Skipped by the user.\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := SkipPending([]byte(tt.text), tt.reason)
			if err != nil {
				t.Fatal(err)
			}
			got := string(Apply([]byte(tt.text), p.Edits))
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			// The skipped section is settled: nothing is pending any more.
			if r := Next([]byte(got), true, Options{}); r.Pending != nil {
				t.Errorf("still pending after the skip: Q%d", r.Pending.Number)
			}
		})
	}
	for _, text := range []string{"", "# Project Charter: X\n", head + "### Q1: Brain Dump\n**Asked**: A?\n**Answer**: yes\n"} {
		if _, err := SkipPending([]byte(text), ""); !errors.Is(err, ErrNoPendingQuestion) {
			t.Errorf("SkipPending(%q) error = %v, want ErrNoPendingQuestion", text, err)
		}
	}
}
