package status_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/status"
)

// render is the markdown as an editor shows it (VS Code renders with a
// CommonMark engine with tables, as goldmark with GFM does).
func render(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestMarkdownShowsWhatBlocksCompletion(t *testing.T) {
	_, charter := fixtureProject(t)
	st, err := statusOf(t, vfs.OS, charter, mustTime(t, "2026-11-13T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	md := status.Markdown([]*status.Status{st})
	for _, want := range []string{
		"## auth-rework — Session handling rework",
		"**active** · 2/6 VALs pass",
		"### m1-sessions Token sessions — 1/4 pass",
		"| ✓ | `VAL-SESS-001` | pass, **stale** | 2d ago | Login returns a signed token that expires after 15 minutes |",
		"| · | `VAL-SESS-003` | no evidence |  | Implement token refresh endpoint |",
		"### Completion blockers (7)",
		"- **val-not-pass** `VAL-SESS-002`: VAL-SESS-002's latest outcome is fail",
		"- **report-empty-section**: REPORT.md ## Outcome needs content",
		"- `charter_record evidence`: Work on VAL-SESS-002 next",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	html := render(t, md)
	// Each milestone's VALs are a table with one row per VAL.
	if got := strings.Count(html, "<tr>") - strings.Count(html, "<thead>"); got != st.ValTotal {
		t.Errorf("%d VAL rows rendered, want %d:\n%s", got, st.ValTotal, html)
	}
	for _, want := range []string{"<li><strong>stale-evidence</strong> <code>VAL-SESS-001</code>", "REPORT.md ## Notes needs content"} {
		if !strings.Contains(html, want) {
			t.Errorf("rendered status lacks %q:\n%s", want, html)
		}
	}
}

func TestMarkdownKeepsCharterTextInert(t *testing.T) {
	hostile := "[click](https://example.com) <img src=x onerror=alert(1)> *b* | cell `tick` ~~s~~ &amp;\nnext line"
	st := &status.Status{
		CharterID: "c", Name: hostile, Status: "active", Objective: "1. # " + hostile,
		Milestones:    []status.Milestone{{MilestoneID: "m1", Title: hostile, CriterionIDs: []string{"VAL-1"}, ValCount: 1}},
		Criteria:      []status.Criterion{{CriterionID: "VAL-1", Title: hostile, Outcome: "fail"}},
		ValTotal:      1,
		Details:       status.Details{BlockingForComplete: []status.Blocker{{Reason: "val-not-pass", CriterionID: "VAL-1`|", Message: hostile}}},
		ParseWarnings: []status.ParseWarning{{Reason: "missing-verifier", File: "criteria.md", Line: 3, Detail: hostile}},
		NextActions:   []status.NextAction{{Tool: "edit", Hint: hostile}},
	}
	html := render(t, status.Markdown([]*status.Status{st}))
	// A bare URL may be linked (GFM autolinks); link markup, which hides
	// its target behind other text, must not be.
	for _, bad := range []string{">click</a>", "<img", "<em>", "<del>", "<ol>", "<h4>"} {
		if strings.Contains(html, bad) {
			t.Errorf("charter text became markup (%s):\n%s", bad, html)
		}
	}
	if n := strings.Count(html, "<h1>"); n != 1 {
		t.Errorf("%d level-1 headings, want the title alone:\n%s", n, html)
	}
	if !strings.Contains(html, "&amp;amp;") {
		t.Errorf("an entity in charter text was decoded instead of shown as written:\n%s", html)
	}
	// The table keeps its five columns: the | in a title does not split a cell.
	for _, row := range strings.Split(html, "<tr>")[1:] {
		if n := strings.Count(row, "<td>") + strings.Count(row, "<th>"); n != 5 {
			t.Errorf("a table row has %d cells, want 5: %s", n, row)
		}
	}
	if !strings.Contains(html, "<code>VAL-1`|</code>:") {
		t.Errorf("the id with a backtick and a pipe is not one code span:\n%s", html)
	}
}

func TestMarkdownWithoutCharters(t *testing.T) {
	if md := status.Markdown(nil); !strings.Contains(md, "No charter") {
		t.Errorf("got %q", md)
	}
}

// A .charters/ charter is rendered in its own shape: its generation, its
// progress and each criterion, with what blocks completion.
func TestMarkdownChartersCharter(t *testing.T) {
	v := &status.Charter{CharterID: "20260702-101500-ship", Status: "active", Generation: "file-interface-15",
		Objective: "Ship the *export*", Progress: &status.Progress{Pass: 1, Total: 2},
		Criteria: []status.CharterCriterion{{ID: "C1", Title: "Exports stream", Status: "pass", Note: "bun test 42/42"},
			{ID: "C2", Title: "Docs", Status: "blocked", Note: "waiting on C1", Stale: true}},
		Blockers: []string{"C2 is blocked"}}
	md := status.Markdown([]*status.Status{{CharterID: v.CharterID, Charters: v}})
	for _, want := range []string{"## 20260702-101500-ship", "1/2 pass", "✓ **C1** Exports stream — pass: bun test 42/42",
		"■ **C2** Docs — blocked", "(**stale**)", "Completion blockers (1)", `Ship the \*export\*`} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
}
