package pi

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// seedFiles adds every fixture file with one of exts to f's corpus.
func seedFiles(f *testing.F, exts ...string) {
	for _, dir := range []string{"testdata/criteria", filepath.Join(testfixture.Dir(), "pi-project")} {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			for _, e := range exts {
				if filepath.Ext(p) == e {
					if b, err := os.ReadFile(p); err == nil {
						f.Add(b)
					}
				}
			}
			return nil
		})
	}
}

// checkSpans fails when a span lies outside src or is inverted.
func checkSpans(t *testing.T, src []byte, spans ...[2]int) {
	for _, s := range spans {
		if s[0] < 0 || s[1] < s[0] || s[1] > len(src) {
			t.Fatalf("bad span %v in %d bytes", s, len(src))
		}
	}
}

func FuzzParseCriteria(f *testing.F) {
	seedFiles(f, ".txt", ".md")
	f.Add([]byte("##  \n### VAL-A\r\n#\t\n### VAL-X-1-T\u2028x\n- **Verifier:** y\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		c := ParseCriteria(src)
		if at, ok := CriteriaScaffold(src); ok {
			checkSpans(t, src, [2]int{at.Start, at.End})
		}
		for _, v := range c.Criteria {
			checkSpans(t, src, [2]int{v.HeadingSpan().Start, v.HeadingSpan().End}, [2]int{v.IDSpan().Start, v.IDSpan().End},
				[2]int{v.TitleSpan().Start, v.TitleSpan().End}, [2]int{v.BodySpan().Start, v.BodySpan().End})
			for _, w := range v.Warnings() {
				checkSpans(t, src, [2]int{w.Span.Start, w.Span.End})
			}
			if string(src[v.IDSpan().Start:v.IDSpan().End]) != v.ID {
				t.Fatalf("id span %q != id %q", src[v.IDSpan().Start:v.IDSpan().End], v.ID)
			}
		}
		for _, d := range c.Dropped {
			checkSpans(t, src, [2]int{d.IDSpan.Start, d.IDSpan.End})
		}
	})
}

func FuzzParseCharter(f *testing.F) {
	seedFiles(f, ".md")
	f.Fuzz(func(t *testing.T, src []byte) {
		ch := ParseCharter(src)
		for _, l := range ch.Commands {
			checkSpans(t, src, [2]int{l.LineSpan.Start, l.LineSpan.End}, [2]int{l.KeySpan.Start, l.KeySpan.End})
		}
		ParseReport(src)
	})
}

func FuzzParseEvidence(f *testing.F) {
	seedFiles(f, ".json")
	f.Add([]byte(`[{"a":1},2,{"b":[{"c":"\u00e9"}]}]`))
	f.Fuzz(func(t *testing.T, src []byte) {
		rows, problems := ParseEvidence(src)
		for _, r := range rows {
			checkSpans(t, src, [2]int{r.Span.Start, r.Span.End})
			for _, p := range r.SchemaProblems() {
				checkSpans(t, src, [2]int{p.Span.Start, p.Span.End})
			}
		}
		for _, p := range problems {
			checkSpans(t, src, [2]int{p.Span.Start, p.Span.End})
		}
		ParseCriterionState(src)
		ParseState(src)
	})
}

func FuzzWeakVerifier(f *testing.F) {
	for _, s := range []string{"bun test -t 'x'", "go test -run X", "cargo test -- x", `"unterminated`, "a && || ;; & b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		WeakVerifier(cmd)
		WeakTitleFilter(cmd)
	})
}
