package rp1

import (
	"fmt"
	"sort"
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
			found, _ := findMarkers([]byte(tt.body), base)
			for _, p := range found {
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

// markerSpans runs each expression only where it can match and checks
// overlaps in one pass; on random lines it finds exactly what running
// every expression and comparing every pair finds.
func TestMarkerSpansMatchesPlainSearch(t *testing.T) {
	plain := func(line string) []marker {
		var out []marker
		var taken [][]int
		inside := func(m []int) bool {
			for _, s := range taken {
				if m[0] >= s[0] && m[1] <= s[1] {
					return true
				}
			}
			return false
		}
		for _, m := range placeholderRe.FindAllStringIndex(line, -1) {
			if line[m[0]] == '[' && m[1] < len(line) && strings.ContainsRune("([:", rune(line[m[1]])) {
				continue
			}
			out = append(out, marker{m[0], m[1], ProblemPlaceholder})
			taken = append(taken, m)
		}
		for _, m := range tbdRe.FindAllStringIndex(line, -1) {
			if !inside(m) {
				out = append(out, marker{m[0], m[1], ProblemTBD})
				taken = append(taken, m)
			}
		}
		for _, m := range todoRe.FindAllStringIndex(line, -1) {
			if !inside(m) {
				end := m[1] - 1
				for end > m[0] && (line[end-1] == ' ' || line[end-1] == '\t') {
					end--
				}
				out = append(out, marker{m[0], end, ProblemPlaceholder})
				taken = append(taken, m)
			}
		}
		if item, off := stripLineMarks(line); bareTodoRe.MatchString(item) && !inside([]int{off, off + len(item)}) {
			out = append(out, marker{off, off + len(strings.TrimRight(item, ".!")), ProblemPlaceholder})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
		return out
	}
	pieces := []string{"[", "]", "<", ">", "{", "}", "(", ":", " ", "TBD", "tbd", "_", "*", "TODO", "FIXME", "todo", "your ", "To be determined",
		"insert x", "Add", "placeholder", "fill me in", "K", "\u212a", "ſ", "{Name}", "x", "é", "- ", "1. ", "(ann)", "tbc", "\t"}
	seed := uint32(11)
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for range 1 + n%12 {
			seed = seed*1664525 + 1013904223
			b.WriteString(pieces[int(seed>>16)%len(pieces)])
		}
		line := b.String()
		if got, want := markerSpans(line, -1), plain(line); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("markerSpans(%q) = %v, want %v", line, got, want)
		}
	}
}
