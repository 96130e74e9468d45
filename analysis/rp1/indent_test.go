package rp1

import (
	"strings"
	"testing"
)

// Deep nesting is cut to maxIndent before goldmark sees it, without
// changing what counts: every list item still counts as a sentence, and
// indented code stays content.
func TestCapIndentKeepsCounts(t *testing.T) {
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
	}{
		{"shallow list", nested(5, "  "), 5, true},
		{"deep list", nested(300, "  "), 300, true},
		{"deep list with tabs", nested(200, "\t"), 200, true},
		{"deep list, CRLF", strings.ReplaceAll(nested(100, "  "), "\n", "\r\n"), 100, true},
		{"indented code only", strings.Repeat(" ", 80) + "code\n", 0, true},
		{"blank", "\n" + strings.Repeat(" ", 90) + "\n", 0, false},
	}
	p := newBodyParser()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c := countContent(p, []byte(tt.body))
			if s != tt.sentences || c != tt.content {
				t.Errorf("countContent = %d, %v; want %d, %v", s, c, tt.sentences, tt.content)
			}
		})
	}
	if got := string(capIndent([]byte("a\n"+strings.Repeat(" ", 40)+"b\n  c"), 32)); got != "a\n"+strings.Repeat(" ", 32)+"b\n  c" {
		t.Errorf("capIndent = %q", got)
	}
	if in := []byte("  a\n    b\n"); &capIndent(in, 32)[0] != &in[0] {
		t.Error("capIndent copied a body that needed no change")
	}
}
