package rp1

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
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

// Title is the generation's name for people.
func (f Format) Title() string {
	if f == FormatSkeleton {
		return "rp1's skeleton charter (seven regions, no scratch pad; PR #436 on)"
	}
	return "rp1's scratch-pad charter (five sections, an interview scratch pad)"
}

// Era is the generation a charter is read as, and why: Parse decides it
// (detect) and keeps it on the Charter, and every reader (check, hover,
// the interview, migrate) uses this one decision through Charter.Format.
type Era struct {
	Format Format
	// Reasons are the evidence for Format, the deciding one first.
	Reasons []Clue
	// Otherwise says what would make it the other generation.
	Otherwise string
	// Conflicts are evidence for the other generation, which lost: Check
	// reports each as generation-conflict (a scratch pad in a skeleton
	// charter as legacy-scratch-pad).
	Conflicts []Clue
}

// Clue is one piece of evidence: where it is, what it is and what it
// means.
type Clue struct {
	Kind  ClueKind
	Span  source.Span // empty for an absence
	Line  int         // 1-based; 0 for an absence
	What  string      // the evidence as written: "`## Vision`"
	Means string      // what it says about the generation
}

// ClueKind names what a clue is.
type ClueKind string

const (
	ClueProducer   ClueKind = "producer"    // front matter naming the skeleton template
	ClueRegion     ClueKind = "region"      // a skeleton region heading: Vision, ### Will, ### Won't
	ClueVersion    ClueKind = "version"     // a **Version** header field
	ClueScratchPad ClueKind = "scratch-pad" // a ## Scratch Pad
	ClueTitle      ClueKind = "title"       // the scratch-pad template's placeholder title
	ClueNone       ClueKind = "none"        // no evidence either way
)

// String is the clue as people read it: "line 3: `## Vision`, a region …".
func (c Clue) String() string {
	s := c.Means
	if c.What != "" {
		s = c.What + ", " + c.Means
	}
	if c.Line > 0 {
		return fmt.Sprintf("line %d: %s", c.Line, s)
	}
	return s
}

// Reading is the era in the shape every family says its reading in.
func (e Era) Reading() *feature.Reading {
	return feature.NewReading(string(e.Format), e.Format.Title(), e.Reasons, e.Otherwise, e.Conflicts)
}

// detect decides the generation from the file's evidence. The regions
// decide: rp1 since PR #436 reads every charter as a skeleton, and a file
// with the skeleton's own regions is one.
//
//  1. front matter naming the charter template ("producer:
//     charter-interviewer"), or the template's "### Will" / "### Won't"
//     headings → skeleton;
//  2. a scratch-pad interview under way (a "## Scratch Pad" with an
//     answered entry) → scratch pad: rp1's bootstrap of that era wrote
//     "## Vision" too, so a Vision heading alone does not take the
//     interview's answers away;
//  3. a Vision heading → skeleton;
//  4. otherwise → scratch pad (the five-section charter, and the default for
//     an empty file, whose interview starts a scratch pad).
//
// The other generation's evidence is a conflict: beside skeleton regions,
// what the scratch-pad era wrote (a **Version** header field, a
// "## Scratch Pad", the "[To Be Determined]" title); beside an interview
// under way, the Vision heading. Both are said out loud (Check's
// generation-conflict, a skeleton's legacy-scratch-pad), never guessed
// silently.
func detect(ch *Charter) Era {
	ix := ch.Index
	src := ix.Source()
	clue := func(kind ClueKind, span source.Span, what, means string) Clue {
		c := Clue{Kind: kind, Span: span, What: what, Means: means}
		if span.End > span.Start {
			c.Line = ix.Line(span.Start) + 1
		}
		return c
	}
	var skeleton, pad []Clue
	certain := false // evidence only the skeleton template leaves
	if fm := ch.FrontMatter; fm.End > fm.Start {
		at := fm.Start
		for _, line := range strings.SplitAfter(string(src[fm.Start:fm.End]), "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
			if ok && strings.TrimSpace(k) == "producer" && strings.Trim(strings.TrimSpace(v), `"'`) == "charter-interviewer" {
				span := source.Span{Start: at, End: at + len(strings.TrimRight(line, "\r\n"))}
				skeleton = append(skeleton, clue(ClueProducer, span, "front matter `producer: charter-interviewer`", "the mark of rp1's skeleton template (PR #436)"))
				certain = true
			}
			at += len(line)
		}
	}
	// The first diag.MaxPerCode region headings are clues, as many as
	// check reports generation conflicts for: a file of 110,000 "### Will"
	// headings made as many clues (60 MB), which no reader of the reasons
	// goes through. The rest still count as evidence.
	regions := 0
	region := func(h Heading) {
		if regions < diag.MaxPerCode {
			what := "`" + strings.Repeat("#", h.Level) + " " + h.Text + "`"
			skeleton = append(skeleton, clue(ClueRegion, h.Span, what, "a region of rp1's skeleton charter (PR #436)"))
		}
		regions++
	}
	for _, h := range scanHeadings(ch) {
		if h.Level < 2 || h.Level > 3 {
			continue
		}
		switch regionKey(h.Text) {
		case "vision", "vision statement", "product vision", "project vision":
			region(h)
		case "will", "won't":
			if h.Level == 3 {
				region(h)
				certain = true
			}
		}
	}
	if f := ch.Header("Version"); f != nil {
		pad = append(pad, clue(ClueVersion, f.Span, "`**Version**`", "a header field of rp1's scratch-pad era (the skeleton template writes none)"))
	}
	live := false // a scratch-pad interview under way
	if sp := ch.ScratchPad; sp != nil {
		answered := 0
		for _, e := range sp.Entries {
			if e.Answered() {
				answered++
			}
		}
		means := "the scratch-pad interview's state (the skeleton keeps none)"
		switch {
		case answered == 1:
			live, means = true, "a scratch-pad interview under way, 1 question answered"
		case answered > 1:
			live, means = true, fmt.Sprintf("a scratch-pad interview under way, %d questions answered", answered)
		}
		pad = append(pad, clue(ClueScratchPad, sp.HeadingSpan, "`## Scratch Pad`", means))
	}
	if strings.Contains(ch.Title, "[To Be Determined]") {
		pad = append(pad, clue(ClueTitle, ch.TitleSpan, "the title `[To Be Determined]`", "what the scratch-pad interview's CREATE mode writes"))
	}
	if live && !certain && len(skeleton) > 0 {
		// The interview comes first among the reasons: it decided.
		for i, c := range pad {
			if c.Kind == ClueScratchPad {
				pad[0], pad[i] = pad[i], pad[0]
			}
		}
		return Era{Format: FormatScratchPad, Reasons: pad, Conflicts: skeleton,
			Otherwise: "once the interview is finished (or the charter migrated: `charter-lsp migrate`), its skeleton regions make it rp1's skeleton charter"}
	}
	if len(skeleton) > 0 {
		return Era{Format: FormatSkeleton, Reasons: skeleton, Conflicts: pad,
			Otherwise: "without `## Vision`, `### Will` and `### Won't` (and the template's `producer: charter-interviewer` front matter) it would be read as the scratch-pad charter"}
	}
	means := "no skeleton region (`## Vision`, `### Will`, `### Won't`): the five-section scratch-pad charter"
	if len(bytes.TrimSpace(src)) == 0 {
		means = "an empty file: the scratch-pad interview starts it in CREATE mode"
	}
	pad = append([]Clue{{Kind: ClueNone, Means: means}}, pad...)
	return Era{Format: FormatScratchPad, Reasons: pad,
		Otherwise: "a `## Vision` heading, or `### Will` / `### Won't` under `## Scope Guardrails`, would read it as rp1's skeleton charter (PR #436)"}
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
	ch.headingsOnce.Do(func() {
		// Room for a heading at every line starting with '#': growing the
		// list by a quarter at a time allocated four times its size for a
		// file of 200,000 headings.
		out := make([]Heading, 0, bytes.Count(ch.Index.Source(), []byte("\n#"))+1)
		eachHeading(ch.Index, func(h Heading) bool {
			out = append(out, h)
			return true
		})
		ch.headings = out
	})
	return ch.headings
}

// Headings calls fn with each ATX heading of src as Parse reads headings
// (after a front matter block, outside fenced code and HTML comment
// blocks), until fn returns false. Deciding whether a file is an rp1
// charter (analysis.Classify) reads headings through it, so that and the
// parse never disagree on what a heading is.
func Headings(src []byte, fn func(Heading) bool) {
	eachHeading(source.NewIndex(src), fn)
}

func eachHeading(ix *source.Index, fn func(Heading) bool) {
	src := string(ix.Source()) // one copy; each line is a slice of it
	n := ix.LineCount()
	if len(src) == 0 {
		return
	}
	_, first := frontMatter(ix, n)
	var h hider
	for i := first; i < n; i++ {
		line := ix.LineSpan(i)
		text := src[line.Start:line.End]
		if h.step(text) {
			continue
		}
		if level, htext := atxHeading(text); level > 0 {
			if !fn(Heading{Level: level, Text: htext, Span: line, Line: i}) {
				return
			}
		}
	}
}

// IsScratchPadHeading reports whether a level-2 heading's text names the
// interview's scratch pad ("Scratch Pad", in any case and spacing).
func IsScratchPadHeading(text string) bool {
	first, rest := nextWord(text)
	second, rest := nextWord(rest)
	third, _ := nextWord(rest)
	return strings.EqualFold(first, "scratch") && strings.EqualFold(second, "pad") && third == ""
}

// nextWord splits s after its first word (strings.Fields' words, without
// the allocation).
func nextWord(s string) (word, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		return s, ""
	}
	return s[:end], s[end:]
}
