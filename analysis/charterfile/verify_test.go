package charterfile

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

func TestVerificationReadsTheCommandLine(t *testing.T) {
	for _, tc := range []struct {
		name, src, id, command, err string
		gen                         Generation
	}{
		{name: "fi15", gen: FI15, id: "C1", command: "go test ./parser",
			src: "## Objective\nx\n## Criteria\n### C1. Streams\ncommand: go vet ./...\nStatus: pending\nCommand:   go test ./parser  \n"},
		{name: "fi14 before Evidence", gen: FI14, id: "C1", command: "bun test parser",
			src: "## Objective\nx\n## Criteria\n### C1. Streams\nCommand: bun test parser\nEvidence: none\n"},
		{name: "fi14 after Evidence is the note", gen: FI14, id: "C1", err: "no Command: line",
			src: "## Objective\nx\n## Criteria\n### C1. Streams\nEvidence: none\nCommand: bun test parser\n"},
		{name: "indented is prose", gen: FI15, id: "C1", err: "no Command: line",
			src: "## Objective\nx\n## Criteria\n### C1. Streams\n  Command: x\nStatus: pending\n"},
		{name: "in a comment", gen: FI15, id: "C1", err: "no Command: line",
			src: "## Objective\nx\n## Criteria\n### C1. Streams\n<!--\nCommand: rm -rf /\n-->\nStatus: pending\n"},
		{name: "unknown id", gen: FI15, id: "C9", err: "no criterion C9",
			src: "## Objective\nx\n## Criteria\n### C1. Streams\nStatus: pending\n"},
		{name: "phases", gen: PH, id: "C1", err: "has no criteria",
			src: "# Objective\nx\n## Phases\n1. One — current\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse(tc.gen, []byte(tc.src))
			v, err := c.Verification(tc.id)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || v.Command != tc.command {
				t.Fatalf("got %q %v, want %q", v.Command, err, tc.command)
			}
		})
	}
	c := Parse(FI15, []byte("## Objective\nx\n## Criteria\n### C1. x\nCommand: go test -run TestX ./...\nStatus: pending\n"))
	if v, _ := c.Verification("C1"); v.Weak == nil {
		t.Error("a command filtering tests by name should be weak")
	}
}

func TestSetStatusNote(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		gen             Generation
		tok             Status
	}{
		{name: "fi15 replaces the line", gen: FI15, tok: StatusFail,
			src:  "## Criteria\n### C1. x\nStatus: pass — old note\nmore\n",
			want: "## Criteria\n### C1. x\nStatus: fail — ran it\nmore\n"},
		{name: "fi15 legacy Evidence becomes Status", gen: FI15, tok: StatusPass,
			src:  "## Criteria\n### C1. x\nEvidence: none\n",
			want: "## Criteria\n### C1. x\nStatus: pass — ran it\n"},
		{name: "fi15 adds a line", gen: FI15, tok: StatusPass,
			src:  "## Criteria\n### C1. x\nCommand: go test\n\n### C2. y\n",
			want: "## Criteria\n### C1. x\nCommand: go test\nStatus: pass — ran it\n\n### C2. y\n"},
		{name: "fi14 writes Evidence", gen: FI14, tok: StatusPass,
			src:  "## Criteria\n### C1. x\nEvidence: none\n",
			want: "## Criteria\n### C1. x\nEvidence: pass — ran it\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse(tc.gen, []byte(tc.src))
			fix, err := c.SetStatusNote("C1", tc.tok, "ran\nit")
			if err != nil {
				t.Fatal(err)
			}
			got, err := diag.ApplyEdits([]byte(tc.src), fix.Edits)
			if err != nil || string(got) != tc.want {
				t.Errorf("got %q, want %q (%v)", got, tc.want, err)
			}
			if cr := Parse(tc.gen, got).Criterion("C1"); cr.Status != tc.tok || cr.Note != "ran it" {
				t.Errorf("reads back as %s %q", cr.Status, cr.Note)
			}
		})
	}
	c := Parse(FI14, []byte("## Criteria\n### C1. x\nEvidence: none\n"))
	if _, err := c.SetStatusNote("C1", "blocked", ""); err == nil {
		t.Error("blocked is no ADR-0014 token")
	}
	if _, err := Parse(FI15, []byte("## Criteria\r\n### C1. x\r\nStatus: pending\r\n")).SetStatusNote("C1", "pass", "x"); err != ErrCRLF {
		t.Errorf("CRLF: %v", err)
	}
}
