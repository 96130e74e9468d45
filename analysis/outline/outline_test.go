package outline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

func sym(name string, start, end, head int) *Symbol {
	return &Symbol{Name: name, Span: source.Span{Start: start, End: end}, Heading: source.Span{Start: head, End: head + 1}}
}

func dump(syms []*Symbol, depth int, b *strings.Builder) {
	for _, s := range syms {
		fmt.Fprintf(b, "%s%s %d-%d\n", strings.Repeat("  ", depth), s.Name, s.Span.Start, s.Span.End)
		dump(s.Children, depth+1, b)
	}
}

func TestNest(t *testing.T) {
	got := Nest([]*Symbol{
		sym("C2", 60, 80, 60),
		sym("title", 0, 100, 0),
		sym("criteria", 40, 90, 40),
		sym("C1", 45, 60, 45),
		sym("objective", 10, 40, 10),
		// A block whose span runs past its parent's end widens the parent.
		sym("C3", 85, 120, 85),
		sym("after", 130, 140, 130),
	})
	var b strings.Builder
	dump(got, 0, &b)
	want := `title 0-120
  objective 10-40
  criteria 40-120
    C1 45-60
    C2 60-80
    C3 85-120
after 130-140
`
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
	n := 0
	Walk(got, func(*Symbol) { n++ })
	if n != 7 {
		t.Errorf("Walk visited %d symbols, want 7", n)
	}
}
