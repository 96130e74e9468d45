package charterfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// The folder's view is what every feature of the family answers from: its
// staleness and the journal's failures reach the hover, readiness the
// Criteria section's hover, progress the lens; the family needs no
// workspace and no protocol to say them.
func TestFeaturesAnswerFromTheView(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".charters", "20260702-101500-sync")
	files := map[string]string{
		CharterFile: "# Charter: Sync\n\n## Objective\n\nShip sync.\n\n## Criteria\n\n### C1. Edits survive\nStatus: in-progress — two failures left\n\n### C2. Offline users never sync\nDepends: C1\nStatus: pass — checked\n\n### C3. Docs\nStatus: pending\n",
		StateFile: `{"charterId": "20260702-101500-sync", "schemaVersion": "file-interface", "objective": "Ship sync", "status": "active",
"createdAt": "2026-07-02T10:15:00.000Z", "nextSeq": 9, "latestSourceSeq": 8, "snapshotHash": "0000",
"criteriaSnapshot": [{"id": "C2", "title": "Offline users never sync", "depends": ["C1"], "status": {"value": "pass", "note": "checked"}, "statusSeq": 3}]}`,
		EventsFile: `{"type":"criterion_changed","ts":"2026-07-03T10:00:00.000Z","charterId":"20260702-101500-sync","criterion":"C1","field":"status.value","old":"pending","new":"fail"}` + "\n" +
			`{"type":"criterion_changed","ts":"2026-07-03T10:00:00.000Z","charterId":"20260702-101500-sync","criterion":"C3","field":"status.value","old":"fail","new":"pending"}` + "\n",
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := NewView(vfs.OS, dir)
	src := []byte(files[CharterFile])
	ix := source.NewIndex(src)
	at := func(s string) int { return strings.Index(files[CharterFile], s) }

	if h := Hover(v, ix, at("### C2")); h == nil || !strings.Contains(h.Markdown, "**⚠ Stale:**") || !strings.Contains(h.Markdown, "Depends on: C1 (in-progress)") {
		t.Errorf("hover on C2: %+v", h)
	}
	if h := Hover(v, ix, at("### C1")); h == nil || !strings.Contains(h.Markdown, "The journal records it failing 1 time.") {
		t.Errorf("hover on C1: %+v", h)
	}
	if h := Hover(v, ix, at("## Criteria")); h == nil || !strings.Contains(h.Markdown, "1/3 pass · 1 pending · 1 in-progress") || !strings.Contains(h.Markdown, "Ready next: C1, C3") {
		t.Errorf("hover on ## Criteria: %+v", h)
	}
	if ls := Lens(v); len(ls) != 1 || ls[0].Command.Title != "1/3 pass" || ls[0].Span.Start != at("## Criteria") {
		t.Errorf("lens: %+v", ls)
	}
	// The hints: C1's status is not the journal's last change of it (no
	// age), C2's pass is stale, C3's change to pending is three days old.
	now := time.Date(2026, 7, 6, 10, 0, 0, 0, time.UTC)
	var hints []string
	for _, h := range InlayHints(v, now) {
		hints = append(hints, fmt.Sprintf("%d:%s", ix.Position(h.At).Line, h.Label))
	}
	if got, want := strings.Join(hints, " "), fmt.Sprintf("%d:in-progress %d:⚠ stale pass %d:pending 3d ago",
		ix.Position(at("### C1")).Line, ix.Position(at("### C2")).Line, ix.Position(at("### C3")).Line); got != want {
		t.Errorf("inlay hints %s, want %s", got, want)
	}
	if h := InlayHints(v, now)[0]; h.At != at("### C1")+len("### C1. Edits survive") {
		t.Errorf("C1's hint at %d, not at the end of its heading", h.At)
	}
	actions := Actions(v, at("### C3"))
	if len(actions) == 0 {
		t.Error("no status action on C3")
	}
	for _, a := range actions {
		if a.Fix == nil || len(a.Fix.Edits) == 0 || a.Kind != "refactor.rewrite.charter.status" {
			t.Errorf("action %q: %+v", a.Title, a)
		}
	}
}
