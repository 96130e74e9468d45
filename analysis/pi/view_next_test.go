package pi

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// A view made from the one before (NextView) is the view NewView makes of
// the same files, whatever changed between them: the register (ids,
// fresh-evidence flags, a VAL repeated), criterion-state.json, the
// evidence, or the clock's reading. While the evidence and
// criterion-state.json stay, the latest results are taken over, not
// gathered again; files whose text is the same keep their parse
// (LoadOptions.Prev).
func TestNextViewMatchesNewView(t *testing.T) {
	path, dir, original := writeProject(t, gen.Project{Milestones: 3, VALs: 4, Runs: 40, State: true})
	statePath := filepath.Join(dir, "criterion-state.json")
	state, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	d0 := LoadDir(vfs.OS, dir)
	ev := d0.Evidence
	// A run committed with the newest source change is fresh however old:
	// the latest run of one fresh-required VAL is.
	committed := gen.ID(0, 1)
	withRun := evidenceFile(d0, LatestResults(d0)[committed])
	later := fixedClock{Time: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), Path: "/p/src/a.go", With: map[string]bool{withRun: true}}
	if _, stale := NewView(vfs.OS, d0, fixedClock{Time: later.Time}).StaleOf(d0.Criteria.Lookup(committed)); !stale {
		t.Fatalf("%s is not stale: the test sees nothing", committed)
	}
	if _, stale := NewView(vfs.OS, d0, later).StaleOf(d0.Criteria.Lookup(committed)); stale {
		t.Fatalf("%s is stale though its run was committed with the change", committed)
	}
	laterStill := fixedClock{Time: time.Date(2031, 6, 1, 0, 0, 0, 0, time.UTC)}
	shallow := fixedClock{Time: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), Shallow: true}
	id := gen.ID(1, 1)
	steps := []struct {
		name     string
		criteria []byte
		state    []byte // nil: as written
		reload   bool   // the evidence loaded again
		clock    SourceClock
		carried  bool
	}{
		{"first", original, nil, false, later, false},
		{"same files", original, nil, false, later, true},
		{"fresh flag dropped", bytes.Replace(original, []byte("Fresh evidence required: true\n"), nil, 1), nil, false, later, true},
		{"id renamed", bytes.Replace(original, []byte(id), []byte(id+"X"), 1), nil, false, later, true},
		{"VAL repeated", append(bytes.Clone(original), []byte("\n## m9-extra Extra\n\n### "+id+" — again\nVerifier: command\nCommand: go test ./...\nFresh evidence required: true\n")...), nil, false, later, true},
		{"clock moved", original, nil, false, laterStill, true},
		{"shallow clone", original, nil, false, shallow, true},
		{"criterion-state changed", original, bytes.Replace(state, []byte(`"pass"`), []byte(`"fail"`), 1), false, later, false},
		{"criterion-state again", original, bytes.Replace(state, []byte(`"pass"`), []byte(`"fail"`), 1), false, later, true},
		{"evidence loaded again", original, nil, true, later, false},
	}
	now := time.Date(2030, 2, 1, 0, 0, 0, 0, time.UTC)
	var prev *View
	for _, st := range steps {
		if err := os.WriteFile(path, st.criteria, 0o644); err != nil {
			t.Fatal(err)
		}
		s := state
		if st.state != nil {
			s = st.state
		}
		if err := os.WriteFile(statePath, s, 0o644); err != nil {
			t.Fatal(err)
		}
		if st.reload {
			ev = LoadDir(vfs.OS, dir).Evidence
		}
		var prevDir *Dir
		if prev != nil {
			prevDir = prev.Dir
		}
		// A register whose text is the last one's keeps its parse, as the
		// server's parser keeps the criteria of the blocks a keystroke
		// left alone: the staleness verdicts are then prev's lists.
		keep := func(_ string, src []byte) *Criteria {
			if prevDir != nil && bytes.Equal(src, prevDir.CriteriaFile.Src) {
				return prevDir.CriteriaDoc
			}
			return ParseCriteria(src)
		}
		d := LoadDirWith(vfs.OS, dir, LoadOptions{Evidence: ev, Prev: prevDir, Criteria: keep})
		next := NextView(prev, vfs.OS, d, st.clock)
		fresh := NewView(vfs.OS, LoadDirWith(vfs.OS, dir, LoadOptions{Evidence: ev}), st.clock)
		loaded := *d
		if prevDir != nil && d.CriteriaDoc == prevDir.CriteriaDoc {
			// The kept parse has its index built; the same text's.
			loaded.Criteria, loaded.CriteriaDoc = fresh.Dir.Criteria, fresh.Dir.CriteriaDoc
		}
		if !reflect.DeepEqual(&loaded, fresh.Dir) {
			t.Errorf("%s: the directory loaded after the one before differs from a new load", st.name)
		}
		if prevDir != nil && bytes.Equal(prevDir.CriterionStateFile.Src, d.CriterionStateFile.Src) && d.CriterionState != prevDir.CriterionState {
			t.Errorf("%s: criterion-state.json parsed again though unchanged", st.name)
		}
		if carried := prev != nil && next.carry == prev.carry; carried != st.carried {
			t.Errorf("%s: latest results taken over: %v, want %v", st.name, carried, st.carried)
		}
		if !reflect.DeepEqual(next.Latest, fresh.Latest) {
			t.Errorf("%s: latest results differ from a new view's", st.name)
		}
		if !reflect.DeepEqual(next.Stale, fresh.Stale) || !reflect.DeepEqual(next.Unjudged, fresh.Unjudged) {
			t.Errorf("%s: stale %d, unjudged %d; a new view: %d, %d", st.name, len(next.Stale), len(next.Unjudged), len(fresh.Stale), len(fresh.Unjudged))
		}
		for i, c := range d.Criteria.Criteria {
			a, aok := next.StaleOf(c)
			b, bok := fresh.StaleOf(fresh.Dir.Criteria.Criteria[i]) // the same block in the new load
			if aok != bok || !reflect.DeepEqual(a, b) {
				t.Errorf("%s: StaleOf(%s) = %v, %v; a new view: %v, %v", st.name, c.ID, a, aok, b, bok)
			}
		}
		// The check, with the stale messages it takes over, is a new
		// view's.
		got := Check(context.Background(), next, Options{Now: now})
		want := Check(context.Background(), fresh, Options{Now: now})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the check of the next view differs from a new view's", st.name)
		}
		if len(fresh.Stale) == 0 && st.name == "first" {
			t.Fatalf("%s: nothing stale: the test sees nothing", st.name)
		}
		prev = next
	}
}

// Where an id repeats, each block answers for itself (upstream's drift
// judges each parsed criterion on its own fresh-evidence line): a later
// stale block does not make the first one stale, and the id counts as
// having a stale block.
func TestStaleOfRepeatedID(t *testing.T) {
	a, b := &Criterion{parsedCriterion: &parsedCriterion{ID: "VAL-A-001"}}, &Criterion{parsedCriterion: &parsedCriterion{ID: "VAL-A-001"}}
	v := &View{Stale: []StaleEvidence{{Criterion: b}}}
	if _, ok := v.StaleOf(a); ok {
		t.Error("the first block is stale because a later block of its id is")
	}
	if se, ok := v.StaleOf(b); !ok || se.Criterion != b {
		t.Errorf("StaleOf(later block) = %v, %v; want its entry", se.Criterion, ok)
	}
	if !v.anyStale("VAL-A-001") || v.anyStale("VAL-A-002") {
		t.Error("anyStale does not say which ids have a stale block")
	}
}

// A view made from the one before when the register was parsed again by a
// CriteriaParser, which keeps the parse of the blocks and the VALs an edit
// left alone, judges staleness as a new view does: an edit of a later VAL
// of a milestone (its id, its fresh-evidence flag) is seen though the
// milestone's first VALs are the same parse as before.
func TestNextViewAfterEditsInAMilestone(t *testing.T) {
	path, dir, original := writeProject(t, gen.Project{Milestones: 3, VALs: 4, Runs: 40})
	clock := fixedClock{Time: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	// The last VAL of milestone 1 that needs fresh evidence.
	last := ""
	for v := range 4 {
		id := gen.ID(1, v)
		at := bytes.Index(original, []byte("### "+id+" "))
		body := original[at:]
		if end := bytes.Index(body[1:], []byte("\n#")); end >= 0 {
			body = body[:end+1]
		}
		if bytes.Contains(body, []byte("Fresh evidence required: true")) {
			last = id
		}
	}
	if last == "" || last == gen.ID(1, 0) {
		t.Fatalf("no later VAL of milestone 1 needs fresh evidence (%q): the test sees nothing", last)
	}
	at := bytes.Index(original, []byte("### "+last+" "))
	flag := at + bytes.Index(original[at:], []byte("Fresh evidence required: true\n"))
	steps := []struct {
		name     string
		criteria []byte
	}{
		{"first", original},
		{"id renamed", bytes.Replace(original, []byte("### "+last+" "), []byte("### "+last+"X "), 1)},
		{"back", original},
		{"fresh flag dropped", append(slices.Clone(original[:flag]), original[flag+len("Fresh evidence required: true\n"):]...)},
		{"back again", original},
	}
	ev := LoadDir(vfs.OS, dir).Evidence
	var parser CriteriaParser
	var prev *View
	for _, st := range steps {
		if err := os.WriteFile(path, st.criteria, 0o644); err != nil {
			t.Fatal(err)
		}
		var prevDir *Dir
		if prev != nil {
			prevDir = prev.Dir
		}
		d := LoadDirWith(vfs.OS, dir, LoadOptions{Evidence: ev, Prev: prevDir,
			Criteria: func(_ string, src []byte) *Criteria { return parser.Parse(src) }})
		next := NextView(prev, vfs.OS, d, clock)
		fresh := NewView(vfs.OS, LoadDirWith(vfs.OS, dir, LoadOptions{Evidence: ev}), clock)
		if !reflect.DeepEqual(next.Stale, fresh.Stale) || !reflect.DeepEqual(next.Unjudged, fresh.Unjudged) {
			t.Errorf("%s: stale %d, unjudged %d; a new view: %d, %d", st.name, len(next.Stale), len(next.Unjudged), len(fresh.Stale), len(fresh.Unjudged))
		}
		if st.name == "first" && !slices.ContainsFunc(fresh.Stale, func(se StaleEvidence) bool { return se.Criterion.ID == last }) {
			t.Fatalf("%s is not stale: the test sees nothing", last)
		}
		prev = next
	}
}

// writeProject writes p for a test: its criteria.md, the charter
// directory and criteria.md's text.
func writeProject(t *testing.T, p gen.Project) (path, dir string, text []byte) {
	t.Helper()
	path, err := p.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	text, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, filepath.Dir(path), text
}
