package rp1

import (
	"fmt"
	"strings"
	"testing"
)

// TestFindMarkers pins which TBD, placeholder and TODO markers a section
// body reports, with their text and absolute spans.
func TestFindMarkers(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string // kind:text@start
	}{
		{"bare TBD", "Users: TBD.", []string{"tbd:TBD@7"}},
		{"lower-case tbd in prose is not a marker", "tbd and Tbd", nil},
		{"emphasised TBD", "Who? _TBD_", []string{"tbd:_TBD_@5"}},
		{"TBD inside a word", "notTBD TBDs", nil},
		{"bracketed placeholder", "[To Be Determined] users", []string{"placeholder:[To Be Determined]@0"}},
		{"placeholder in any case", "[your Project Name] and [FILL ME IN later]", []string{"placeholder:[your Project Name]@0", "placeholder:[FILL ME IN later]@24"}},
		{"TBD inside a placeholder counts once", "[TBD] [todo]", []string{"placeholder:[TBD]@0", "placeholder:[todo]@6"}},
		{"a link is not a placeholder", "[your docs](https://x) [describe it][ref] [insert]: u", nil},
		{"TODO: is a marker, the word todo (or FIXME) in prose is not", "TODO: x. FIXME. todo list, fixme", []string{"placeholder:TODO@0"}},
		{"markers on later lines; TODO as a word is prose", "One.\nTwo.\n\nTODO later\n  TBD", []string{"tbd:TBD@24"}},
		{"fenced code is skipped", "```\nTBD\n[TODO]\n```\nTBD", []string{"tbd:TBD@19"}},
		{"HTML comments are skipped", "<!-- TBD --> a\n<!-- TODO\nFIXME --> TBD", []string{"tbd:TBD@35"}},
		{"non-ASCII before a marker", "Zielgruppe 🏢: TBD", []string{"tbd:TBD@17"}},
		{"prose without markers", strings.Repeat("Users lose work. It happens daily.\n", 50), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const base = 100
			var got []string
			for _, p := range findMarkers([]byte(tt.body), base) {
				if p.Span.End-p.Span.Start != len(p.Text) || tt.body[p.Span.Start-base:p.Span.End-base] != p.Text {
					t.Errorf("span %+v does not cover %q", p.Span, p.Text)
				}
				got = append(got, fmt.Sprintf("%s:%s@%d", p.Kind, p.Text, p.Span.Start-base))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("findMarkers(%q)\n got %q\nwant %q", tt.body, got, tt.want)
			}
		})
	}
}
