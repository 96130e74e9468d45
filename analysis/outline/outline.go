// Package outline is a charter's outline as the analysis packages read it:
// the blocks upstream's parser sees (sections, criteria, phases, regions),
// with their spans and a one-line state, nested. The server turns it into
// document symbols and folding ranges; the packages that know each
// grammar (charterfile, rp1) build it.
package outline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Kind says what a symbol is.
type Kind string

const (
	// Title is the document's title heading, holding the rest.
	Title Kind = "title"
	// Section is a section the grammar reads (Objective, Criteria, Scope
	// Guardrails, …).
	Section Kind = "section"
	// Region is a required region of an rp1 skeleton charter.
	Region Kind = "region"
	// Criterion is a "### C<n>." criterion of a file-interface charter.
	Criterion Kind = "criterion"
	// Phase is a numbered item of a phases charter's ## Phases.
	Phase Kind = "phase"
	// Entry is an entry of an rp1 charter's scratch pad (### Q<n>: topic).
	Entry Kind = "entry"
	// Heading is any other heading: text the grammar keeps as notes, or
	// ignores.
	Heading Kind = "heading"
)

// Symbol is one block of the outline.
type Symbol struct {
	Name string
	// Detail is its state in a few words: "pass", "current (inferred)",
	// "gap: _TBD_ only", "3/5 pass".
	Detail string
	Kind   Kind
	// Span is the whole block, Heading the line that names it (within Span).
	Span, Heading source.Span
	Children      []*Symbol
}

// Nest arranges symbols into a tree by their spans: each becomes a child
// of the nearest earlier symbol whose span holds its heading. Symbols come
// out in document order; a parent's span is widened to its children's.
func Nest(syms []*Symbol) []*Symbol {
	sorted := append([]*Symbol(nil), syms...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Span.Start != b.Span.Start {
			return a.Span.Start < b.Span.Start
		}
		return a.Span.End > b.Span.End // the wider one holds the other
	})
	var roots, stack []*Symbol
	for _, s := range sorted {
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if s.Heading.Start >= top.Span.Start && s.Heading.Start < top.Span.End {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, s)
		} else {
			top := stack[len(stack)-1]
			top.Children = append(top.Children, s)
		}
		stack = append(stack, s)
	}
	for _, r := range roots {
		widen(r)
	}
	return roots
}

func widen(s *Symbol) {
	for _, c := range s.Children {
		widen(c)
		s.Span.Start = min(s.Span.Start, c.Span.Start)
		s.Span.End = max(s.Span.End, c.Span.End)
	}
}

// Walk calls fn for each symbol, parents before their children.
func Walk(syms []*Symbol, fn func(*Symbol)) {
	for _, s := range syms {
		fn(s)
		Walk(s.Children, fn)
	}
}

// Dump writes an outline of src a symbol a line, indented by depth: name,
// [detail], kind and the 1-based first and last lines of its span (trailing
// blank lines left out). Tests compare outlines with it.
func Dump(src []byte, syms []*Symbol) string {
	ix := source.NewIndex(src)
	var b strings.Builder
	var walk func([]*Symbol, int)
	walk = func(ss []*Symbol, depth int) {
		for _, s := range ss {
			detail := ""
			if s.Detail != "" {
				detail = " [" + s.Detail + "]"
			}
			end := s.Span.End
			for end > s.Span.Start && (src[end-1] == '\n' || src[end-1] == '\r' || src[end-1] == ' ') {
				end--
			}
			fmt.Fprintf(&b, "%s%s%s %s %d-%d\n", strings.Repeat("  ", depth), s.Name, detail, s.Kind,
				ix.Line(s.Span.Start)+1, ix.Line(end)+1)
			walk(s.Children, depth+1)
		}
	}
	walk(syms, 0)
	return b.String()
}
