package rp1

import (
	"bytes"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Format is the rp1 generation a charter was written for. rp1 has read
// charters two ways (FORMATS.md §2.5):
//
//   - FormatScratchPad: five sections (Problem & Context … Success Criteria)
//     and a stateless interviewer whose state is a "## Scratch Pad" in the
//     file; every writer of that era put "**Version**: 1.0.0" in the header
//     (rp1 plugins/dev/commands/blueprint.md and bootstrap.md @8b1ef55).
//   - FormatSkeleton: seven required regions (Vision … Success Criteria with
//     Scope Guardrails › Will / Won't) holding "_TBD_" until filled, a
//     **Status** derived from the gaps, no scratch pad (rp1 PR #436,
//     plugins/base/skills/artifact-templates/templates/charter-interviewer/
//     charter.md@3ea31b3a; the single-dispatch template @2a3bce24 has the same
//     body). Its template writes no **Version**.
type Format string

const (
	FormatScratchPad Format = "scratch-pad"
	FormatSkeleton   Format = "skeleton"
)

// detectFormat decides the generation from the file's own shape:
//
//  1. front matter naming the charter template ("producer:
//     charter-interviewer") → skeleton;
//  2. a **Version** header field → scratch pad (the bootstrap of that era
//     also wrote "## Vision" and "### Will Do", so Vision alone does not
//     decide);
//  3. a Vision heading, or "### Will" / "### Won't" headings → skeleton;
//  4. otherwise → scratch pad (the five-section charter, and the default for
//     an empty file, whose interview starts a scratch pad).
func detectFormat(ch *Charter) Format {
	src := ch.Index.Source()
	if fm := ch.FrontMatter; fm.End > fm.Start {
		for _, line := range strings.Split(string(src[fm.Start:fm.End]), "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
			if ok && strings.TrimSpace(k) == "producer" && strings.Trim(strings.TrimSpace(v), `"'`) == "charter-interviewer" {
				return FormatSkeleton
			}
		}
	}
	if ch.Header("Version") != nil {
		return FormatScratchPad
	}
	for _, h := range scanHeadings(ch) {
		if h.Level < 2 || h.Level > 3 {
			continue
		}
		switch regionKey(h.Text) {
		case "vision", "vision statement", "product vision", "project vision":
			return FormatSkeleton
		case "will", "won't":
			if h.Level == 3 {
				return FormatSkeleton
			}
		}
	}
	return FormatScratchPad
}

// Heading is one ATX heading outside fenced code.
type Heading struct {
	Level int
	Text  string      // without the "#"s and closing run
	Span  source.Span // the whole line, without its line ending
	Line  int
}

// scanHeadings lists the headings after the front matter, outside fenced
// code, including those inside a scratch pad. The list is made once per
// charter and shared: callers must not modify it.
func scanHeadings(ch *Charter) []Heading {
	ch.headingsOnce.Do(func() { ch.headings = findHeadings(ch) })
	return ch.headings
}

func findHeadings(ch *Charter) []Heading {
	ix := ch.Index
	src := ix.Source()
	n := ix.LineCount()
	if len(src) == 0 {
		return nil
	}
	first := 0
	if ch.FrontMatter.End > 0 {
		first = ix.Line(ch.FrontMatter.End) + 1
	}
	// Room for a heading at every line starting with '#': growing the list
	// by a quarter at a time allocated four times its size for a file of
	// 200,000 headings.
	out := make([]Heading, 0, bytes.Count(src, []byte("\n#"))+1)
	var (
		f fence
		c htmlBlock
	)
	for i := first; i < n; i++ {
		line := ix.LineSpan(i)
		text := string(src[line.Start:line.End])
		if !f.open() && c.step(text) || f.step(text) {
			continue
		}
		if level, htext := atxHeading(text); level > 0 {
			out = append(out, Heading{Level: level, Text: htext, Span: line, Line: i})
		}
	}
	return out
}
