// Package diag defines charter-lsp's diagnostics: the value every check
// produces, the severities, and the single catalogue of codes (codes.go).
package diag

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Source is the `source` of every diagnostic charter-lsp publishes.
const Source = "charter"

// Severity uses LSP's numbering so the server can pass it through.
type Severity int

const (
	SeverityOff         Severity = 0 // a code switched off by configuration
	SeverityError       Severity = 1
	SeverityWarning     Severity = 2
	SeverityInformation Severity = 3
	SeverityHint        Severity = 4
)

var severityNames = map[Severity]string{
	SeverityOff: "off", SeverityError: "error", SeverityWarning: "warning",
	SeverityInformation: "information", SeverityHint: "hint",
}

func (s Severity) String() string {
	if n, ok := severityNames[s]; ok {
		return n
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity accepts the names used in configuration: error, warning,
// information (or info), hint, off.
func ParseSeverity(name string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "error":
		return SeverityError, nil
	case "warning", "warn":
		return SeverityWarning, nil
	case "information", "info":
		return SeverityInformation, nil
	case "hint":
		return SeverityHint, nil
	case "off", "none", "false":
		return SeverityOff, nil
	}
	return SeverityOff, fmt.Errorf("unknown severity %q (want error, warning, information, hint or off)", name)
}

func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// Diagnostic is one finding in one file.
type Diagnostic struct {
	File     string       `json:"file"`
	Span     source.Span  `json:"-"`
	Range    source.Range `json:"range"`
	Severity Severity     `json:"severity"`
	Code     Code         `json:"code"`
	Source   string       `json:"source"`
	Message  string       `json:"message"`
	// Related points at other places that explain the finding (a duplicate's
	// first occurrence, the source file that made evidence stale).
	Related []Related `json:"related,omitempty"`
	// Data carries facts about the finding for clients (the section id of
	// an rp1 gap, the evidence path of a stale pass).
	Data map[string]string `json:"data,omitempty"`
	// Fix, when set, resolves the finding (fix.go).
	Fix *Fix `json:"fix,omitempty"`
}

// Related is a secondary location of a diagnostic.
type Related struct {
	File    string       `json:"file"`
	Span    source.Span  `json:"-"`
	Range   source.Range `json:"range"`
	Message string       `json:"message"`
}

// New builds a diagnostic for code at span with the code's default severity.
// Range is filled by Locate once the file's index is known.
func New(code Code, span source.Span, format string, args ...any) Diagnostic {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return Written(code, span, msg)
}

// Written is New for a message already written (kept from an earlier
// check): it is not formatted again.
func Written(code Code, span source.Span, msg string) Diagnostic {
	return Diagnostic{Span: span, Severity: code.Rule().Severity, Code: code, Source: Source, Message: msg}
}

// Locate sets File and the LSP ranges of ds from their byte spans.
func Locate(ds []Diagnostic, file string, ix *source.Index) {
	// A file's diagnostics come mostly in its order: each line is looked
	// for from the one before.
	loc := ix.Locator()
	for i := range ds {
		locate(&ds[i], file, ix, loc)
	}
}

// LocateRest is Locate of those of ds not located yet (File unset): the
// others came located (Place).
func LocateRest(ds []Diagnostic, file string, ix *source.Index) {
	loc := ix.Locator()
	for i := range ds {
		if ds[i].File == "" {
			locate(&ds[i], file, ix, loc)
		}
	}
}

func locate(d *Diagnostic, file string, ix *source.Index, loc *source.Locator) {
	d.File = file
	d.Range = loc.Range(d.Span)
	if f := d.Fix; f != nil {
		// A copy: parses reused after a keystroke share their fixes.
		located := *f
		if d.Code.FixSafety() == FixUnsafe {
			located.Unsafe = true
		}
		located.Edits = make([]Edit, len(f.Edits))
		for j, e := range f.Edits {
			e.Range = loc.Range(e.Span) // near the diagnostic, mostly
			located.Edits[j] = e
		}
		d.Fix = &located
	}
	// Related locations without a file are in the same file (and
	// often far from the diagnostic: a repeated id's first one).
	for j := range d.Related {
		if r := &d.Related[j]; r.File == "" {
			r.File, r.Range = file, ix.Range(r.Span)
		}
	}
}

// Carried are diagnostics located once for every version of a text in
// which a part of it reads the same and starts a line (a block of a
// register, which a keystroke elsewhere moves): their spans are relative
// to the part's start and their ranges to its first line, so placing them
// in a version (Place) is adding where the part is, with the same UTF-16
// columns, instead of locating them again. They are in the order Sort
// puts them in, and their File is unset. A Carried is never modified.
type Carried []Diagnostic

// Carry locates ds, whose spans are offsets in the text ix indexes (a
// part of a larger one, starting a line of it), as Locate does, and sorts
// them, in place: ds becomes the Carried, and is not to be used otherwise.
// Their related locations are copied (Locate writes them).
func Carry(ds []Diagnostic, ix *source.Index) Carried {
	for i := range ds {
		if len(ds[i].Related) > 0 {
			ds[i].Related = slices.Clone(ds[i].Related)
		}
	}
	Locate(ds, "", ix)
	Sort(ds)
	return ds
}

// Place moves d, a copy of one of a Carried, to where its part starts in
// a version of the text: at bytes and line lines on, in file (its fix and
// related locations are copied: the Carried's are shared). With file ""
// its ranges are left to Locate: the part does not start a line there.
func (d *Diagnostic) Place(file string, at, line int) {
	d.File = file
	d.Span = d.Span.Shift(at)
	d.Range = d.Range.Down(line)
	if f := d.Fix; f != nil {
		n := *f
		n.Edits = make([]Edit, len(f.Edits))
		for i, e := range f.Edits {
			e.Span, e.Range = e.Span.Shift(at), e.Range.Down(line)
			n.Edits[i] = e
		}
		d.Fix = &n
	}
	if len(d.Related) > 0 {
		rel := make([]Related, len(d.Related))
		for i, r := range d.Related {
			if r.File == "" { // in the same file
				r.File, r.Span, r.Range = file, r.Span.Shift(at), r.Range.Down(line)
			}
			rel[i] = r
		}
		d.Related = rel
	}
}

// Sort orders diagnostics by file, position, then code, so output is stable.
func Sort(ds []Diagnostic) {
	sortRuns(ds, compareDiagnostics)
}

// InsertSorted puts d into ds, when ds is sorted, where appending it and
// sorting would (after every diagnostic that is not after it), and
// otherwise appends it. A file's findings come out of a check in order but
// for a few (a limiter's notes), which are put in place instead of the
// thousands being sorted again.
func InsertSorted(ds []Diagnostic, d Diagnostic) []Diagnostic {
	if !slices.IsSortedFunc(ds, func(a, b Diagnostic) int { return compareDiagnostics(&a, &b) }) {
		return append(ds, d)
	}
	i := sort.Search(len(ds), func(i int) bool { return compareDiagnostics(&ds[i], &d) > 0 })
	return slices.Insert(ds, i, d)
}

// compareDiagnostics is CompareKeys of the two diagnostics' keys, without
// copying them out: a keystroke's 1,300 diagnostics are compared thrice.
func compareDiagnostics(a, b *Diagnostic) int {
	if a.File != b.File {
		return strings.Compare(a.File, b.File)
	}
	return compareAt(a.Span, a.Code, b.Span, b.Code)
}

// Key is what orders a diagnostic among others: its file, its span, then
// its code's name.
type Key struct {
	File string
	Span source.Span
	Code Code
}

// Key is d's place in the order Sort puts diagnostics in.
func (d *Diagnostic) Key() Key { return Key{d.File, d.Span, d.Code} }

// SortByKey sorts xs stably by the diagnostic keys key gives them: the
// order of Sort, for what stands for a diagnostic (check keeps each as
// printed). A slice that is not in order already is sorted as a
// permutation of indexes, then moved once, its elements being large.
//
// The sort merges the runs already in order: a check appends its findings
// a kind at a time, each kind in the order of the file, so a file's
// thousands of diagnostics are a few runs, merged in linear time (a merge
// sort of single elements in the worst case).
func SortByKey[T any](xs []T, key func(*T) Key) {
	sortRuns(xs, func(a, b *T) int { return CompareKeys(key(a), key(b)) })
}

// sortRuns is SortByKey by compare, which orders two elements.
func sortRuns[T any](xs []T, compare func(a, b *T) int) {
	var runs []int // where each run in order begins
	for i := 1; i < len(xs); i++ {
		if compare(&xs[i-1], &xs[i]) > 0 {
			runs = append(runs, i)
		}
	}
	if len(runs) == 0 {
		return
	}
	n := len(xs)
	bounds := append(append(make([]int, 0, len(runs)+2), 0), runs...)
	bounds = append(bounds, n)
	order, spare := make([]int32, n), make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	for len(bounds) > 2 {
		merged := bounds[:0:0]
		for r := 0; r+1 < len(bounds); r += 2 {
			lo, mid, hi := bounds[r], bounds[r+1], bounds[min(r+2, len(bounds)-1)]
			a, b, out := order[lo:mid], order[mid:hi], spare[lo:lo]
			for len(a) > 0 && len(b) > 0 {
				if compare(&xs[a[0]], &xs[b[0]]) <= 0 { // stable: the left one first
					out, a = append(out, a[0]), a[1:]
				} else {
					out, b = append(out, b[0]), b[1:]
				}
			}
			_ = append(append(out, a...), b...)
			merged = append(merged, lo)
		}
		bounds = append(merged, n)
		order, spare = spare, order
	}
	permute(xs, order)
}

// permute puts xs in order (xs[k] becomes the xs[order[k]] of before) in
// place, one cycle of the permutation at a time, instead of through a copy
// of xs (a keystroke's 1,300 diagnostics are 200 KB); order is used up.
func permute[T any](xs []T, order []int32) {
	for start := range order {
		if order[start] < 0 {
			continue // moved with an earlier cycle
		}
		held := xs[start]
		k := start
		for {
			j := int(order[k])
			order[k] = -1
			if j == start {
				xs[k] = held
				break
			}
			xs[k] = xs[j]
			k = j
		}
	}
}

// CompareKeys orders two diagnostics by file, position, then code.
func CompareKeys(a, b Key) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	return compareAt(a.Span, a.Code, b.Span, b.Code)
}

// compareAt orders two diagnostics of one file by position, then code.
func compareAt(a source.Span, ac Code, b source.Span, bc Code) int {
	switch {
	case a.Start != b.Start:
		return cmp.Compare(a.Start, b.Start)
	case a.End != b.End:
		return cmp.Compare(a.End, b.End)
	case ac == bc:
		return 0
	}
	return strings.Compare(ac.String(), bc.String())
}

// MaxPerCode is the most diagnostics of one code one file reports. A 1 MB
// file can hold half a million one-line findings (a ## Commands section of
// "x" lines, a Depends: line of 300,000 words); each costs memory in the
// checker, in the CLI's output and in the editor, and no one reads the
// thousandth. Past it, one analysis-capped diagnostic says how many more
// there are.
const MaxPerCode = 1000

// Limit keeps, of ds (one file's diagnostics, sorted), the first
// MaxPerCode of each code, and adds for each code over it one
// analysis-capped diagnostic at the first one left out (Limiter). It copies
// nothing when no code is over.
func Limit(ds []Diagnostic) []Diagnostic {
	if len(ds) <= MaxPerCode {
		return ds
	}
	var l Limiter
	var kept []Diagnostic // made at the first one left out
	for i := range ds {
		if l.Keep(ds[i].File, ds[i].Code, ds[i].Span) {
			if kept != nil {
				kept = append(kept, ds[i])
			}
			continue
		}
		if kept == nil {
			kept = append(make([]Diagnostic, 0, len(ds)), ds[:i]...)
		}
		if o := l.over[limitKey{ds[i].File, ds[i].Code}]; o.n == 1 {
			o.first.Range = ds[i].Range // a located list: the note is too
		}
	}
	if kept == nil {
		return ds
	}
	kept = append(kept, l.Notes("")...)
	Sort(kept)
	return kept
}

// Limiter counts the diagnostics a check makes by file and code, so that
// it keeps the first MaxPerCode of each and only counts the rest: a check
// that asks before building a diagnostic never holds more than MaxPerCode
// of one code in one file. The zero value is ready to use.
type Limiter struct {
	// counts are each file's by code; last is lastFile's, which the next
	// diagnostic is mostly in too: no lookup by file then.
	// (A value that is no code, which no check makes, counts in the
	// last slot.)
	counts   map[string]*[codeCount + 1]int32
	lastFile string
	last     *[codeCount + 1]int32
	over     map[limitKey]*overflow
	order    []*overflow
}

type limitKey struct {
	file string
	code Code
}

// overflow is what a file and code had past the limit: how many, and where
// the first of them was.
type overflow struct {
	limitKey
	n     int
	first Diagnostic
}

// Keep counts a diagnostic of code at span in file and reports whether it
// is among the first MaxPerCode of its file and code.
func (l *Limiter) Keep(file string, code Code, span source.Span) bool {
	n := l.last
	if n == nil || file != l.lastFile {
		if l.counts == nil {
			l.counts = map[string]*[codeCount + 1]int32{}
		}
		if n = l.counts[file]; n == nil {
			n = new([codeCount + 1]int32)
			l.counts[file] = n
		}
		l.last, l.lastFile = n, file
	}
	c := min(code, codeCount)
	if n[c]++; n[c] <= MaxPerCode {
		return true
	}
	if l.over == nil {
		l.over = map[limitKey]*overflow{}
	}
	k := limitKey{file, code}
	o := l.over[k]
	if o == nil {
		o = &overflow{limitKey: k, first: Diagnostic{File: file, Span: span}}
		l.over[k] = o
		l.order = append(l.order, o)
	}
	o.n++
	return false
}

// Notes are the analysis-capped diagnostics of file ("" for every file):
// one per code over the limit, at the first diagnostic left out, saying
// how many were.
func (l *Limiter) Notes(file string) []Diagnostic {
	var out []Diagnostic
	for _, o := range l.order {
		if file != "" && o.file != file {
			continue
		}
		note := New(AnalysisCapped, o.first.Span, "%d more %s diagnostics in this file are not reported: charter-lsp reports the first %d of each code in a file.", o.n, o.code, MaxPerCode)
		note.File, note.Range = o.first.File, o.first.Range
		out = append(out, note)
	}
	return out
}
