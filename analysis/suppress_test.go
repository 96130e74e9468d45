package analysis

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
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

// ParseSuppressions finds directives by searching for "<!--"; it must find
// exactly what looking at each line's first "<!--" finds, whatever the
// line breaks and however many comments a line holds.
func TestSuppressionsMatchLineByLineScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"\n", "\r\n", "\r", "text ", "<!--", "-->", " charter-lsp-disable-line ", " charter-lsp-disable ",
		" charter-lsp-enable invalid-verifier ", " charter-lsp-disable-next-line milestone-size ", " no-such-code ", "<!-- x -->", "é"}
	for range 2000 {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		ix := source.NewIndex([]byte(b.String()))
		got, want := ParseSuppressions(ix), lineByLineSuppressions(ix)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", b.String(), got, want)
		}
	}
}

// lineByLineSuppressions is the straightforward reading ParseSuppressions
// must agree with.
func lineByLineSuppressions(ix *source.Index) *Suppressions {
	s := &Suppressions{}
	src := ix.Source()
	for line := 0; line < ix.LineCount(); line++ {
		span := ix.LineSpan(line)
		text := src[span.Start:span.End]
		i := bytes.Index(text, []byte("<!--"))
		if i < 0 {
			continue
		}
		body := text[i+4:]
		j := bytes.Index(body, []byte("-->"))
		if j < 0 {
			continue
		}
		fields := strings.Fields(string(body[:j]))
		if len(fields) == 0 || !strings.HasPrefix(fields[0], suppressPrefix) {
			continue
		}
		verb := strings.TrimPrefix(fields[0], suppressPrefix)
		switch verb {
		case "disable", "enable", "disable-line", "disable-next-line", "disable-file":
		default:
			continue
		}
		d := directive{line: line, verb: verb, span: source.Span{Start: span.Start + i, End: span.Start + i + 4 + j + 3}}
		for _, code := range fields[1:] {
			code = strings.Trim(code, ",")
			if code == "" {
				continue
			}
			if _, known := diag.ParseCode(code); !known {
				s.unknown = append(s.unknown, diag.New(diag.UnknownDisableCode, d.span,
					"%s names unknown code %q; see docs/diagnostics.md for the list", fields[0], code))
				continue
			}
			d.codes = append(d.codes, code)
		}
		if len(fields) > 1 && len(d.codes) == 0 {
			continue
		}
		s.directives = append(s.directives, d)
	}
	return s
}

// A disable comment that suppresses nothing is reported
// (unused-disable-comment, as eslint's unused eslint-disable directives and
// ruff's unused noqa), with a safe fix that removes it; one that
// suppresses something, or suppresses a code the configuration switched
// off, is not.
func TestUnusedDisableComments(t *testing.T) {
	src := "" +
		"<!-- charter-lsp-disable-next-line missing-verifier -->\n" + // 0: used
		"line1\n" + // 1
		"<!-- charter-lsp-disable-next-line val-title-task -->\n" + // 2: unused
		"line3\n" + // 3
		"line4 <!-- charter-lsp-disable-line missing-because -->\n" + // 4: unused, beside text
		"<!-- charter-lsp-disable-file stale-evidence -->\n" + // 5: used (switched off by the configuration)
		"<!-- charter-lsp-disable -->\n" + // 6: unused: nothing below
		"end\n"
	ix := source.NewIndex([]byte(src))
	ds := append(onLines(ix, diag.MissingVerifier, 1), onLines(ix, diag.StaleEvidence, 3)...)
	out := Finish(ds, "f.md", ix, Config{Severity: map[string]string{"stale-evidence": "off"}})
	var unused []diag.Diagnostic
	for _, d := range out {
		switch d.Code {
		case diag.UnusedDisableComment:
			unused = append(unused, d)
		default:
			t.Errorf("left: %s on line %d", d.Code, d.Range.Start.Line)
		}
	}
	lines := lineSet(unused)
	if len(unused) != 3 || !lines[2] || !lines[4] || !lines[6] {
		t.Fatalf("unused on lines %v, want 2, 4, 6: %+v", lines, unused)
	}
	fixed, applied := diag.ApplyFixes([]byte(src), []*diag.Fix{unused[0].Fix, unused[1].Fix, unused[2].Fix})
	want := "" +
		"<!-- charter-lsp-disable-next-line missing-verifier -->\n" +
		"line1\n" +
		"line3\n" +
		"line4\n" +
		"<!-- charter-lsp-disable-file stale-evidence -->\n" +
		"end\n"
	if len(applied) != 3 || string(fixed) != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", fixed, want)
	}
	for _, d := range unused {
		if d.Fix.Unsafe || d.Code.FixSafety() != diag.FixSafe {
			t.Errorf("the removal is not a safe fix")
		}
	}
}
