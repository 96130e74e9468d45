package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// chartersFixture writes a .charters/<id>/ file-interface charter whose C2
// pass is stale (state.json dates it before the last source change) and
// whose journal records C1 failing twice.
func chartersFixture(t *testing.T) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	dir = filepath.Join(root, ".charters", "20260702-101500-sync")
	files := map[string]string{
		"charter.md": "# Charter: Sync\n\n## Objective\n\nShip sync.\n\n## Criteria\n\n### C1. Edits survive\nStatus: in-progress — two failures left\n\n### C2. Offline users never sync\nDepends: C1\nStatus: pass — checked\n",
		"state.json": `{"charterId": "20260702-101500-sync", "schemaVersion": "file-interface", "objective": "Ship sync", "status": "active",
"createdAt": "2026-07-02T10:15:00.000Z", "nextSeq": 9, "latestSourceSeq": 8, "snapshotHash": "0000",
"criteriaSnapshot": [{"id": "C2", "title": "Offline users never sync", "depends": ["C1"], "status": {"value": "pass", "note": "checked"}, "statusSeq": 3}]}`,
		"events.jsonl": `{"type":"criterion_changed","ts":"2026-07-03T10:00:00.000Z","charterId":"20260702-101500-sync","criterion":"C1","field":"status.value","old":"pending","new":"fail"}
{"type":"criterion_changed","ts":"2026-07-04T10:00:00.000Z","charterId":"20260702-101500-sync","criterion":"C1","field":"status.value","old":"pending","new":"fail"}
`,
	}
	testfixture.WriteFiles(t, dir, files)
	return root, dir
}

// A .charters/ folder is read once per change: hover, code lens, symbols,
// the check of each file, the status and the reading all take one view of
// it, which the next snapshot keeps while the folder is untouched; a
// keystroke in charter.md re-reads neither sidecar, and a change of
// state.json on disk reads that file again, once.
func TestChartersFolderReadOncePerChange(t *testing.T) {
	root, dir := chartersFixture(t)
	charter, state, events := filepath.Join(dir, "charter.md"), filepath.Join(dir, "state.json"), filepath.Join(dir, "events.jsonl")
	disk, sess, snap, doc, text := openCounted(t, root, charter)
	ctx := context.Background()

	var first *charterfile.View
	use := func(snap *workspace.Snapshot) *charterfile.View {
		t.Helper()
		var v *charterfile.View
		for i := 0; i < 10; i++ { // hover, lens, symbols, completion, …
			got, err := snap.ChartersView(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			if v != nil && got != v {
				t.Fatal("one snapshot built two views of the folder")
			}
			v = got
		}
		for _, p := range []string{charter, state, events} {
			if _, err := snap.Diagnostics(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := snap.Status(ctx, dir, time.Now()); err != nil {
			t.Fatal(err)
		}
		if r := snap.Reading(charter); r == nil || r.Generation != string(charterfile.FI15) {
			t.Fatalf("reading: %+v", r)
		}
		return v
	}
	first = use(snap)
	if !first.Stale["C2"] || first.FailCounts["C1"] != 2 {
		t.Fatalf("the view: stale %v, fail counts %v", first.Stale, first.FailCounts)
	}
	reads := func(p string) int {
		disk.mu.Lock()
		defer disk.mu.Unlock()
		return disk.reads[p]
	}
	if reads(state) != 1 || reads(events) != 1 || reads(charter) != 0 {
		t.Fatalf("reads: state.json %d, events.jsonl %d, charter.md %d; want 1, 1, 0 (charter.md is open)", reads(state), reads(events), reads(charter))
	}

	// A change elsewhere keeps the view.
	snap = sess.Update(workspace.Change{Disk: []string{filepath.Join(root, "src", "main.go")}})
	if v := use(snap); v != first {
		t.Fatal("a change outside the folder made a new view")
	}

	// A keystroke in charter.md: a new view, the sidecars not read again.
	next, err := doc.Apply(2, []workspace.TextChange{{Whole: true, Text: string(text) + "\n"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap = sess.Update(workspace.Change{Documents: []*workspace.Document{next}})
	second := use(snap)
	if second == first {
		t.Fatal("an edit of charter.md kept the old view")
	}
	if reads(state) != 1 || reads(events) != 1 {
		t.Fatalf("a keystroke read state.json %d and events.jsonl %d times in all; want 1 and 1", reads(state), reads(events))
	}

	// state.json changes on disk: read once more, the journal not.
	if err := os.WriteFile(state, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	snap = sess.Update(workspace.Change{Disk: []string{state}})
	if v := use(snap); v == second || v.Stale["C2"] {
		t.Fatal("the view did not follow state.json")
	}
	if reads(state) != 2 || reads(events) != 1 {
		t.Fatalf("after state.json changed: read %d and %d times; want 2 and 1", reads(state), reads(events))
	}
}
