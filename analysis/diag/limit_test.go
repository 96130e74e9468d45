package diag

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// A file with more than MaxPerCode diagnostics of a code keeps the first
// MaxPerCode of it, and one analysis-capped diagnostic where the first one
// left out was, saying how many; other codes are untouched.
func TestLimitKeepsTheFirstOfEachCode(t *testing.T) {
	var ds []Diagnostic
	for i := range MaxPerCode + 250 {
		ds = append(ds, New(MalformedCommand, source.Span{Start: 10 * i, End: 10*i + 1}, "x"))
		if i%100 == 0 {
			ds = append(ds, New(DuplicateCommand, source.Span{Start: 10*i + 5, End: 10*i + 6}, "y"))
		}
	}
	Sort(ds)
	got := Limit(ds)
	counts := map[Code]int{}
	for _, d := range got {
		counts[d.Code]++
	}
	if counts[MalformedCommand] != MaxPerCode || counts[DuplicateCommand] != 13 || counts[AnalysisCapped] != 1 {
		t.Fatalf("kept %v", counts)
	}
	for _, d := range got {
		if d.Code == AnalysisCapped {
			if d.Span.Start != 10*MaxPerCode || !strings.HasPrefix(d.Message, "250 more malformed-command diagnostics") {
				t.Errorf("note at %v: %s", d.Span, d.Message)
			}
		}
	}
	short := ds[:MaxPerCode]
	if out := Limit(short); &out[0] != &short[0] || len(out) != len(short) {
		t.Error("Limit copied a list under the limit")
	}
}

// A Limiter counts each file and code apart, whatever order the files
// come in.
func TestLimiterCountsEachFileAndCode(t *testing.T) {
	var l Limiter
	kept := map[limitKey]int{}
	files := []string{"/a.md", "/b.md", "", "/a.md"}
	for i := range 6 * MaxPerCode {
		f, c := files[i%len(files)], []Code{MalformedCommand, DuplicateCommand}[i%3%2]
		if l.Keep(f, c, source.Span{Start: i}) {
			kept[limitKey{f, c}]++
		}
	}
	for k, n := range kept {
		want := 0
		for i := range 6 * MaxPerCode {
			if files[i%len(files)] == k.file && []Code{MalformedCommand, DuplicateCommand}[i%3%2] == k.code {
				want++
			}
		}
		if n != min(want, MaxPerCode) {
			t.Errorf("%v: kept %d of %d", k, n, want)
		}
	}
	if len(kept) != 6 {
		t.Errorf("kept %d keys, want 6: %v", len(kept), kept)
	}
	if notes := l.Notes("/a.md"); len(notes) != 1 || notes[0].Code != AnalysisCapped || !strings.HasPrefix(notes[0].Message, "1000 more malformed-command") {
		t.Errorf("notes of /a.md: %+v", notes)
	}
}
