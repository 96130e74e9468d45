package rp1

import (
	"bytes"
	"strings"
	"testing"
)

// Deep nesting is cut before goldmark sees it (boundBody), without
// changing what counts: every list item still counts as a sentence, and
// indented code stays content.
func TestBoundBodyKeepsCounts(t *testing.T) {
	nested := func(depth int, indent string) string {
		var b strings.Builder
		for i := range depth {
			b.WriteString(strings.Repeat(indent, i))
			b.WriteString("- item\n")
		}
		return b.String()
	}
	tests := []struct {
		name      string
		body      string
		sentences int
		content   bool
		capped    bool
	}{
		{"shallow list", nested(5, "  "), 5, true, false},
		{"deep list", nested(300, "  "), 300, true, false},
		{"deep list with tabs", nested(200, "\t"), 200, true, false},
		{"deep list, CRLF", strings.ReplaceAll(nested(100, "  "), "\n", "\r\n"), 100, true, false},
		{"indented code only", strings.Repeat(" ", 80) + "code\n", 0, true, false},
		{"blank", "\n" + strings.Repeat(" ", 90) + "\n", 0, false, false},
		{"quotes as deep as read", strings.Repeat("> ", maxDepth) + "One. Two.\n", 2, true, false},
		{"quotes deeper than read", strings.Repeat("> ", 300) + "One. Two.\n", 2, true, true},
		{"lists deeper than read", strings.Repeat("1. ", 300) + "One. Two.\n", 2, true, true},
		{"markers only", strings.Repeat(">", 1000) + "\n", 0, false, true},
	}
	p := newBodyParser()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c, capped := countContent(p, []byte(tt.body))
			if s != tt.sentences || c != tt.content || (capped != nil) != tt.capped {
				t.Errorf("countContent = %d, %v, capped %+v; want %d, %v, capped %v", s, c, capped, tt.sentences, tt.content, tt.capped)
			}
		})
	}
	if got, _ := boundBody([]byte("a\n" + strings.Repeat(" ", 40) + "b\n  c")); string(got) != "a\n"+strings.Repeat(" ", 32)+"b\n  c" {
		t.Errorf("boundBody = %q", got)
	}
	if in := []byte("  a\n    b\n> > - c\n"); &must(boundBody(in))[0] != &in[0] {
		t.Error("boundBody copied a body that needed no change")
	}
}

func must(b []byte, _ *Capped) []byte { return b }

// A line nesting past maxDepth keeps maxDepth markers and its text; what
// was cut is reported from the first such line.
func TestBoundBodyCutsDeepNesting(t *testing.T) {
	body := "x\n" + strings.Repeat(">", 300000) + " text\n" + strings.Repeat("1. ", 20) + "item\n"
	got, capped := boundBody([]byte(body))
	want := "x\n" + strings.Repeat(">", maxDepth) + " text\n" + strings.Repeat("1. ", maxDepth) + "item\n"
	if string(got) != want {
		t.Fatalf("boundBody kept %d bytes, want %q", len(got), want)
	}
	if capped == nil || capped.Depth != 300000 || capped.Lines != 2 ||
		capped.Span.Start != 2+maxDepth || capped.Span.End != 2+300000 {
		t.Fatalf("capped = %+v", capped)
	}
}

// Whatever the text, no line boundBody returns opens more than maxDepth
// blocks or holds a run of white space wider than maxIndent in its prefix,
// and a line's text after its prefix is kept.
func checkBounded(t *testing.T, body []byte) {
	t.Helper()
	got, _ := boundBody(body)
	in, out := bytes.SplitAfter(body, []byte("\n")), bytes.SplitAfter(got, []byte("\n"))
	if len(in) != len(out) {
		t.Fatalf("%d lines became %d", len(in), len(out))
	}
	for i, line := range out {
		depth, _, change := scanPrefix(line)
		if depth > maxDepth || change {
			t.Fatalf("line %d still nests %d deep (or is too wide): %.80q", i, depth, line)
		}
		if rest := in[i][markersEnd(in[i]):]; !bytes.HasSuffix(line, bytes.TrimLeft(rest, " \t")) {
			t.Fatalf("line %d lost its text %.40q: %.80q", i, rest, line)
		}
	}
}

func TestBoundBodyInvariant(t *testing.T) {
	for _, body := range []string{
		"", "\n", ">", strings.Repeat("> ", 40), strings.Repeat(">\t- 1) ", 30) + "x",
		strings.Repeat(" ", 100) + "- " + strings.Repeat(" ", 100) + "> x\n\r\n",
		strings.Repeat("- ", 17), strings.Repeat("1234567890. ", 20), strings.Repeat("*\n", 3),
	} {
		checkBounded(t, []byte(body))
	}
}
