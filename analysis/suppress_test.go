package analysis

import (
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

func sp(a, b int) source.Span { return source.Span{Start: a, End: b} }

// onLines makes one diagnostic of code per line, located.
func onLines(ix *source.Index, code diag.Code, lines ...int) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, l := range lines {
		ds = append(ds, diag.New(code, ix.LineSpan(l), "x"))
	}
	diag.Locate(ds, "f.md", ix)
	return ds
}

func lineSet(ds []diag.Diagnostic) map[int]bool {
	m := map[int]bool{}
	for _, d := range ds {
		m[d.Range.Start.Line] = true
	}
	return m
}

func TestSuppressions(t *testing.T) {
	src := "" +
		"line0\n" + // 0
		"<!-- charter-lsp-disable-next-line missing-verifier -->\n" + // 1
		"line2\n" + // 2
		"line3 <!-- charter-lsp-disable-line missing-verifier -->\n" + // 3
		"<!-- charter-lsp-disable missing-verifier -->\n" + // 4
		"line5\n" + // 5
		"<!-- charter-lsp-enable missing-verifier -->\n" + // 6
		"line7\r\n" + // 7
		"<!-- charter-lsp-disable -->\n" + // 8: everything off from here
		"line9\n" // 9
	ix := source.NewIndex([]byte(src))
	sup := ParseSuppressions(ix)
	got := lineSet(sup.Filter(onLines(ix, diag.MissingVerifier, 0, 2, 3, 5, 7, 9)))
	want := map[int]bool{0: true, 7: true}
	if len(got) != len(want) || !got[0] || !got[7] {
		t.Fatalf("kept lines %v, want %v", got, want)
	}
	// Other codes are only affected by the blanket disable on line 8.
	other := lineSet(sup.Filter(onLines(ix, diag.StaleEvidence, 2, 5, 9)))
	if !other[2] || !other[5] || other[9] {
		t.Fatalf("stale-evidence kept %v, want lines 2 and 5", other)
	}
	if len(sup.Unknown()) != 0 {
		t.Fatalf("unexpected unknown-code diagnostics: %+v", sup.Unknown())
	}
}

func TestSuppressFileAndUnknownCode(t *testing.T) {
	src := "<!-- charter-lsp-disable-file val-title-task -->\n<!-- charter-lsp-disable-next-line stale-evidnce -->\nx\n"
	ix := source.NewIndex([]byte(src))
	sup := ParseSuppressions(ix)
	if kept := sup.Filter(onLines(ix, diag.VALTitleTask, 2)); len(kept) != 0 {
		t.Fatalf("disable-file did not apply: %+v", kept)
	}
	if kept := sup.Filter(onLines(ix, diag.StaleEvidence, 2)); len(kept) != 1 {
		t.Fatal("a directive with only an unknown code must not disable everything")
	}
	unknown := sup.Unknown()
	if len(unknown) != 1 || unknown[0].Code != diag.UnknownDisableCode {
		t.Fatalf("Unknown = %+v", unknown)
	}
}
