// Package diag defines charter-lsp's diagnostics: the value every check
// produces, the severities, and the single catalogue of codes (codes.go).
package diag

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
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
	return Diagnostic{Span: span, Severity: code.Rule().Severity, Code: code, Source: Source, Message: msg}
}

// Locate sets File and the LSP ranges of ds from their byte spans.
func Locate(ds []Diagnostic, file string, ix *source.Index) {
	for i := range ds {
		ds[i].File = file
		ds[i].Range = ix.Range(ds[i].Span)
		if f := ds[i].Fix; f != nil {
			// A copy: parses reused after a keystroke share their fixes.
			located := *f
			if ds[i].Code.FixSafety() == FixUnsafe {
				located.Unsafe = true
			}
			located.Edits = make([]Edit, len(f.Edits))
			for j, e := range f.Edits {
				e.Range = ix.Range(e.Span)
				located.Edits[j] = e
			}
			ds[i].Fix = &located
		}
		// Related locations without a file are in the same file.
		for j := range ds[i].Related {
			if r := &ds[i].Related[j]; r.File == "" {
				r.File, r.Range = file, ix.Range(r.Span)
			}
		}
		if f := ds[i].Fix; f != nil {
			for j := range f.Edits {
				f.Edits[j].Range = ix.Range(f.Edits[j].Span)
			}
		}
	}
}

// Sort orders diagnostics by file, position, then code, so output is stable.
// A Diagnostic is large, so a slice that is not in order already is sorted
// as a permutation of indexes, then moved once.
func Sort(ds []Diagnostic) {
	sorted := true
	for i := 1; i < len(ds) && sorted; i++ {
		sorted = compare(&ds[i-1], &ds[i]) <= 0
	}
	if sorted {
		return
	}
	order := make([]int32, len(ds))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(i, j int32) int { return compare(&ds[i], &ds[j]) })
	moved := make([]Diagnostic, len(ds))
	for k, i := range order {
		moved[k] = ds[i]
	}
	copy(ds, moved)
}

func compare(a, b *Diagnostic) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Span.Start, b.Span.Start); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Span.End, b.Span.End); c != 0 {
		return c
	}
	return strings.Compare(a.Code.String(), b.Code.String())
}
