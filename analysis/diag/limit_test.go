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
