package diag

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Sort orders as a stable sort by file, span and code does: equal keys keep
// their order (the message tells them apart here), whether the slice is in
// order already, a few runs in order, or shuffled.
func TestSortIsStableByFileSpanCode(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	codes := []Code{InvalidVerifier, MilestoneSize, StaleEvidence}
	for n := range 200 {
		ds := make([]Diagnostic, n)
		for i := range ds {
			start := r.IntN(20)
			ds[i] = Diagnostic{File: []string{"a", "b"}[r.IntN(2)], Span: source.Span{Start: start, End: start + r.IntN(3)},
				Code: codes[r.IntN(len(codes))], Message: strconv.Itoa(i)}
		}
		byKey := func(ds []Diagnostic) {
			sort.SliceStable(ds, func(i, j int) bool { return CompareKeys(ds[i].Key(), ds[j].Key()) < 0 })
		}
		switch n % 3 {
		case 0: // already in order
			byKey(ds)
		case 1: // a few runs in order, as a check appends its findings
			for at := 0; at < n; {
				end := min(n, at+1+r.IntN(n/3+1))
				byKey(ds[at:end])
				at = end
			}
		}
		want := slices.Clone(ds)
		sort.SliceStable(want, func(i, j int) bool {
			a, b := want[i], want[j]
			if a.File != b.File {
				return a.File < b.File
			}
			if a.Span.Start != b.Span.Start {
				return a.Span.Start < b.Span.Start
			}
			if a.Span.End != b.Span.End {
				return a.Span.End < b.Span.End
			}
			return a.Code.String() < b.Code.String()
		})
		Sort(ds)
		for i := range ds {
			if ds[i].File != want[i].File || ds[i].Span != want[i].Span || ds[i].Code != want[i].Code || ds[i].Message != want[i].Message {
				t.Fatalf("n=%d: at %d got %+v, want %+v", n, i, ds[i], want[i])
			}
		}
	}
}

// BenchmarkSort is a keystroke's diagnostics of the 5,000-VAL register:
// 1,300 in three runs in order (the check's findings, then its stale VALs,
// merged), then sorted again as they are (Finish).
func BenchmarkSort(b *testing.B) {
	const n = 1300
	ds := make([]Diagnostic, n)
	for i := range ds {
		at := i * 300
		if i >= 300 {
			at = (i-300)*390 + 7 // the stale VALs' headings, among the others
		}
		ds[i] = Diagnostic{File: "/p/.pi/charters/c/criteria.md", Span: source.Span{Start: at, End: at + 20}, Code: []Code{InvalidVerifier, StaleEvidence}[min(1, i/300)]}
	}
	work := make([]Diagnostic, n)
	b.ReportAllocs()
	for b.Loop() {
		copy(work, ds)
		Sort(work)
		Sort(work)
	}
}

// TestInsertSortedIsAppendAndSort: inserting a diagnostic into a sorted
// list is appending it and sorting, ties with equal keys included; into
// one not sorted, appending it.
func TestInsertSortedIsAppendAndSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	codes := []Code{AnalysisCapped, StaleEvidence, MilestoneSize}
	for step := 0; step < 500; step++ {
		ds := make([]Diagnostic, rng.IntN(12))
		for i := range ds {
			s := rng.IntN(6)
			ds[i] = Diagnostic{Span: source.Span{Start: s, End: s + rng.IntN(2)}, Code: codes[rng.IntN(len(codes))], Message: fmt.Sprint(i)}
		}
		if rng.IntN(2) == 0 {
			Sort(ds)
		}
		sorted := slices.IsSortedFunc(ds, func(a, b Diagnostic) int { return CompareKeys(a.Key(), b.Key()) })
		s := rng.IntN(6)
		d := Diagnostic{Span: source.Span{Start: s, End: s + rng.IntN(2)}, Code: codes[rng.IntN(len(codes))], Message: "new"}
		want := append(slices.Clone(ds), d)
		if sorted {
			Sort(want)
		}
		got := InsertSorted(slices.Clone(ds), d)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: inserting %v into %v (sorted %v): %v, want %v", step, d, ds, sorted, got, want)
		}
	}
}
