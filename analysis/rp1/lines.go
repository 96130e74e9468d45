package rp1

import (
	"bytes"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
)

// Line-level markdown helpers. rp1's own parser is line-based (an agent reads
// "from ## Scratch Pad to the next ## heading"), so headings that split the
// file are found by scanning lines; goldmark only looks inside section bodies.

// atxHeading reports the level (1–6) and text of an ATX heading line, or 0.
// Up to three spaces of indentation are allowed, as in CommonMark; a closing
// run of '#' is dropped.
func atxHeading(line string) (int, string) {
	s := trimIndent(line)
	if s == "" || s[0] != '#' {
		return 0, ""
	}
	level := 0
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level > 6 {
		return 0, ""
	}
	rest := s[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, ""
	}
	text := strings.TrimSpace(rest)
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		text = strings.TrimSpace(t)
	}
	return level, text
}

// trimIndent drops up to three leading spaces; four or more make an
// indented code line, which is returned unchanged.
func trimIndent(line string) string {
	n := 0
	for n < len(line) && n < 4 && line[n] == ' ' {
		n++
	}
	if n == 4 {
		return line
	}
	return line[n:]
}

// htmlBlock tracks HTML comment blocks while scanning lines (CommonMark's
// HTML block of type 2: a line starting with "<!--", up to three spaces in,
// runs to the first line holding "-->"), so that a heading commented out
// ("<!--\n## Problem & Context\n_TBD_\n-->") is no heading: it renders as
// nothing, and a reader (rp1's agent included) does not see it.
type htmlBlock struct{ open bool }

// step feeds one line and reports whether it belongs to an HTML comment
// block. Call it only outside fenced code.
func (h *htmlBlock) step(line string) bool {
	if h.open {
		h.open = !strings.Contains(line, "-->")
		return true
	}
	s := trimIndent(line)
	if !strings.HasPrefix(s, "<!--") {
		return false
	}
	h.open = !strings.Contains(s[len("<!--"):], "-->")
	return true
}

// hider is the one reading of which lines Parse never sees: fenced code and
// HTML comment blocks. Parse, Headings and CloseBlocks all step through it,
// so what hides a heading from the parse is what a moved piece of text must
// close.
type hider struct {
	f codefence.Scanner
	c htmlBlock
}

// step feeds one line and reports whether it is hidden (inside, opening or
// closing a fence or a comment block).
func (h *hider) step(line string) bool {
	return !h.f.Open() && h.c.step(line) || h.f.Step(line)
}

// closer is the line that ends what is open after the lines fed so far
// ("" when nothing is): the fence's closing run or "-->".
func (h *hider) closer() string {
	switch {
	case h.c.open:
		return "-->"
	case h.f.Open():
		return h.f.Fence().Closer()
	}
	return ""
}

// htmlComment tracks <!-- … --> comments that span lines, so their text is
// not read as section content.
type htmlComment struct{ open bool }

// strip returns line with comment text blanked (same length, so offsets
// stay valid) and updates the state.
func (h *htmlComment) strip(line string) string {
	if !h.open && !strings.Contains(line, "<!--") {
		return line // the common case: no copy
	}
	b := []byte(line)
	i := 0
	for i < len(b) {
		if h.open {
			end := bytes.Index(b[i:], []byte("-->"))
			stop := len(b)
			if end >= 0 {
				stop = i + end + 3
				h.open = false
			}
			for j := i; j < stop; j++ {
				b[j] = ' '
			}
			i = stop
			continue
		}
		start := bytes.Index(b[i:], []byte("<!--"))
		if start < 0 {
			break
		}
		i += start
		h.open = true
	}
	return string(b)
}

// DemoteHeadings rewrites, outside fenced code and HTML comment blocks, every ATX heading of level
// <= level as a heading of level+1 (at most 6), so the text can sit in a
// section of that level without ending it; deeper headings are left alone.
// Finishing an interview uses it to carry an answer's sub-headings over.
func DemoteHeadings(s string, level int) string {
	lines := strings.Split(s, "\n")
	var h hider
	for i, line := range lines {
		if h.step(line) {
			continue // hidden from the parse: no heading to end a section
		}
		n, _ := atxHeading(line)
		if n == 0 || n > level {
			continue
		}
		j := strings.IndexByte(line, '#')
		lines[i] = line[:j] + strings.Repeat("#", min(level+1, 6)) + line[j+n:]
	}
	return strings.Join(lines, "\n")
}
