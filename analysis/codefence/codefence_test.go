package codefence

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

func TestOpeningAndClosedBy(t *testing.T) {
	for _, c := range []struct {
		line string
		want Fence
		ok   bool
	}{
		{"```", Fence{'`', 3}, true},
		{"```go", Fence{'`', 3}, true},
		{"   ````  info", Fence{'`', 4}, true},
		{"~~~ a`b", Fence{'~', 3}, true}, // a tilde fence's info may hold backticks
		{"```\r", Fence{'`', 3}, true},
		{"```a`b", Fence{}, false}, // a backtick fence's info may not
		{"``", Fence{}, false},
		{"    ```", Fence{}, false}, // indented code
		{"\t```", Fence{}, false},
		{"text", Fence{}, false},
		{"", Fence{}, false},
	} {
		got, ok := Opening(c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("Opening(%q) = %v, %v; want %v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
	f := Fence{'`', 4}
	for line, want := range map[string]bool{
		"````": true, "   `````  ": true, "````\r": true,
		"```": false, "~~~~": false, "```` x": false, "    ````": false, "": false,
	} {
		if got := f.ClosedBy(line); got != want {
			t.Errorf("%v.ClosedBy(%q) = %v, want %v", f, line, got, want)
		}
	}
	if got := f.Closer(); got != "````" {
		t.Errorf("Closer = %q", got)
	}
}

func TestScanner(t *testing.T) {
	lines := []string{"a", "~~~~", "```", "~~~", "~~~~~", "b", "```x", "c"}
	want := []bool{false, true, true, true, true, false, true, true}
	var s Scanner
	for i, l := range lines {
		if got := s.Step(l); got != want[i] {
			t.Errorf("line %d %q: in code %v, want %v", i, l, got, want[i])
		}
	}
	if !s.Open() || s.Fence() != (Fence{'`', 3}) {
		t.Errorf("Open() = %v, Fence() = %v: the last fence is left open", s.Open(), s.Fence())
	}
}

// The lines the scanner reads as a fenced block's content are the lines
// goldmark (a CommonMark parser) puts in a FencedCodeBlock, on documents
// of fence-like lines, text, headings and blank lines (no containers: a
// list item or block quote moves where a fence may start, and charters
// are read line by line).
func TestScannerAgreesWithGoldmark(t *testing.T) {
	pieces := []string{"```", "~~~", "````", "~~~~", "``` go", "~~~ a`b", "```a`b", "   ```", "    ```",
		"  ~~~~  ", "```` x", "text", "more text", "", "# heading"}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n++ {
		lines := make([]string, 1+r.IntN(12))
		for i := range lines {
			lines[i] = pieces[r.IntN(len(pieces))]
		}
		src := strings.Join(lines, "\n") + "\n"
		want := goldmarkContent([]byte(src), len(lines))
		var s Scanner
		for i, l := range lines {
			wasOpen := s.Open()
			in := s.Step(l)
			content := in && wasOpen && s.Open() // neither the opening nor the closing line
			if content != want[i] {
				t.Fatalf("%q: line %d %q: content %v, goldmark says %v", src, i, l, content, want[i])
			}
		}
	}
}

// goldmarkContent says, per line, whether goldmark reads it as a line of a
// fenced code block's content.
func goldmarkContent(src []byte, n int) []bool {
	out := make([]bool, n)
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if cb, ok := node.(*ast.FencedCodeBlock); ok && entering {
			for i := 0; i < cb.Lines().Len(); i++ {
				seg := cb.Lines().At(i)
				out[bytes.Count(src[:seg.Start], []byte("\n"))] = true
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}
