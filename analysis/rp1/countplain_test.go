package rp1

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/text"
)

// countPlain answers what goldmark does wherever it answers at all: on
// 200,000 random bodies of the lines it reads and of lines it leaves to
// goldmark (lists of other kinds, indented and lazy lines, setext
// underlines, tables, HTML, fences, carriage returns, headings without a
// space), 100,000 mostly of the lines it reads, and the plain sections
// charters hold, which it answers for.
func TestCountPlainAgreesWithGoldmark(t *testing.T) {
	p := newBodyParser()
	pieces := []string{"", "\n", "   \n", "\t\n", "Word here.\n", "Two. Sentences! ", "a", "abc def\n", "x | y\n", "Ünï. \n",
		"- item\n", "- item. Two.\n", "* star\n", "+ plus\n", "-  two spaces\n", "- \n", "-\n", "## Head\n", "#Hash\n",
		"####### seven\n", "# \n", "#\n", "###### six\n", "1. one\n", "2) two\n", "  indented\n", "    code\n", "> quote\n",
		"```\n", "~~~\n", "---\n", "===\n", "***\n", "<div>\n", "<!-- c -->\n", "[x]: /u\n", "- [ ] task\n", "text\r\n",
		"- a\r\n", "|a|b|\n", "--|--\n", "a|b\n", "- | -\n", "Text with … ellipsis\n", "e.g. this\n", "\"Quoted.\" Then\n",
		"end.)\n", "Why?\n", "no stop\n", "*emph* x\n", "_u_\n", "- - -\n", "* * *\n", "-\ta\n", "Tab\there.\n", "trailing  \n",
		"\v\n", "a\vb\n", "\x00\n", "- x\n  y\n", "b\n"}
	// And 100,000 of the lines it reads only, and a few it does not.
	plainPieces := []string{"\n", "  \n", "\t\n", "Word here.\n", "Two. Sentences! ", "a", "abc def\n", "x | y\n", "e.g. this",
		"- item\n", "- item. Two.\n", "* star\n", "+ plus\n", "## Head\n", "# H. Two.\n", "###### six\n", "Why?\n", "no stop\n",
		"end.)\n", "- a.\nb. c\n", "--|--\n", "===\n", "---\n", "  b\n", "1. x\n"}
	plain := 0
	for body := range func(yield func(string) bool) {
		for body := range joins(7, 200000, 12, pieces) {
			if !yield(body) {
				return
			}
		}
		for body := range joins(9, 100000, 10, plainPieces) {
			if !yield(body) {
				return
			}
		}
	} {
		b := []byte(body)
		got, ok := countPlain(b)
		if !ok {
			continue
		}
		plain++
		want, content := 0, false
		countNodes(p.Parse(text.NewReader(b)), b, &want, &content)
		if got != want || (got > 0) != content {
			t.Fatalf("%q: countPlain %d sentences; goldmark %d, content %v", body, got, want, content)
		}
	}
	if plain < 5000 {
		t.Errorf("countPlain answered for %d bodies only", plain)
	}
	for _, body := range []string{
		"Volunteer groups log what they collect on paper forms, typed up weeks later if at all.\n",
		"- Coordinators who run a group of 5 to 40 volunteers.\n",
		"TBD\n",
		"\n### We Will\n- Record items by category from a phone, offline.\n\n### We Won't\n- Handle scheduling or payments.\n",
	} {
		if _, ok := countPlain([]byte(body)); !ok {
			t.Errorf("countPlain left %q to goldmark", body)
		}
	}
}

func FuzzCountPlain(f *testing.F) {
	f.Add("Word here.\n- item\n## Head\nmore\n\nlast")
	p := newBodyParser()
	f.Fuzz(func(t *testing.T, body string) {
		b := []byte(body)
		got, ok := countPlain(b)
		if !ok {
			return
		}
		want, content := 0, false
		countNodes(p.Parse(text.NewReader(b)), b, &want, &content)
		if got != want || (got > 0) != content {
			t.Fatalf("%q: countPlain %d sentences; goldmark %d, content %v", body, got, want, content)
		}
	})
}

// mayHoldMarker's folded comparison answers what lowering each word's
// start did, on every string of up to six pieces of words, their
// capitals and letters that fold or lower to theirs.
func TestMayHoldMarkerFolds(t *testing.T) {
	lowered := func(line string) bool {
		for i := 0; i+3 <= len(line); i++ {
			switch line[i] {
			case 't', 'T', 'f', 'F':
				w := strings.ToLower(line[i:min(i+5, len(line))])
				if strings.HasPrefix(w, "tbd") || strings.HasPrefix(w, "todo") || strings.HasPrefix(w, "fixme") {
					return true
				}
			}
		}
		return false
	}
	pieces := []string{"t", "T", "b", "B", "d", "D", "o", "O", "f", "F", "i", "I", "İ", "ı", "x", "X", "m", "M", "e", "E", "K", " ", "é"}
	for line := range joins(3, 300000, 6, pieces) {
		if strings.ContainsAny(line, "[<{") || strings.Contains(line, "TODO") || strings.Contains(line, "FIXME") {
			continue // answered before the words are looked at
		}
		if got, want := mayHoldMarker(line), lowered(line); got != want {
			t.Fatalf("mayHoldMarker(%q) = %v, lowering said %v", line, got, want)
		}
	}
}
