package charterfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// folder is a .charters/<id> folder for a test: its files by name, and its
// name ("" for a valid id).
type folder struct {
	name  string
	files map[string]string
}

const (
	stateFI     = `{"charterId":"20260702-101500-example","schemaVersion":"file-interface","objective":"x","status":"active"}`
	statePhases = `{"charterId":"20260702-101500-example","schemaVersion":"phases","objective":"x","status":"active"}`
	// phasesEraJournal holds an event only the phases-era pi-charter writes.
	phasesEraJournal = `{"type":"charter_file_changed","ts":"2026-07-20T10:05:00.000Z","charterId":"20260702-101500-example","previousHash":"a","snapshotHash":"b"}` + "\n"
)

// fi15 and obj build folders with a valid state.json.
func fi15(charter string) folder {
	return folder{files: map[string]string{CharterFile: charter, StateFile: stateFI}}
}

func obj(charter string) folder {
	return folder{files: map[string]string{CharterFile: charter, StateFile: statePhases}}
}

func (f folder) with(name, content string) folder {
	files := map[string]string{}
	for k, v := range f.files {
		files[k] = v
	}
	files[name] = content
	return folder{name: f.name, files: files}
}

func (f folder) write(t *testing.T) string {
	t.Helper()
	name := f.name
	if name == "" {
		name = "20260702-101500-example"
	}
	dir := filepath.Join(t.TempDir(), ".charters", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for n, content := range f.files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// codesIn checks the folder and returns its diagnostics of code, by file.
func codesIn(t *testing.T, f folder, code diag.Code) (dir string, found map[string][]diag.Diagnostic) {
	t.Helper()
	dir = f.write(t)
	found = map[string][]diag.Diagnostic{}
	for p, ds := range Check(LoadDir(vfs.OS, dir)) {
		for _, d := range ds {
			if d.Code == code {
				found[filepath.Base(p)] = append(found[filepath.Base(p)], d)
			}
		}
	}
	return dir, found
}

func count(m map[string][]diag.Diagnostic) int {
	n := 0
	for _, ds := range m {
		n += len(ds)
	}
	return n
}

// codeCase is a code's trigger and its near miss: input that differs in
// the one respect the code is about and must not trigger it.
type codeCase struct {
	code     diag.Code
	trigger  folder
	nearMiss folder
	// fix: the first diagnostic has a quick fix, and applying it removes
	// that diagnostic.
	fix bool
}

var codeCases = []codeCase{
	// Upstream's warnings.
	{code: diag.ObjectiveMissing, trigger: fi15("## Criteria\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n")},
	{code: diag.ObjectiveMissing, trigger: obj("## Scope\nx\n"), nearMiss: obj("# Objective\nx\n## Scope\nx\n")},
	{code: diag.ObjectiveEmpty, trigger: obj("# Objective\n\n## Scope\nx\n"), nearMiss: obj("# Objective\nx\n## Scope\nx\n")},
	{code: diag.ObjectiveEmpty, trigger: fi15("## Objective\n<!-- guidance -->\n## Criteria\n"), nearMiss: fi15("## Objective\nx <!-- guidance -->\n## Criteria\n")},
	{code: diag.CriteriaSectionMissing, trigger: fi15("## Objective\nx\n### C1. T\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## criteria\n### C1. T\nStatus: pending\n"), fix: true},
	{code: diag.CriteriaSectionMissing, trigger: fi15("## Objective\r\nx\r\nStatus: draft"), nearMiss: fi15("## Objective\r\nx\r\n## Criteria"), fix: true},
	{code: diag.CriterionPassEmptyNote, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pass\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pass — ran it\n")},
	{code: diag.CriterionStatusUnknown, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: done — ran it\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pass — ran it\n"), fix: true},
	{code: diag.CriterionStatusUnknown, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: in progress\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: in-progress\n"), fix: true},
	{code: diag.CriterionStatusMissing, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nbody\n\n### C2. U\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nbody\nStatus:\n")},
	{code: diag.CriterionStatusMissing, trigger: folder{files: map[string]string{CharterFile: "## Objective\r\nx\r\n## Criteria\r\n### C1. T\r\nbody\r\n", StateFile: stateFI}},
		nearMiss: folder{files: map[string]string{CharterFile: "## Objective\r\nx\r\n## Criteria\r\n### C1. T\r\nbody\r\nEvidence:\r\n", StateFile: stateFI}}, fix: true},
	{code: diag.CriterionStatusDuplicate, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\nStatus: pass — x\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n### C2. U\nStatus: pass — x\n")},
	{code: diag.CriterionStatusAndEvidence, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\nEvidence: pass — x\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\nThe evidence: pass — x\n")},
	{code: diag.CriterionDuplicateID, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n### C1. U\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n### C11. U\nStatus: pending\n")},
	{code: diag.DependsUnknown, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nDepends: C2\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nDepends: C2\nStatus: pending\n### C2. U\nStatus: pending\n")},
	{code: diag.DependsSelf, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nDepends: C1\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nDepends: C11\nStatus: pending\n### C11. U\nStatus: pending\n"), fix: true},
	{code: diag.DependsCycle, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nDepends: C2\nStatus: pending\n### C2. U\nDepends: C1\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nDepends: C2\nStatus: pending\n### C2. U\nStatus: pending\n")},

	// What upstream reads silently.
	{code: diag.CriterionHeadingNearMiss, trigger: fi15("## Objective\nx\n## Criteria\n### C1: T\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n"), fix: true},
	{code: diag.CriterionHeadingNearMiss, trigger: fi15("## Objective\nx\n## Criteria\n#### c1 T\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n#### Close out\nStatus: pending\n"), fix: true},
	{code: diag.CriterionLabelVariant, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\n**Status**: pass — ran it\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nSTATUS: pass — ran it\n"), fix: true},
	{code: diag.CriterionLabelVariant, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\n- Depends: C2\nStatus: pending\n### C2. U\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\n- Depends on the exporter.\nStatus: pending\n### C2. U\nStatus: pending\n"), fix: true},
	{code: diag.CriterionLineCRLF, trigger: fi15("## Objective\r\nx\r\n## Criteria\r\n### C1. T\r\nStatus: pass — ran it\r\n"), nearMiss: fi15("## Objective\r\nx\r\n## Criteria\r\n### C1. T\r\nStatus:\r\n"), fix: true},
	{code: diag.DependsToken, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nDepends: none\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending — none\n"), fix: true},
	{code: diag.DependsToken, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n### C2. U\nDepends: c1\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n### C2. U\nDepends: C1\nStatus: pending\n"), fix: true},
	{code: diag.NoteContinuation, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: fail — slow\nmeasured on staging\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: fail — slow\n\nmeasured on staging\n")},
	{code: diag.NoteContinuation, trigger: folder{files: map[string]string{CharterFile: "## Objective\nx\n## Criteria\n### C1. T\nEvidence: none\n### C2. U\nEvidence: none\nDepends: C1\n\n", StateFile: stateFI}},
		nearMiss: folder{files: map[string]string{CharterFile: "## Objective\nx\n## Criteria\n### C1. T\nEvidence: none\n### C2. U\nDepends: C1\nEvidence: none\n\n", StateFile: stateFI}}, fix: true},
	{code: diag.CriterionOutsideCriteria, trigger: fi15("## Objective\nx\n### C1. T\nStatus: pending\n## Criteria\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n")},
	{code: diag.CriterionOutsideCriteria, trigger: fi15("## Objective\nx\n## Criteria\n```\n### C1. T\n```\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n```\n    ### C1. T\n```\n")},
	{code: diag.LegacyEvidenceLine, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\nEvidence: pass — ran it\n### C2. U\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pass — ran it\n### C2. U\nStatus: pending\n"), fix: true},
	{code: diag.DuplicateObjective, trigger: fi15("## Objective\nx\n## Objective\ny\n## Criteria\n"), nearMiss: fi15("## Objective\nx\n## Objectives\ny\n## Criteria\n")},
	{code: diag.DuplicateObjective, trigger: obj("# Objective\nx\n# Objective\ny\n"), nearMiss: obj("# Objective\nx\n## Objective\ny\n")},
	{code: diag.PhaseSuffixVariant, trigger: obj("# Objective\nx\n## Phases\n1. Build - done\n"), nearMiss: obj("# Objective\nx\n## Phases\n1. Build — done\n"), fix: true},
	{code: diag.PhaseSuffixVariant, trigger: obj("# Objective\nx\n## Phases\n1. Build — in progress\n"), nearMiss: obj("# Objective\nx\n## Phases\n1. Build the add-on\n"), fix: true},
	{code: diag.PhaseItemShape, trigger: obj("# Objective\nx\n## Phases\n1. A — done\n2) B\n"), nearMiss: obj("# Objective\nx\n## Phases\n1. A — done\n2. B\n"), fix: true},
	{code: diag.PhaseItemShape, trigger: obj("# Objective\nx\n## Phases\n1. A — done\n 2. B\n"), nearMiss: obj("# Objective\nx\n## Phases\n1. A — done\n   2. a nested step\n"), fix: true},
	// With ## Notes inside the Objective only a phases-era journal makes it
	// a phases charter (Decide); the near miss is today's reading of it.
	{code: diag.NotesInObjective, trigger: obj("# Objective\nx\n## Notes\ny\n## Phases\n1. A\n").with(EventsFile, phasesEraJournal),
		nearMiss: obj("# Objective\nx\n## Notes\ny\n## Phases\n1. A\n")},
	{code: diag.PhaseBodyBreak, trigger: obj("# Objective\nx\n## Phases\n1. A — done\n   ran it\nthen\n   again\n2. B\n"), nearMiss: obj("# Objective\nx\n## Phases\n1. A — done\n   ran it\n   then\n   again\n2. B\n"), fix: true},
	{code: diag.ObjectiveHeadingShape, trigger: obj("# Objective:\nx\n"), nearMiss: obj("# objective\nx\n"), fix: true},
	{code: diag.ObjectiveHeadingShape, trigger: fi15("### Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n"), nearMiss: fi15("# Charter: Objective\n## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n"), fix: true},
	{code: diag.ReservedHeadingInFence, trigger: obj("# Objective\nx\n```md\n## Scope\n```\n"), nearMiss: obj("# Objective\nx\n```md\n### Scope\n```\n")},
	{code: diag.ReservedHeadingInFence, trigger: fi15("## Objective\nx\n## Criteria\n### C1. T\n```sh\n# run\nmake\n```\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\n```sh\n#run\nmake\n```\nStatus: pending\n")},
	{code: diag.DuplicateSection, trigger: obj("# Objective\nx\n## Scope\na\n## Scope\nb\n"), nearMiss: obj("# Objective\nx\n## Scope\na\n### Scope\nb\n")},
	{code: diag.InertGrammar, trigger: obj("# Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n"), nearMiss: obj("# Objective\nx\n## Criterion\nStatus: pending\n")},

	// state.json and events.jsonl.
	{code: diag.StateInvalid, trigger: obj("# Objective\nx\n").with(StateFile, `{"charterId":"20260702-101500-example","schemaVersion":"phases","objective":"x","status":"done"}`),
		nearMiss: obj("# Objective\nx\n").with(StateFile, `{"charterId":"20260702-101500-example","schemaVersion":"phases","objective":"x","status":"completed"}`), fix: true},
	{code: diag.StateInvalid, trigger: folder{files: map[string]string{CharterFile: "# Objective\nx\n"}}, nearMiss: obj("# Objective\nx\n")},
	{code: diag.CharterIDShape, trigger: obj("# Objective\nx\n").with(StateFile, `{"charterId":"20260702-101500-other","schemaVersion":"phases","objective":"x","status":"active"}`),
		nearMiss: obj("# Objective\nx\n"), fix: true},
	{code: diag.CharterIDShape, trigger: folder{name: "my-charter", files: map[string]string{CharterFile: "# Objective\nx\n", StateFile: `{"charterId":"my-charter","schemaVersion":"phases","objective":"x","status":"active"}`}},
		nearMiss: folder{name: "20260702-101500-my-charter-2", files: map[string]string{CharterFile: "# Objective\nx\n", StateFile: `{"charterId":"20260702-101500-my-charter-2","schemaVersion":"phases","objective":"x","status":"active"}`}}},
	{code: diag.EventsLineInvalid, trigger: obj("# Objective\nx\n").with(EventsFile, "{\"type\":\"charter_created\"}\n{\"type\":\n"),
		nearMiss: obj("# Objective\nx\n").with(EventsFile, "{\"type\":\"charter_created\"}\n\n{\"type\":\"charter_paused\"}\r\n")},
	{code: diag.GenerationMismatch, trigger: obj("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n"), nearMiss: fi15("## Objective\nx\n## Criteria\n### C1. T\nStatus: pending\n")},
}

// parserOnly are upstream warnings that Check never reports: the era that
// gives them is never chosen for a file that would get them (Decide).
var parserOnly = map[diag.Code]bool{
	// ADR-0016/0017's warning for a charter without ## Phases, which is
	// read with today's Objective-only grammar instead (TestPhasesSectionMissing).
	diag.PhasesSectionMissing: true,
}

// TestCodes: every .charters/ code has a case; each trigger reports its
// code, its near miss does not, and a quick fix removes what it fixes.
func TestCodes(t *testing.T) {
	covered := map[diag.Code]bool{}
	for _, c := range codeCases {
		covered[c.code] = true
	}
	for _, r := range diag.Rules {
		if (r.Family == "charters" || r.Family == "charters-sidecar") && !covered[r.Code] && !parserOnly[r.Code] {
			t.Errorf("%s has no trigger and near miss in codeCases", r.Code)
		}
	}
	for i, c := range codeCases {
		t.Run(c.code.String(), func(t *testing.T) {
			dir, got := codesIn(t, c.trigger, c.code)
			if count(got) == 0 {
				t.Fatalf("case %d: trigger does not report %s", i, c.code)
			}
			if _, near := codesIn(t, c.nearMiss, c.code); count(near) > 0 {
				t.Fatalf("case %d: near miss reports %s: %v", i, c.code, near)
			}
			if !c.fix {
				return
			}
			applyFirstFix(t, dir, got, c.code)
		})
	}
}

// applyFirstFix applies the quick fix of the first diagnostic, then checks
// that the diagnostic is gone and that the fix made no new error.
func applyFirstFix(t *testing.T, dir string, got map[string][]diag.Diagnostic, code diag.Code) {
	t.Helper()
	var file string
	var d diag.Diagnostic
	for f, ds := range got {
		if ds[0].Fix != nil {
			file, d = f, ds[0]
		}
	}
	if d.Fix == nil {
		t.Fatalf("no quick fix on %v", got)
	}
	before := Check(LoadDir(vfs.OS, dir))
	p := filepath.Join(dir, file)
	src, _ := os.ReadFile(p)
	fixed, err := diag.ApplyEdits(src, d.Fix.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, fixed, 0o644); err != nil {
		t.Fatal(err)
	}
	after := Check(LoadDir(vfs.OS, dir))
	if n, m := len(only(before[p], code)), len(only(after[p], code)); m >= n {
		t.Errorf("fix %q left %d %s (was %d):\n%s", d.Fix.Title, m, code, n, fixed)
	}
	errors := func(ds map[string][]diag.Diagnostic) int {
		n := 0
		for _, l := range ds {
			for _, x := range l {
				if x.Severity == diag.SeverityError {
					n++
				}
			}
		}
		return n
	}
	if errors(after) > errors(before) {
		t.Errorf("fix %q added an error:\n%s\n%v", d.Fix.Title, fixed, after)
	}
	if strings.Contains(string(fixed), "\x00") {
		t.Error("fix wrote a NUL")
	}
}

func only(ds []diag.Diagnostic, code diag.Code) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// TestPhasesSectionMissing: a charter whose phases heading is not the
// phases grammar's "## Phases" is read as today's pi-charter reads it, and
// gets none of the phases grammar's warnings; the ADR-0016/0017 parser
// itself still gives its warning.
func TestPhasesSectionMissing(t *testing.T) {
	for _, text := range []string{
		"# Objective\nx\n### Phases\n1. A — done\n",
		"# Objective\nx\n## Phase plan\n1. A — done\n",
		"# Objective\nShip it.\n## Phase 1: discovery\nTalk to users.\n",
		"# Objective\nShip it.\n## Notes\nThe old plan:\n## Phases\n1. Explore — done\n",
		"# Objective\nShip it.\n## Scope\nCore.\n## Notes\n### Phases\n1. Explore — done\n",
	} {
		folders := []folder{obj(text), {files: map[string]string{CharterFile: text}}}
		if !strings.Contains(text, "\n## Phases\n") {
			// Not even a phases-era journal makes it a phases charter.
			folders = append(folders, obj(text).with(EventsFile, phasesEraJournal))
		}
		for _, f := range folders {
			d := LoadDir(vfs.OS, f.write(t))
			if d.Era.Generation != OBJ {
				t.Errorf("%q (%v) is read as %s: %v", text, f.files, d.Era.Generation, d.Era.Strings())
			}
			for _, ds := range Check(d) {
				for _, dg := range ds {
					if strings.HasPrefix(dg.Code.String(), "phase") || dg.Code == diag.NotesInObjective || dg.Code.Rule().Upstream && dg.Code != diag.ObjectiveMissing && dg.Code != diag.ObjectiveEmpty {
						t.Errorf("%q: %s %s", text, dg.Code, dg.Message)
					}
				}
			}
		}
		if ws := ParsePhases([]byte(text)).Warnings; !strings.Contains(text, "\n## Phases\n") && (len(ws) != 1 || ws[0].Code != diag.PhasesSectionMissing) {
			t.Errorf("the phases parser's warnings on %q: %v", text, ws)
		}
	}
}
