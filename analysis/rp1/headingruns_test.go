package rp1

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/text"
)

// A section of 110,000 "### Will" headings (1 MB) made goldmark build a
// node and a text segment for each, about 350 bytes a heading, held while
// the section was counted: 55 MB for one parse, and check parses a
// skeleton charter with a scratch pad three times (its migration fix). The
// headings of a run of headings and blank lines after the first count for
// nothing, and goldmark no longer sees them.
func TestHeadingRunsCostLittle(t *testing.T) {
	p := newBodyParser()
	for _, body := range []string{strings.Repeat("### Will\n", 110_000), strings.Repeat("## a\n\n", 80_000)} {
		n := testing.AllocsPerRun(1, func() { countContent(p, []byte(body)) })
		if n > 1000 {
			t.Errorf("%.0f allocations to count %q × %d", n, body[:strings.IndexByte(body, '\n')], strings.Count(body, "\n#"))
		}
	}
}

// Whatever the text, dropping the later headings of a run of headings and
// blank lines leaves the counts as goldmark gives them for the whole text:
// 20,000 random bodies of headings (indented, in fences, after HTML, lists,
// quotes, paragraphs and code) and blank lines.
func TestDroppingHeadingRunsKeepsCounts(t *testing.T) {
	p := newBodyParser()
	count := func(body []byte) (int, bool) {
		body, _ = boundBody(body)
		sentences, content := 0, false
		countNodes(p.Parse(text.NewReader(body)), body, &sentences, &content)
		return sentences, content
	}
	pieces := []string{"### Will\n", "# a\n", "######\n", "####### x\n", "#x\n", "  ## a\n", "\n", "\r\n", "text here.\n", "two. words\n",
		"- item\n", "  - nested\n", "> quote\n", "```\n", "~~~\n", "    code\n", "<div>\n", "<!--\n", "-->\n", "<pre>\n", "</pre>\n",
		"| a | b |\n", "|---|---|\n", "===\n", "---\n", "1. one\n", "- ```\n", "  ```\n", "### Q1: x\r\n", "#\n"}
	for text := range joins(11, 20000, 14, pieces) {
		body := []byte(text)
		s1, c1 := count(body)
		s2, c2, _ := countContent(p, body)
		if s1 != s2 || c1 != c2 {
			t.Fatalf("%q: %d sentences, content %v without dropping headings; %d, %v with", body, s1, c1, s2, c2)
		}
	}
}
