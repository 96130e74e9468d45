package ids

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

func TestEachVAL(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"VAL-AUTH-001 passes", []string{"VAL-AUTH-001"}},
		{`t.Run("VAL-AUTH-001: logs in", f) // VAL-X`, []string{"VAL-AUTH-001", "VAL-X"}},
		{"see VAL-AUTH-001.", []string{"VAL-AUTH-001"}},
		{"VAL-AUTH-001-related", []string{}},   // runs into a word
		{"VAL-X-001-Title", []string{}},        // a heading would read VAL-X-001-T
		{"VAL-AUTH-001a VAL-auth", []string{}}, // glued, lower-case
		{"xVAL-A1 _VAL-A2 -VAL-A3", []string{}},
		{"VAL-A- and VAL-", []string{"VAL-A"}},
		{"VAL-A1é", []string{}},
		{"(VAL-A1,VAL-B2)", []string{"VAL-A1", "VAL-B2"}},
	} {
		got := []string{}
		EachVAL([]byte(tc.text), func(id string, sp source.Span) {
			if tc.text[sp.Start:sp.End] != id {
				t.Errorf("%q: span %v holds %q, not %q", tc.text, sp, tc.text[sp.Start:sp.End], id)
			}
			got = append(got, id)
		})
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("EachVAL(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestEachCriterion(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"### C1. Title", []string{"C1"}},
		{"Depends: C1, C12 C3", []string{"C1", "C12", "C3"}},
		{"RC4 C4a C4_x c4 C", []string{}},
		{"after C2's fix", []string{"C2"}},
	} {
		got := []string{}
		EachCriterion([]byte(tc.text), func(id string, _ source.Span) { got = append(got, id) })
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("EachCriterion(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		id   string
		ok   bool
	}{
		{VAL, "VAL-AUTH-010", true}, {VAL, "VAL-auth", false}, {VAL, "VAL-", false}, {VAL, "VAL-A B", false},
		{VAL, "VAL-A—x", false}, {VAL, "val-A", false},
		{Criterion, "C7", true}, {Criterion, "c7", false}, {Criterion, "C7.", false}, {Criterion, "C", false}, {Criterion, "C1a", false},
		{Milestone, "m2-rollout", true}, {Milestone, "a/b", false}, {Milestone, ".hidden", false}, {Milestone, "..", false},
	} {
		if got := Valid(tc.kind, tc.id); got != tc.ok {
			t.Errorf("Valid(%s, %q) = %v, want %v", tc.kind, tc.id, got, tc.ok)
		}
	}
}

// describe renders refs as "file:line:col role [quoted]", relative to root.
func describe(root string, refs []Ref) []string {
	var out []string
	for _, r := range refs {
		rel, _ := filepath.Rel(root, r.Path)
		s := fmt.Sprintf("%s:%d:%d %s", filepath.ToSlash(rel), r.Range.Start.Line+1, r.Range.Start.Character+1, r.Role)
		if r.Quoted {
			s += " quoted"
		}
		out = append(out, s)
	}
	return out
}

func TestInPiVAL(t *testing.T) {
	project, dir := testfixture.PiProject(t)
	testfixture.WriteFiles(t, dir, map[string]string{
		"work/m1-sessions/evidence/2026-11-11T10-15-00-000Z/narrative.md": "Ran the suite for VAL-SESS-001; VAL-SESS-0011 is another.\n",
	})
	d := pi.LoadDir(vfs.OS, dir)
	refs, err := InPi(context.Background(), vfs.OS, d, Target{Kind: VAL, ID: "VAL-SESS-001", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := describe(project, refs)
	want := []string{
		".pi/charters/auth-rework/criteria.md:5:5 definition",
		".pi/charters/auth-rework/criterion-state.json:4:6 state",
		".pi/charters/auth-rework/work/m1-sessions/evidence/2026-11-11T10-15-00-000Z/evidence.json:3:19 evidence",
		".pi/charters/auth-rework/work/m1-sessions/evidence/2026-11-11T10-15-00-000Z/narrative.md:1:19 evidence",
	}
	// REPORT.md and charter.md mention it too, when they do.
	for _, name := range []string{"REPORT.md", "charter.md"} {
		src, _ := os.ReadFile(filepath.Join(dir, name))
		ix := source.NewIndex(src)
		EachVAL(src, func(id string, sp source.Span) {
			if id == "VAL-SESS-001" {
				p := ix.Position(sp.Start)
				want = append(want, fmt.Sprintf(".pi/charters/auth-rework/%s:%d:%d mention", name, p.Line+1, p.Character+1))
			}
		})
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("refs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range refs {
		src, _ := os.ReadFile(r.Path)
		if s := string(src[r.Span.Start:r.Span.End]); s != "VAL-SESS-001" {
			t.Errorf("%s %v holds %q", r.Path, r.Span, s)
		}
	}
}

func TestInPiMilestone(t *testing.T) {
	project, dir := testfixture.PiProject(t)
	d := pi.LoadDir(vfs.OS, dir)
	refs, err := InPi(context.Background(), vfs.OS, d, Target{Kind: Milestone, ID: "m1-sessions", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(describe(project, refs), "\n")
	for _, want := range []string{
		".pi/charters/auth-rework/criteria.md:3:4 definition",
		"m1-sessions/evidence/2026-11-11T10-15-00-000Z/evidence.json",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("refs lack %s:\n%s", want, got)
		}
	}
}

// applyEdits applies edits to the files on disk.
func applyEdits(t *testing.T, edits []Edit) {
	t.Helper()
	byPath := map[string][]Edit{}
	for _, e := range edits {
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	for p, es := range byPath {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(es, func(i, j int) bool { return es[i].Span.Start > es[j].Span.Start })
		for _, e := range es {
			src = append(append(append([]byte{}, src[:e.Span.Start]...), e.NewText...), src[e.Span.End:]...)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRenameKeepsJSONValid(t *testing.T) {
	_, dir := testfixture.PiProject(t)
	// A key spelled with an escape is rewritten whole.
	st := filepath.Join(dir, "criterion-state.json")
	src, _ := os.ReadFile(st)
	src = []byte(strings.Replace(string(src), `"VAL-SESS-001"`, `"VAL\u002DSESS-001"`, 1))
	if err := os.WriteFile(st, src, 0o644); err != nil {
		t.Fatal(err)
	}
	d := pi.LoadDir(vfs.OS, dir)
	target := Target{Kind: VAL, ID: "VAL-SESS-001", Dir: dir}
	if err := CheckName(target, "VAL-SESS-010", "", func(k Kind, id string) string { return TakenInPi(d, k, id) }); err != nil {
		t.Fatal(err)
	}
	refs, err := InPi(context.Background(), vfs.OS, d, target)
	if err != nil {
		t.Fatal(err)
	}
	var history int
	edits := Edits(refs, "VAL-SESS-010")
	for _, e := range edits {
		if e.History {
			history++
		}
	}
	if history != 1 {
		t.Errorf("%d edits are history, want 1 (the evidence row)", history)
	}
	applyEdits(t, edits)
	for _, name := range []string{"criterion-state.json", "work/m1-sessions/evidence/2026-11-11T10-15-00-000Z/evidence.json"} {
		src, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if !json.Valid(src) {
			t.Errorf("%s is not JSON after the rename:\n%s", name, src)
		}
		if strings.Contains(string(src), "SESS-001\"") || !strings.Contains(string(src), `"VAL-SESS-010"`) {
			t.Errorf("%s was not renamed:\n%s", name, src)
		}
	}
	after := pi.LoadDir(vfs.OS, dir)
	if after.Criteria.Lookup("VAL-SESS-010") == nil || after.Criteria.Lookup("VAL-SESS-001") != nil {
		t.Errorf("criteria.md was not renamed")
	}
	if after.CriterionState.Entry("VAL-SESS-010") == nil {
		t.Errorf("criterion-state.json has no entry for the new id")
	}
}

func TestCheckName(t *testing.T) {
	_, dir := testfixture.PiProject(t)
	d := pi.LoadDir(vfs.OS, dir)
	taken := func(k Kind, id string) string { return TakenInPi(d, k, id) }
	target := Target{Kind: VAL, ID: "VAL-SESS-001", Dir: dir}
	for newID, want := range map[string]string{
		"VAL-SESS-002": "already a VAL of this charter (criteria.md line 11)",
		"VAL-ROLL-001": "already a VAL",
		"VAL-sess-9":   "is not a VAL id",
		"VAL-SESS-001": "is already called",
		"VAL-roll-002": "is not a VAL id",
	} {
		err := CheckName(target, newID, "", taken)
		var refused *Refused
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), want) {
			t.Errorf("rename to %s: %v, want a refusal saying %q", newID, err, want)
		}
	}
	m := Target{Kind: Milestone, ID: "m1-sessions", Dir: dir}
	if err := CheckName(m, "m2-rollout", "", taken); err == nil || !strings.Contains(err.Error(), "already a milestone") {
		t.Errorf("milestone onto m2-rollout: %v", err)
	}
	if err := CheckName(m, "_charter", "", taken); err == nil || !strings.Contains(err.Error(), "already holds evidence") {
		t.Errorf("milestone onto _charter (a folder of evidence): %v", err)
	}
}

const fi15Charter = `## Objective
Ship it.
## References
- ` + "`docs/spec.md`" + ` — requirements
- tools/check.sh
## Criteria
### C1. Active work is visible
Status: in-progress — after C1 lands, C2 follows
### C2. Verified work records evidence
Depends: C1
Depends: C3, C1
Status: pass — done
### C3. Third
Status: pending
`

func chartersDir(t *testing.T) string {
	root := t.TempDir()
	dir := filepath.Join(root, ".charters", "20260702-101500-ship-it")
	testfixture.WriteFiles(t, dir, map[string]string{
		"charter.md": fi15Charter,
		"state.json": `{
  "charterId": "20260702-101500-ship-it",
  "schemaVersion": "file-interface",
  "objective": "Ship it.",
  "status": "active",
  "criteriaSnapshot": [
    {"id": "C1", "title": "Active work is visible", "depends": [], "status": {"value": "in-progress", "note": "x"}, "statusSeq": 1},
    {"id": "C2", "title": "Verified", "depends": ["C1", "C3"], "status": {"value": "pass", "note": "done"}, "statusSeq": 2}
  ]
}
`,
		"events.jsonl": `{"type":"criterion_changed","ts":"2026-07-10T11:00:00.000Z","charterId":"x","seq":1,"criterion":"C1","field":"status.value","old":"pending","new":"in-progress","source":"external"}
{"type":"criterion_changed","ts":"2026-07-10T11:00:00.000Z","charterId":"x","seq":2,"criterion":"C2","field":"depends","old":"C3","new":"C1, C3","source":"external"}
{"type":"criterion_changed","ts":"2026-07-10T11:00:00.000Z","charterId":"x","seq":3,"criterion":"C2","field":"depends","old":["C3"],"new":["C1","C3"],"source":"external"}
`,
		"REPORT.md": "# Report\n\nC1 shipped; C10 did not.\n",
	})
	return dir
}

func TestInCharters(t *testing.T) {
	dir := chartersDir(t)
	d := charterfile.LoadDir(vfs.OS, dir)
	refs := InCharters(vfs.OS, d, "C1")
	got := describe(dir, refs)
	want := []string{
		"REPORT.md:3:1 mention",
		"charter.md:10:10 depends",
		"charter.md:11:14 depends",
		"charter.md:7:5 definition",
		"charter.md:8:29 mention",
		"events.jsonl:1:98 event",
		"events.jsonl:2:138 event",
		"events.jsonl:3:141 event",
		"state.json:7:13 state",
		"state.json:8:52 state",
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("refs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if why := TakenInCharters(d, "C3"); !strings.Contains(why, "already a criterion") {
		t.Errorf("C3 taken: %q", why)
	}
	if why := TakenInCharters(d, "C9"); why != "" {
		t.Errorf("C9 taken: %q", why)
	}
	// The rename keeps every JSON file and line valid and the charter read
	// the same but for the id.
	applyEdits(t, Edits(refs, "C7"))
	after := charterfile.LoadDir(vfs.OS, dir)
	if after.Charter.Criterion("C7") == nil || after.Charter.Criterion("C1") != nil {
		t.Fatalf("charter.md not renamed:\n%s", after.CharterSrc)
	}
	if deps := after.Charter.Criterion("C2").Depends; fmt.Sprint(deps) != "[C3 C7]" {
		t.Errorf("C2 depends on %v", deps)
	}
	if !after.State.Valid || after.State.CriteriaSnapshot[0].ID != "C7" || fmt.Sprint(after.State.CriteriaSnapshot[1].Depends) != "[C7 C3]" {
		t.Errorf("state.json: %+v", after.State.CriteriaSnapshot)
	}
	if len(after.Events.Bad) > 0 || len(after.Events.History) != 3 {
		t.Errorf("events.jsonl: %+v", after.Events)
	}
	if !strings.Contains(string(after.EventsSrc), `"old":"C3","new":"C7, C3"`) {
		t.Errorf("events.jsonl:\n%s", after.EventsSrc)
	}
}

func TestWalkCode(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{
		"src/auth/token.go":          "// VAL-A-1\n",
		"src/auth/token_test.go":     "",
		"src/notes.txt":              "VAL-A-1",
		"lib/util.ts":                "",
		"lib/util.test.ts":           "",
		"tests/e2e/login.py":         "",
		"app/test_login.py":          "",
		"node_modules/x/a.test.js":   "",
		".pi/charters/c/criteria.md": "",
		".github/x.test.js":          "",
		"docs/readme.md":             "",
	})
	if err := os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := WalkCode(context.Background(), vfs.OS, root, []string{"src"}, func(p string) {
		rel, _ := filepath.Rel(root, p)
		got = append(got, filepath.ToSlash(rel))
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := "[app/test_login.py lib/util.test.ts src/auth/token.go src/auth/token_test.go tests/e2e/login.py]"
	if fmt.Sprint(got) != want {
		t.Errorf("WalkCode = %v, want %s", got, want)
	}
}

func TestLinks(t *testing.T) {
	dir := chartersDir(t)
	d := charterfile.LoadDir(vfs.OS, dir)
	ix := source.NewIndex(d.CharterSrc)
	var got []string
	for _, l := range LinksCharters(d.Charter, d.CharterSrc, ix) {
		got = append(got, l.Path+"@"+string(d.CharterSrc[l.Span.Start:l.Span.End]))
	}
	if fmt.Sprint(got) != "[docs/spec.md@docs/spec.md tools/check.sh@tools/check.sh]" {
		t.Errorf("References links: %v", got)
	}
	// A link leads to a file that exists: docs/spec.md in the project
	// (the folder holding .charters/); tools/check.sh nowhere.
	project := filepath.Dir(filepath.Dir(dir))
	testfixture.WriteFiles(t, project, map[string]string{"docs/spec.md": "# Spec\n"})
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	if dl := DocumentLinksCharters(d, ix, exists); len(dl) != 1 || dl[0].Target != filepath.Join(project, "docs", "spec.md") || dl[0].Tooltip != "Open docs/spec.md" {
		t.Errorf("References document links: %+v", dl)
	}

	_, pdir := testfixture.PiProject(t)
	pd := pi.LoadDir(vfs.OS, pdir)
	testfixture.WriteFiles(t, pdir, map[string]string{})
	src := []byte("### VAL-A — t\nVerifier: command\nCommand: bun test --config=./bunfig.toml tests/auth.test.ts -t 'x' $HOME/a ../out.txt\n")
	pd.CriteriaFile = &pi.File{Path: filepath.Join(pdir, "criteria.md"), Src: src, Index: source.NewIndex(src)}
	pd.CriteriaDoc = pi.ParseCriteria(src)
	got = nil
	for _, l := range LinksPi(pd, pd.CriteriaFile.Path, src, pd.CriteriaFile.Index) {
		got = append(got, l.Path)
	}
	if fmt.Sprint(got) != "[bunfig.toml tests/auth.test.ts]" {
		t.Errorf("Command links: %v", got)
	}
	st := pd.CriterionStateFile
	got = nil
	for _, l := range LinksPi(pd, st.Path, st.Src, st.Index) {
		got = append(got, l.Path+" "+string(l.Base))
	}
	if len(got) == 0 || !strings.HasPrefix(got[0], "work/") {
		t.Errorf("criterion-state.json links: %v", got)
	}
}

// The cites lens counts places and files, and says nothing over a VAL no
// code cites.
func TestCitesLens(t *testing.T) {
	reg := pi.ParseCriteria([]byte("## m1 One\n### VAL-A-001 — a\nVerifier: manual\n### VAL-A-002 — b\nVerifier: manual\n### VAL-A-003 — c\nVerifier: manual\n"))
	cites := map[string][]Ref{
		"VAL-A-001": {{Path: "/p/a_test.go"}, {Path: "/p/b_test.go"}},
		"VAL-A-002": {{Path: "/p/a_test.go"}},
	}
	var got []string
	for _, l := range CitesLens(reg, cites) {
		got = append(got, fmt.Sprintf("%d:%s", l.Span.Start, l.Command.Title))
	}
	want := fmt.Sprintf("[%d:cited in 2 places (2 files) %d:cited in 1 place]", reg.Lookup("VAL-A-001").HeadingSpan().Start, reg.Lookup("VAL-A-002").HeadingSpan().Start)
	if fmt.Sprint(got) != want {
		t.Errorf("lenses %v, want %v", got, want)
	}
}

// A VAL cited in code that two charters of the project define: references
// gather both charters' places and the cite once, a rename is refused with
// the charters named, and the history notes say what is left alone.
func TestUseCodeAcrossCharters(t *testing.T) {
	project := t.TempDir()
	reg := "## m1 One\n### VAL-A-001 — a\nVerifier: manual\nBecause: b\n"
	for _, id := range []string{"a", "b"} {
		testfixture.WriteFiles(t, filepath.Join(project, ".pi", "charters", id), map[string]string{"criteria.md": reg})
	}
	code := "func TestA(t *testing.T) { // VAL-A-001\n"
	testfixture.WriteFiles(t, project, map[string]string{"src/a_test.go": code})
	var asked int
	charters := func() ([]*pi.Dir, error) {
		asked++
		return []*pi.Dir{pi.LoadDir(vfs.OS, filepath.Join(project, ".pi", "charters", "a")), pi.LoadDir(vfs.OS, filepath.Join(project, ".pi", "charters", "b"))}, nil
	}
	cite := Ref{Path: filepath.Join(project, "src", "a_test.go"), Span: source.Span{Start: 30, End: 39}, Role: RoleCite}
	cites := func(string) (map[string][]Ref, error) { return map[string][]Ref{"VAL-A-001": {cite}}, nil }
	path := filepath.Join(project, "src", "a_test.go")

	if use, err := UseCode(context.Background(), vfs.OS, path, []byte(code), 3, charters, cites); use != nil || err != nil || asked != 0 {
		t.Errorf("no id under the cursor: %+v %v, charters asked %d times", use, err, asked)
	}
	use, err := UseCode(context.Background(), vfs.OS, path, []byte(code), strings.Index(code, "VAL")+2, charters, cites)
	if err != nil || use == nil {
		t.Fatalf("use %+v %v", use, err)
	}
	var cited int
	for _, r := range use.Refs {
		if r.Path == cite.Path {
			cited++
		}
	}
	if len(use.Charters) != 2 || cited != 1 || len(use.Refs) != 3 {
		t.Errorf("charters %v, refs %+v", use.Charters, use.Refs)
	}
	var refused *Refused
	if err := use.Check("VAL-A-002"); !errors.As(err, &refused) || !strings.Contains(refused.Reason, "2 charters of this project define VAL-A-001 (a, b)") {
		t.Errorf("rename across charters: %v", err)
	}
	history := []Edit{{Path: filepath.Join(project, ".pi", "charters", "a", "work", "m1", "evidence.json"), History: true}}
	if kept, h := SplitHistory(append([]Edit{{Path: cite.Path}}, history...)); len(kept) != 1 || len(h) != 1 {
		t.Errorf("split %v %v", kept, h)
	}
	if note := use.HistoryLeftNote("VAL-A-002", history); !strings.Contains(note, "(1 place in m1/evidence.json)") {
		t.Errorf("left note %q", note)
	}
	if note := use.HistoryNote(1, "VAL-A-002"); !strings.Contains(note, "named in 1 place of the recorded evidence of a, b") {
		t.Errorf("history note %q", note)
	}
}
