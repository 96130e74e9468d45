package charterfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

func applyFix(t *testing.T, src string, f *diag.Fix) string {
	t.Helper()
	if f == nil {
		t.Fatal("no fix")
	}
	return string(applyEdits([]byte(src), f.Edits))
}

const fi15Src = `## Objective
Ship it.
## Criteria
### C1. Parses
Status: in-progress — two failures left
### C2. Streams
Body text.
Depends: C1
### C3. Documented
Status:
### C4. Glued
Status: done — all 42 tests pass
### C5. Legacy
Evidence: none — not run yet
continued note line
`

// SetStatus writes the token where upstream reads it; after the edit
// upstream reads the chosen status, and nothing else of the block changed.
func TestSetStatus(t *testing.T) {
	for _, tc := range []struct {
		id       string
		tok      Status
		wantLine string // the line after the edit
		note     string
	}{
		{"C1", "pass", "Status: pass — two failures left", "two failures left"},
		{"C2", "blocked", "Status: blocked", ""},
		{"C3", "pass", "Status: pass", ""},
		{"C4", "pass", "Status: pass — all 42 tests pass", "all 42 tests pass"},
		{"C5", "fail", "Status: fail — not run yet", "not run yet"},
	} {
		c := ParseFI15([]byte(fi15Src))
		f, err := c.SetStatus(tc.id, tc.tok)
		if err != nil {
			t.Fatalf("%s: %v", tc.id, err)
		}
		after := applyFix(t, fi15Src, f)
		if !strings.Contains(after, "\n"+tc.wantLine+"\n") {
			t.Errorf("%s: no line %q in\n%s", tc.id, tc.wantLine, after)
		}
		cr := ParseFI15([]byte(after)).Criterion(tc.id)
		if cr.Status != tc.tok || cr.Note != tc.note || cr.Legacy {
			t.Errorf("%s: upstream reads %s %q (legacy %v), want %s %q", tc.id, cr.Status, cr.Note, cr.Legacy, tc.tok, tc.note)
		}
		if f.Title != "Set "+tc.id+" status: "+string(tc.tok) {
			t.Errorf("title %q", f.Title)
		}
	}
	// C2's new line goes after its text, where upstream reads it.
	c := ParseFI15([]byte(fi15Src))
	f, _ := c.SetStatus("C2", "pending")
	if after := applyFix(t, fi15Src, f); !strings.Contains(after, "Body text.\nDepends: C1\nStatus: pending\n### C3") {
		t.Errorf("C2:\n%s", after)
	}
	if _, err := c.SetStatus("C1", "done"); err == nil {
		t.Error("an unknown token was accepted")
	}
	if _, err := c.SetStatus("C9", "pass"); err == nil {
		t.Error("an unknown criterion was accepted")
	}
	crlf := strings.ReplaceAll(fi15Src, "\n", "\r\n")
	if _, err := ParseFI15([]byte(crlf)).SetStatus("C1", "pass"); !errors.Is(err, ErrCRLF) {
		t.Errorf("CRLF: %v", err)
	}
}

func TestSetEvidenceFI14(t *testing.T) {
	src := "## Objective\nShip.\n## Criteria\n### C1. Parses\nEvidence: none\n### C2. Docs\nDepends: C1\n"
	c := ParseFI14([]byte(src))
	f, err := c.SetStatus("C1", "pass")
	if err != nil {
		t.Fatal(err)
	}
	if f.Title != "Set C1 evidence: pass" || !strings.Contains(applyFix(t, src, f), "Evidence: pass\n") {
		t.Errorf("%s:\n%s", f.Title, applyFix(t, src, f))
	}
	f, _ = c.SetStatus("C2", "fail")
	after := applyFix(t, src, f)
	if cr := ParseFI14([]byte(after)).Criterion("C2"); cr.Status != "fail" || len(cr.Depends) != 1 {
		t.Errorf("C2 reads %s depends %v:\n%s", cr.Status, cr.Depends, after)
	}
	if _, err := c.SetStatus("C1", "pending"); err == nil {
		t.Error("ADR-0014 has no pending")
	}
}

// EvidenceToStatus keeps what upstream reads: the same status (none is
// pending) and note on the line; lines after it stay in place.
func TestEvidenceToStatus(t *testing.T) {
	src := "## Objective\nShip.\n## Criteria\n### C1. Parses\nEvidence: pass — 42/42\n### C2. Docs\nEvidence: none\n### C3. Odd\nEvidence: maybe later\n### C4. Long\nEvidence: fail — first line\nsecond line\n"
	c := ParseFI14([]byte(src))
	f, err := c.EvidenceToStatus("")
	if err != nil {
		t.Fatal(err)
	}
	after := applyFix(t, src, f)
	want := "## Objective\nShip.\n## Criteria\n### C1. Parses\nStatus: pass — 42/42\n### C2. Docs\nStatus: pending\n### C3. Odd\nStatus: pending — maybe later\n### C4. Long\nStatus: fail — first line\nsecond line\n"
	if after != want {
		t.Errorf("got\n%s\nwant\n%s", after, want)
	}
	for _, cr := range ParseFI15([]byte(after)).Criteria {
		old := c.Criterion(cr.ID)
		status := old.Status
		if status == "none" {
			status = "pending"
		}
		if cr.Status != status || cr.StatusLine.Label != "Status" {
			t.Errorf("%s: %s from a %s line, was %s", cr.ID, cr.Status, cr.StatusLine.Label, old.Status)
		}
	}
	f, _ = c.EvidenceToStatus("C2")
	if len(f.Edits) != 1 || f.Title != "Rewrite C2's Evidence line as a Status line" {
		t.Errorf("one criterion: %+v", f)
	}
	if f, _ := ParseFI15([]byte(want)).EvidenceToStatus(""); f != nil {
		t.Errorf("nothing to rewrite, got %+v", f)
	}
}

func TestMarkPhaseDone(t *testing.T) {
	for _, tc := range []struct{ name, src, title, want string }{
		{"explicit current", "# Objective\nX\n## Phases\n1. Map — done\n2. Build — current\n3. Ship — upcoming\n",
			"Mark phase 2 done, the next current", "1. Map — done\n2. Build — done\n3. Ship — current\n"},
		{"inferred", "# Objective\nX\n## Phases\n1. Map — done\n2. Build\n3. Ship\n",
			"Mark phase 2 done", "1. Map — done\n2. Build — done\n3. Ship\n"},
		{"variant suffix", "# Objective\nX\n## Phases\n1. Map - current\n2. Build\n",
			"Mark phase 1 done", "1. Map — done\n2. Build\n"},
		{"last", "# Objective\nX\n## Phases\n1. Map — done\n2. Build — current\n",
			"Mark phase 2 done", "1. Map — done\n2. Build — done\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ParsePhases([]byte(tc.src))
			n := 0
			for i, ph := range c.Phases {
				if ph.Status == "current" {
					n = i + 1
					break
				}
			}
			f, err := c.MarkPhaseDone(n)
			if err != nil {
				t.Fatal(err)
			}
			after := applyFix(t, tc.src, f)
			if f.Title != tc.title || !strings.HasSuffix(after, tc.want) {
				t.Errorf("%q:\n%s", f.Title, after)
			}
			if ph := ParsePhases([]byte(after)).Phases[n-1]; ph.Status != "done" || !ph.Explicit {
				t.Errorf("phase %d reads %s", n, ph.Status)
			}
		})
	}
	c := ParsePhases([]byte("# Objective\nX\n## Phases\n1. Map — done\n"))
	if _, err := c.MarkPhaseDone(1); err == nil {
		t.Error("a done phase was marked again")
	}
}
