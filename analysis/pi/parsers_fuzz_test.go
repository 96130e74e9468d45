package pi

import (
	"context"
	"io/fs"
	"path"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/internal/hostile"
)

// Fuzz targets for the parsers fuzz_test.go does not cover on their own,
// and for a whole charter directory checked end to end. Seed corpora live
// in testdata/fuzz/<target>; failures found by `make fuzz` land there too.

func spanOK(t *testing.T, what string, n int, s source.Span) {
	t.Helper()
	if s.Start < 0 || s.End < s.Start || s.End > n {
		t.Fatalf("%s span %+v outside [0,%d]", what, s, n)
	}
}

func checkProblems(t *testing.T, src []byte, problems []JSONProblem) {
	t.Helper()
	for _, p := range problems {
		spanOK(t, "problem", len(src), p.Span)
		if p.Message == "" || p.Code.Rule() == nil {
			t.Fatalf("problem %+v: empty message or unknown code", p)
		}
	}
}

func checkObject(t *testing.T, src []byte, o *JSONObject) {
	t.Helper()
	if o == nil {
		return
	}
	spanOK(t, "object", len(src), o.Span)
	for _, m := range o.Members {
		spanOK(t, "member key", len(src), m.KeySpan)
		spanOK(t, "member value", len(src), m.ValueSpan)
	}
}

func FuzzParseCriterionState(f *testing.F) {
	seedFiles(f, ".json")
	f.Fuzz(func(t *testing.T, src []byte) {
		st, problems := ParseCriterionState(src)
		checkProblems(t, src, problems)
		if st == nil {
			if len(problems) == 0 {
				t.Fatal("no state and no problem")
			}
			return
		}
		checkObject(t, src, st.Object)
		for _, e := range st.Entries {
			spanOK(t, "entry key", len(src), e.KeySpan)
			checkObject(t, src, e.Object)
			if got := st.Entry(e.ID); got == nil || got.ID != e.ID {
				t.Fatalf("Entry(%q) = %+v", e.ID, got)
			}
		}
	})
}

func FuzzParseState(f *testing.F) {
	seedFiles(f, ".json")
	f.Fuzz(func(t *testing.T, src []byte) {
		st, problems := ParseState(src)
		checkProblems(t, src, problems)
		if st == nil {
			if len(problems) == 0 {
				t.Fatal("no state and no problem")
			}
			return
		}
		checkObject(t, src, st.Object)
		if want, _ := NormalizeStatus(st.RawStatus); st.Status != want {
			t.Fatalf("status %q, want %q from %q", st.Status, want, st.RawStatus)
		}
	})
}

func FuzzParseReport(f *testing.F) {
	seedFiles(f, ".md")
	f.Fuzz(func(t *testing.T, src []byte) {
		r := ParseReport(src)
		spanOK(t, "title", len(src), r.TitleSpan)
		for _, name := range ReportSectionNames {
			if s := r.Section(name); s != nil {
				spanOK(t, name+" heading", len(src), s.HeadingSpan)
				spanOK(t, name+" body", len(src), s.BodySpan)
				if s.BodySpan.Start < s.HeadingSpan.Start {
					t.Fatalf("%s body %+v before its heading %+v", name, s.BodySpan, s.HeadingSpan)
				}
			}
		}
	})
}

// FuzzCheckDir checks a whole charter directory whose files come from the
// fuzzer: whatever they hold, Check returns diagnostics with known codes and
// spans inside the file each belongs to.
func FuzzCheckDir(f *testing.F) {
	f.Add([]byte("# C\n\n## Objective\nx\n\n## Commands\n- Test: rm -rf /\n"),
		[]byte("## Milestone M1\n### VAL-A\n- **Verifier:** go test ./...\n"),
		[]byte(`{"criteria":{"VAL-A":{"outcome":"pass"}}}`),
		[]byte(`[{"criterionId":"VAL-A","outcome":"pass","ts":"2026-01-01T00:00:00.000Z"}]`),
		[]byte("# R\n## Objective\n## Outcome\n## Notes\n"))
	f.Add([]byte{}, []byte("\xff\x00### VAL-\n"), []byte("{"), []byte("[1,"), []byte("##"))
	f.Fuzz(func(t *testing.T, charter, criteria, cstate, evidence, report []byte) {
		const dir = "/p/.pi/charters/c"
		files := map[string][]byte{
			dir + "/charter.md":           charter,
			dir + "/criteria.md":          criteria,
			dir + "/criterion-state.json": cstate,
			dir + "/REPORT.md":            report,
			dir + "/state.json":           cstate,
			dir + "/work/_charter/evidence/2026-01-01T00-00-00-000Z/evidence.json": evidence,
		}
		fsys := memFS{}
		for p, b := range files {
			fsys[strings.TrimPrefix(p, "/")] = &fstest.MapFile{Data: b, ModTime: time.Unix(1, 0)}
		}
		d := LoadDir(fsys, dir)
		out := Check(context.Background(), viewOf(fsys, d), Options{Now: time.Unix(2e9, 0)})
		for file, ds := range out {
			src, ok := files[file]
			if !ok {
				t.Fatalf("diagnostics for %s, which is not in the directory", file)
			}
			for _, x := range ds {
				spanOK(t, x.Code.String(), len(src), x.Span)
				if x.Code.Rule() == nil {
					t.Fatalf("code %q not in the catalogue", x.Code)
				}
			}
		}
	})
}

// memFS is an in-memory vfs.FS keyed by absolute path without the leading
// slash (as fstest.MapFS wants).
type memFS fstest.MapFS

func (m memFS) name(p string) string {
	if p = strings.TrimPrefix(path.Clean(p), "/"); p == "" {
		return "."
	}
	return p
}
func (m memFS) ReadFile(p string) ([]byte, error)       { return fstest.MapFS(m).ReadFile(m.name(p)) }
func (m memFS) Stat(p string) (fs.FileInfo, error)      { return fstest.MapFS(m).Stat(m.name(p)) }
func (m memFS) ReadDir(p string) ([]fs.DirEntry, error) { return fstest.MapFS(m).ReadDir(m.name(p)) }

// FuzzRuns lays a unit out many times (on one line, as lines, or nested)
// in a VAL's heading, body and fields, in charter.md's Objective and
// Commands and in REPORT.md, and checks the whole folder: spans stay in
// their files, codes are in the catalogue, no code is reported more than
// diag.MaxPerCode times, and the work allocates in proportion to the text.
func FuzzRuns(f *testing.F) {
	hostile.FuzzRuns(f, func(t *testing.T, run string) {
		const dir = "/p/.pi/charters/c"
		files := map[string][]byte{
			dir + "/criteria.md": []byte("# Criteria\n\n## m1 " + run + "\n\n### VAL-A-001 " + run + "\n" + run + "\nVerifier: command\nCommand: " + run + "\n\n### VAL-A-002 T\n" + run + "\n"),
			dir + "/charter.md":  []byte("# Charter: F\n\n## Objective\n\n" + run + "\n\n## Commands\n\n" + run + "\n"),
			dir + "/REPORT.md":   []byte("# F\n\n## Objective\n\n" + run + "\n\n## Outcome\n\n" + run + "\n\n## Notes\n"),
			dir + "/state.json":  []byte(`{"charterId":"c","status":"active"}`),
		}
		fsys := memFS{}
		size := 0
		for p, b := range files {
			fsys[strings.TrimPrefix(p, "/")] = &fstest.MapFile{Data: b, ModTime: time.Unix(1, 0)}
			size += len(b)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out := Check(context.Background(), viewOf(fsys, LoadDir(fsys, dir)), Options{Now: time.Unix(2e9, 0)})
		runtime.ReadMemStats(&after)
		for file, ds := range out {
			counts := map[diag.Code]int{}
			for _, x := range ds {
				spanOK(t, x.Code.String(), len(files[file]), x.Span)
				if x.Code.Rule() == nil {
					t.Fatalf("code %q not in the catalogue", x.Code)
				}
				if counts[x.Code]++; counts[x.Code] > diag.MaxPerCode {
					t.Fatalf("%s: more than %d %s diagnostics", file, diag.MaxPerCode, x.Code)
				}
			}
		}
		if bound, ok := hostile.AllocBound(size); ok && after.TotalAlloc-before.TotalAlloc > bound {
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Fatalf("%d MB allocated for %d KB of text", alloc>>20, size>>10)
		}
	})
}
