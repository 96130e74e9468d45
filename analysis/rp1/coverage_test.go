package rp1

import (
	"os"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// TestEveryCodeHasFixtures: each rp1 and scratchpad code in the catalogue
// has testdata/<code>.md, which triggers it, and testdata/<code>-near-miss.md,
// a close variant which must not.
func TestEveryCodeHasFixtures(t *testing.T) {
	n := 0
	for _, r := range diag.Rules {
		if r.Family != "rp1" && r.Family != "scratchpad" && r.Family != "skeleton" || r.Code == diag.FinalizerJSON {
			continue // finalizer-json checks a JSON answer: finalizer_test.go
		}
		n++
		t.Run(r.Name, func(t *testing.T) {
			if got := codesIn(t, "testdata/"+r.Name+".md"); !got[r.Name] {
				t.Errorf("%s.md does not trigger %s (got %v)", r.Code, r.Code, keys(got))
			}
			if got := codesIn(t, "testdata/"+r.Name+"-near-miss.md"); got[r.Name] {
				t.Errorf("%s-near-miss.md triggers %s", r.Code, r.Code)
			}
		})
	}
	if n != 23 {
		t.Errorf("found %d rp1/scratchpad/skeleton codes; update the fixtures when the catalogue changes", n)
	}
}

func codesIn(t *testing.T, path string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, d := range Check(Parse(src), Options{RP1Style: true}) {
		got[d.Code.String()] = true
	}
	return got
}

func keys(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return strings.Join(ks, ",")
}

// TestRealCharterIsClean: the finished upstream charter has no diagnostics.
func TestRealCharterIsClean(t *testing.T) {
	src, err := os.ReadFile("testdata/rp1-real.md")
	if err != nil {
		t.Fatal(err)
	}
	ch := Parse(src)
	for _, s := range ch.Sections {
		if s.ID != "" && s.Status != StatusComplete {
			t.Errorf("%s is %s: %+v", s.ID, s.Status, s.Problems)
		}
	}
	if ds := Check(ch, Options{RP1Style: true}); len(ds) != 0 {
		t.Errorf("want no diagnostics, got %+v", ds)
	}
}

// TestNotRP1Style: a charter.md that is not rp1-style gets no section or
// status diagnostics.
func TestNotRP1Style(t *testing.T) {
	src, err := os.ReadFile("testdata/update-partial.md")
	if err != nil {
		t.Fatal(err)
	}
	if ds := Check(Parse(src), Options{}); len(ds) != 0 {
		t.Errorf("want none, got %+v", ds)
	}
}
