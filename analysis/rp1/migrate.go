package rp1

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Migration to the skeleton format (FORMATS.md §4): rp1 never migrates, and
// since PR #436 it reads a scratch-pad charter's regions only, so answers
// still in a scratch pad are lost to it and the five-section names leave
// gaps. Migrate writes the charter in the skeleton's shape:
//
//   - title, front matter, **Created**, **Version** and other header fields
//     are kept (the skeleton template writes no **Version**, but rp1 keeps
//     one it finds, and it is the author's) and **Status** is recomputed by
//     the gap rule, each field on its own line;
//   - Problem & Context, Target Users and Success Criteria keep their text
//     (any heading level becomes ##); Value Proposition becomes Business
//     Rationale; a scope section with in/out parts (### We Will, ### Will Do,
//     ### In Scope (v1), **Out of scope**: …) becomes Scope Guardrails ›
//     ### Will / ### Won't with the lists byte for byte; a scope section
//     without such parts is kept whole under Scope Guardrails and Will and
//     Won't stay gaps;
//   - each answer in the scratch pad goes into its region (after any text
//     already there); a Scope answer is split into Will and Won't, sentence
//     by sentence, by its "won't / not / out of scope" wording;
//   - Vision is kept when the charter has one, else "_TBD_": it is never
//     inferred from another section;
//   - the Brain Dump is never written into a region: Offers lists, per gap,
//     its sentences that speak to it, for the user to place;
//   - other sections are kept byte for byte, after the regions, in order;
//   - the scratch pad keeps only what was not placed (the Brain Dump, an
//     answer whose topic names no region, a malformed entry) and is removed
//     once every answer is placed. Asked-but-unanswered and skipped entries
//     hold no answer and go.
//
// A skeleton charter without a scratch pad is left as it is.

// MigrateOptions are the inputs besides the text.
type MigrateOptions struct {
	// Now dates a charter that has no **Created** field; zero means today.
	Now time.Time
}

// Placement says where one answered scratch-pad entry went.
type Placement struct {
	Entry   *Entry
	Regions []RegionID // empty: not placed, still in the scratch pad
}

// Migration is the result of Migrate.
type Migration struct {
	Old, New []byte
	// From is the format the charter was read in.
	From Format
	// Placed lists every answered entry of the scratch pad and where it
	// went; entries with no region stay in the pad.
	Placed []Placement
	// PadRemoved: the charter had a scratch pad and every answer in it was
	// placed, so it is gone.
	PadRemoved bool
	// Offers are the Brain Dump's sentences per region that is still a gap,
	// to be offered to the user, never written.
	Offers map[RegionID][]Sentence
	// Gaps are the regions still gaps in New, in document order.
	Gaps []RegionID

	version string // the scratch-pad charter's **Version**, kept ("": none)
	// padBefore, padAfter: Old and New hold a scratch pad.
	padBefore, padAfter bool
}

// Changed: New differs from Old.
func (m *Migration) Changed() bool { return string(m.Old) != string(m.New) }

// Edit is one edit turning Old into New: the changed middle, common prefix
// and suffix left out.
func (m *Migration) Edit() diag.Edit {
	p := 0
	for p < len(m.Old) && p < len(m.New) && m.Old[p] == m.New[p] {
		p++
	}
	q := 0
	for q < len(m.Old)-p && q < len(m.New)-p && m.Old[len(m.Old)-1-q] == m.New[len(m.New)-1-q] {
		q++
	}
	return diag.Edit{Span: source.Span{Start: p, End: len(m.Old) - q}, NewText: string(m.New[p : len(m.New)-q])}
}

// ErrNotCharter: the text holds no rp1 charter structure to migrate.
var ErrNotCharter = errors.New("rp1: nothing to migrate: no charter title, section or scratch pad")

// Migrate turns an rp1 charter of the scratch-pad era (five sections, an
// interview scratch pad, or both) into the skeleton format, or places the
// answers of a scratch pad left in a skeleton charter. It is pure: text in,
// text out, with an account of every answer. It fails only on text with no
// charter in it.
func Migrate(src []byte, opts MigrateOptions) (*Migration, error) {
	return migrate(Parse(src), opts)
}

// migrate is Migrate of a charter parsed already (the check's own parse,
// for legacy-scratch-pad's fix); it reads ch and changes nothing in it.
func migrate(ch *Charter, opts MigrateOptions) (*Migration, error) {
	src := ch.Index.Source()
	if !holdsCharter(ch) {
		return nil, ErrNotCharter
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	m := &Migration{Old: src, From: ch.Format, padBefore: ch.ScratchPad != nil}
	nl := source.LineEnding(src)
	if ch.Format == FormatSkeleton && ch.ScratchPad == nil {
		m.New = src // already the target format
		m.Gaps = ch.Skeleton.Gaps()
		return m, nil
	}
	ans := placeAnswers(ch, m)
	var text []byte
	if ch.Format == FormatSkeleton {
		text = migrateSkeleton(ch, ans, m, nl)
	} else {
		text = migrateFiveSections(ch, ans, m, opts, nl)
	}
	// The one parse of the new text: its gaps decide **Status**, and
	// setting it changes no region and no scratch pad.
	after := Parse(text)
	sk := ReadSkeleton(after)
	m.New = setStatus(text, after, sk)
	if nl == "\r\n" {
		m.New = []byte(source.WithLineEnding(string(m.New), nl))
	}
	m.Gaps, m.padAfter = sk.Gaps(), after.ScratchPad != nil
	m.Offers = offers(ch, m.Gaps)
	return m, nil
}

// holdsCharter: ch has a title, a section or a scratch pad, something to
// migrate (else ErrNotCharter).
func holdsCharter(ch *Charter) bool {
	return ch.Title != "" || len(ch.Sections) > 0 || ch.ScratchPad != nil
}

// answers is what the scratch pad's answers give each region, and which
// entries stay in the pad.
type answers struct {
	text map[RegionID][]string // markdown per region, in entry order
	keep []*Entry              // entries that stay in the scratch pad
}

// placeAnswers maps every entry of the scratch pad to its regions.
func placeAnswers(ch *Charter, m *Migration) answers {
	a := answers{text: map[RegionID][]string{}}
	if ch.ScratchPad == nil {
		return a
	}
	for _, e := range ch.ScratchPad.Entries {
		switch {
		case e.Malformed() || e.Number == 0:
			a.keep = append(a.keep, e) // text the interviewer never read: not ours to drop
			continue
		case !e.Answered():
			continue // pending or skipped: no answer to place
		}
		p := Placement{Entry: e}
		if !IsBrainDump(e.Topic) {
			for _, id := range e.Sections() {
				switch id {
				case Problem:
					p.Regions = append(p.Regions, RegionProblem)
					a.text[RegionProblem] = append(a.text[RegionProblem], AnswerMarkdown(e.Answer))
				case Users:
					p.Regions = append(p.Regions, RegionUsers)
					a.text[RegionUsers] = append(a.text[RegionUsers], AnswerMarkdown(e.Answer))
				case ValueProp:
					p.Regions = append(p.Regions, RegionRationale)
					a.text[RegionRationale] = append(a.text[RegionRationale], AnswerMarkdown(e.Answer))
				case Success:
					p.Regions = append(p.Regions, RegionSuccess)
					a.text[RegionSuccess] = append(a.text[RegionSuccess], AnswerMarkdown(e.Answer))
				case Scope:
					will, wont := splitScopeAnswer(e.Answer)
					if will != "" {
						p.Regions = append(p.Regions, RegionWill)
						a.text[RegionWill] = append(a.text[RegionWill], will)
					}
					if wont != "" {
						p.Regions = append(p.Regions, RegionWont)
						a.text[RegionWont] = append(a.text[RegionWont], wont)
					}
				}
			}
		}
		if len(p.Regions) == 0 {
			a.keep = append(a.keep, e)
		}
		m.Placed = append(m.Placed, p)
	}
	return a
}

// AnswerMarkdown is an answer ready to sit in a ## region, for migration
// and for finishing an interview alike: line endings normalised, headings
// that would end the region demoted ("# x", "## x" become "### x"), and a
// code fence or HTML comment the answer left open closed (CloseBlocks), so
// its structure survives whole and cannot swallow the next section.
func AnswerMarkdown(s string) string {
	return CloseBlocks(DemoteHeadings(strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")), 2))
}

// wontRe: wording that puts a scope statement on the Won't side.
var wontRe = regexp.MustCompile(`(?i)\b(?:won't|wont|will not|not in scope|out of scope|no |not |never|exclud|non-goal|without)`)

// splitScopeAnswer splits a Scope answer into Will and Won't lists: list
// items and sentences go to Won't when they say what is not done, else to
// Will; the items under a heading or label such as "Out of scope" all go to
// Won't, under "In scope" to Will. List items are kept as written (nested
// items with their parent); sentences become items.
func splitScopeAnswer(answer string) (will, wont string) {
	var w, n []string
	side := 0 // 0 by wording, 1 will, -1 won't
	var cur *[]string
	lines := strings.Split(strings.ReplaceAll(strings.TrimSpace(answer), "\r\n", "\n"), "\n")
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		label := t
		if lvl, h := atxHeading(t); lvl > 0 {
			label = h
		} else if m := boldLineRe.FindStringSubmatch(t); m != nil {
			label = m[1] + m[2]
		} else {
			label = ""
		}
		if label != "" {
			switch key := regionKey(label); {
			case wontVariantKeys[key] || strings.HasPrefix(key, "out of scope") || strings.HasPrefix(key, "not in scope"):
				side = -1
			case willVariantKeys[key] || strings.HasPrefix(key, "in scope"):
				side = 1
			}
			continue
		}
		indented := line != strings.TrimLeft(line, " \t")
		if IsListItem(t) && indented && cur != nil {
			*cur = append(*cur, line) // a nested item stays with its parent
			continue
		}
		var pieces []string
		if IsListItem(t) {
			pieces = []string{line}
		} else {
			for _, s := range SplitSentences(t) {
				pieces = append(pieces, "- "+s.Text)
			}
		}
		for _, p := range pieces {
			onWont := side == -1 || (side == 0 && wontRe.MatchString(p))
			if onWont {
				n = append(n, p)
				cur = &n
			} else {
				w = append(w, p)
				cur = &w
			}
		}
	}
	return strings.Join(w, "\n"), strings.Join(n, "\n")
}

// migrateSkeleton places the answers of a scratch pad left in a skeleton
// charter into its regions, leaving everything else as it is.
func migrateSkeleton(ch *Charter, a answers, m *Migration, nl string) []byte {
	src := ch.Index.Source()
	sk := ch.Skeleton
	var edits []diag.Edit
	for _, r := range sk.Regions {
		texts := a.text[r.ID]
		if len(texts) == 0 || r.Heading == nil {
			continue
		}
		body := strings.Join(texts, "\n\n")
		if r.State != RegionFilled {
			edits = append(edits, diag.Edit{Span: r.Body, NewText: withLineEnding(body, nl) + nl + nl})
			continue
		}
		end := trimSpan(src, r.Body).End
		edits = append(edits, diag.Edit{Span: source.Span{Start: end, End: end}, NewText: nl + nl + withLineEnding(body, nl)})
	}
	for _, r := range sk.Regions {
		if len(a.text[r.ID]) > 0 && r.Heading == nil {
			// A region the answers fill but the charter lacks: give it back
			// its heading where it belongs.
			heading, level := RegionHeading(r.ID)
			at := regionInsertion(ch, sk, r.ID)
			block := strings.Repeat("#", level) + " " + heading + nl + nl + withLineEnding(strings.Join(a.text[r.ID], "\n\n"), nl) + nl
			edits = append(edits, insertBlock(src, at, block, nl))
		}
	}
	pad := ch.ScratchPad
	edits = append(edits, diag.Edit{Span: padSpan(ch), NewText: remainingPad(ch, a.keep, nl)})
	m.PadRemoved = pad != nil && len(a.keep) == 0
	return applyEdits(src, edits)
}

// migrateFiveSections writes a charter of the five-section era in the
// skeleton's shape.
func migrateFiveSections(ch *Charter, a answers, m *Migration, opts MigrateOptions, nl string) []byte {
	src := ch.Index.Source()
	var b strings.Builder
	if fm := ch.FrontMatter; fm.End > 0 {
		b.Write(src[fm.Start:fm.End])
		b.WriteString("\n")
	}
	title := ch.Title
	if title == "" {
		title = "Project Charter: [To Be Determined]"
	}
	b.WriteString("# " + title + "\n\n")
	created := opts.Now.UTC().Format("2006-01-02")
	if c := ch.Header("Created"); c != nil && strings.TrimSpace(c.Value) != "" {
		created = c.Value
	}
	b.WriteString("**Created**: " + created + "\n")
	b.WriteString("**Status**: " + StatusValueDraft + "\n") // recomputed below
	for _, f := range ch.Fields {
		switch strings.ToLower(f.Key) {
		case "status", "created":
			continue
		case "version":
			m.version = f.Value
		}
		b.WriteString("**" + f.Key + "**: " + f.Value + "\n")
	}
	if pre := CloseBlocks(preamble(ch)); pre != "" {
		b.WriteString("\n" + pre + "\n")
	}

	// A section's text is kept unless it is nothing but placeholders
	// (comments are the author's: kept, and still a gap).
	body := func(s *Section) string {
		if s == nil {
			return ""
		}
		t := strings.TrimSpace(strings.ReplaceAll(string(src[s.BodySpan.Start:s.BodySpan.End]), "\r\n", "\n"))
		if placeholderOnlyBody([]byte(t)) {
			return ""
		}
		return t
	}
	region := func(heading, existing string, answers []string, placeholder string) {
		existing = CloseBlocks(existing)
		parts := []string{}
		if existing != "" {
			parts = append(parts, existing)
		}
		parts = append(parts, answers...)
		if len(answers) == 0 && (existing == "" || AssessBody(existing) == StatusEmpty) {
			parts = append(parts, placeholder) // still a gap: say so as rp1 does
		}
		b.WriteString("\n" + heading + "\n\n" + strings.Join(parts, "\n\n") + "\n")
	}

	var vision *Section
	for _, s := range ch.Sections {
		if s.ID == "" && visionVariantKeys[regionKey(s.Heading)] {
			vision = s
			break
		}
	}
	region("## Vision", sectionText(ch, vision), nil, TBDMarker)
	region("## Problem & Context", body(ch.Section(Problem)), a.text[RegionProblem], TBDMarker)
	region("## Target Users", body(ch.Section(Users)), a.text[RegionUsers], TBDMarker)
	region("## Business Rationale", body(ch.Section(ValueProp)), a.text[RegionRationale], TBDMarker)

	intro, will, wont := splitScopeSection(ch, ch.Section(Scope))
	intro = CloseBlocks(intro)
	b.WriteString("\n## " + ScopeHeading + "\n")
	if intro != "" {
		b.WriteString("\n" + intro + "\n")
	}
	region("### Will", will, a.text[RegionWill], "- "+TBDMarker)
	region("### Won't", wont, a.text[RegionWont], "- "+TBDMarker)
	region("## Success Criteria", body(ch.Section(Success)), a.text[RegionSuccess], TBDMarker)

	for _, s := range ch.Sections {
		if s.ID != "" || s == vision {
			continue
		}
		// Kept byte for byte; a top-level ### section becomes ## so that it
		// does not fall into Success Criteria.
		rest := strings.TrimRight(strings.ReplaceAll(string(src[s.BodySpan.Start:s.BodySpan.End]), "\r\n", "\n"), " \t\n")
		b.WriteString("\n## " + s.Heading + "\n" + CloseBlocks(rest) + "\n")
	}
	if rest := remainingPad(ch, a.keep, "\n"); rest != "" {
		b.WriteString("\n" + strings.TrimRight(rest, "\n") + "\n")
	}
	m.PadRemoved = ch.ScratchPad != nil && len(a.keep) == 0
	return []byte(b.String())
}

// CloseBlocks closes a code fence or an HTML comment block left open at
// the end of a piece of text that is moved into a charter (an answer, a
// kept section, the text under the header), so that it cannot hide the
// sections written after it: it ends what Parse would still be skipping.
func CloseBlocks(s string) string {
	var h hider
	for _, line := range strings.Split(s, "\n") {
		h.step(line)
	}
	if c := h.closer(); c != "" {
		return s + "\n" + c
	}
	return s
}

// sectionText is a section's body, or "" for nil or a section with nothing
// but placeholders.
func sectionText(ch *Charter, s *Section) string {
	if s == nil {
		return ""
	}
	src := ch.Index.Source()
	t := strings.TrimSpace(strings.ReplaceAll(string(src[s.BodySpan.Start:s.BodySpan.End]), "\r\n", "\n"))
	if t == "" || placeholderOnlyBody([]byte(t)) {
		return ""
	}
	return t
}

// preamble is the text between the header and the first section that is
// neither the title nor a header field (kept under the header).
func preamble(ch *Charter) string {
	src := ch.Index.Source()
	ix := ch.Index
	start := max(ch.FrontMatter.End, 0)
	end := len(src)
	if len(ch.Sections) > 0 {
		end = ch.Sections[0].HeadingSpan.Start
	}
	if ch.ScratchPad != nil && ch.ScratchPad.Span.Start < end {
		end = ch.ScratchPad.Span.Start
	}
	var keep []string
	for l := ix.Line(start); l < ix.LineCount() && ix.LineStart(l) < end; l++ {
		ls := ix.LineSpan(l)
		if ls.Start < start {
			continue
		}
		line := strings.TrimRight(string(src[ls.Start:ls.End]), " \t")
		if strings.TrimSpace(line) == "" || ls == ch.TitleSpan || isFieldLine(ch, ls) {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}

func isFieldLine(ch *Charter, ls source.Span) bool {
	for _, f := range ch.Fields {
		if f.Span.Start >= ls.Start && f.Span.End <= ls.End {
			return true
		}
	}
	return false
}

// splitScopeSection cuts a five-section era scope section into the text
// before its in/out parts, the in part and the out part. The parts' lines
// are kept byte for byte; without both parts the whole body is the intro
// and Will and Won't are left to be filled.
func splitScopeSection(ch *Charter, s *Section) (intro, will, wont string) {
	if s == nil || s.Status == StatusEmpty {
		return "", "", ""
	}
	src := ch.Index.Source()
	h := &Heading{Level: s.Level, Text: s.Heading, Span: s.HeadingSpan, Line: ch.Index.Line(s.HeadingSpan.Start)}
	in, out := legacyScopeParts(ch, h)
	text := func(a, b int) string {
		return strings.TrimSpace(strings.ReplaceAll(string(src[a:b]), "\r\n", "\n"))
	}
	if in == nil || out == nil {
		return text(s.BodySpan.Start, s.BodySpan.End), "", ""
	}
	after := func(sp *source.Span) int { return min(ch.Index.LineStart(ch.Index.Line(sp.Start)+1), len(src)) }
	return text(s.BodySpan.Start, in.Start), text(after(in), out.Start), text(after(out), s.BodySpan.End)
}

// padSpan is the scratch pad with the blank lines after it, or an empty
// span at the end of the file when there is none.
func padSpan(ch *Charter) source.Span {
	src := ch.Index.Source()
	pad := ch.ScratchPad
	if pad == nil {
		return source.Span{Start: len(src), End: len(src)}
	}
	end := pad.Span.End
	for end < len(src) && (src[end] == '\n' || src[end] == '\r' || src[end] == ' ' || src[end] == '\t') {
		end++
	}
	start := pad.Span.Start
	return source.Span{Start: start, End: end}
}

// remainingPad writes the scratch pad back with only the entries in keep,
// or "" when there are none.
func remainingPad(ch *Charter, keep []*Entry, nl string) string {
	pad := ch.ScratchPad
	if pad == nil || len(keep) == 0 {
		return ""
	}
	src := ch.Index.Source()
	var b strings.Builder
	b.WriteString("## Scratch Pad" + nl + nl)
	b.WriteString("<!-- Interview state: what migration to the skeleton format could not place -->" + nl)
	if pad.Mode != "" {
		b.WriteString("<!-- Mode: " + pad.Mode + " -->" + nl)
	}
	if pad.Started != "" {
		b.WriteString("<!-- Started: " + pad.Started + " -->" + nl)
	}
	for _, e := range keep {
		entry := strings.ReplaceAll(strings.TrimRight(string(src[e.Span.Start:e.Span.End]), " \t\r\n"), "\r\n", "\n")
		b.WriteString(nl + withLineEnding(entry, nl) + nl)
	}
	b.WriteString(nl + "<!-- End scratch pad -->" + nl)
	return b.String()
}

// setStatus recomputes **Status** of a skeleton charter (text, parsed as
// ch, its skeleton sk) by the gap rule.
func setStatus(text []byte, ch *Charter, sk *Skeleton) []byte {
	f := sk.Status
	if f == nil {
		return text
	}
	line := ch.Index.LineSpan(ch.Index.Line(f.Span.Start))
	return applyEdits(text, []diag.Edit{{Span: source.Span{Start: f.ValueSpan.Start, End: line.End}, NewText: sk.ExpectedStatus()}})
}

// offers lists the Brain Dump's sentences that speak to each gap region.
func offers(ch *Charter, gaps []RegionID) map[RegionID][]Sentence {
	bd := ch.BrainDump()
	if bd == nil || len(gaps) == 0 {
		return nil
	}
	shares := BrainDumpShares(bd.Answer, func(SectionID) bool { return false })
	out := map[RegionID][]Sentence{}
	for _, g := range gaps {
		switch g {
		case RegionProblem:
			out[g] = shares[Problem]
		case RegionUsers:
			out[g] = shares[Users]
		case RegionRationale:
			out[g] = shares[ValueProp]
		case RegionSuccess:
			out[g] = shares[Success]
		case RegionWill, RegionWont:
			for _, s := range shares[Scope] {
				if (g == RegionWont) == wontRe.MatchString(s.Text) {
					out[g] = append(out[g], s)
				}
			}
		}
		if len(out[g]) == 0 {
			delete(out, g)
		}
	}
	return out
}

// applyEdits applies non-overlapping edits in any order.
func applyEdits(text []byte, edits []diag.Edit) []byte {
	es := append([]diag.Edit(nil), edits...)
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Span.Start < es[j-1].Span.Start; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
	var b strings.Builder
	at := 0
	for _, e := range es {
		start, end := max(e.Span.Start, at), max(e.Span.End, max(e.Span.Start, at))
		b.Write(text[at:start])
		b.WriteString(e.NewText)
		at = end
	}
	b.Write(text[at:])
	return []byte(b.String())
}

// withLineEnding turns the "\n" line endings of s into nl.
func withLineEnding(s, nl string) string {
	if nl == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", nl)
}

// Notes say, for the user, what the migration did: where each answer went,
// what stays in the scratch pad, the gaps left and the status, and the
// Brain Dump's sentences offered per gap (never written).
func (m *Migration) Notes() []string {
	var out []string
	if v := m.version; v != "" {
		out = append(out, "**Version**: "+v+" is kept: rp1 keeps it too, though its skeleton template writes none; check says so (generation-conflict, information) until you remove it")
	}
	for _, p := range m.Placed {
		name := entryName(p.Entry)
		switch {
		case len(p.Regions) == 0 && IsBrainDump(p.Entry.Topic):
			out = append(out, name+" stays in the scratch pad: a brain dump is never written into a region")
			continue
		case len(p.Regions) == 0:
			out = append(out, name+" stays in the scratch pad: its topic names no region (place it by hand)")
			continue
		}
		regions := make([]string, len(p.Regions))
		for i, r := range p.Regions {
			regions[i] = string(r)
		}
		out = append(out, name+" → "+strings.Join(regions, ", "))
	}
	switch {
	case m.PadRemoved:
		out = append(out, "the scratch pad is removed: every answer is placed")
	case m.padBefore && !m.padAfter:
		out = append(out, "the scratch pad is removed: it held no answer")
	case m.padAfter:
		out = append(out, "the scratch pad stays, with what could not be placed")
	}
	for _, g := range m.Gaps {
		if g == RegionVision {
			out = append(out, "Vision stays "+TBDMarker+": it is never inferred from the other sections")
		}
	}
	status := StatusValueComplete
	if len(m.Gaps) > 0 {
		names := make([]string, len(m.Gaps))
		for i, g := range m.Gaps {
			names[i] = string(g)
		}
		status = StatusValueDraft
		out = append(out, "gaps left: "+strings.Join(names, ", "))
	}
	out = append(out, "**Status**: "+status)
	for _, g := range m.Gaps {
		if ss := m.Offers[g]; len(ss) > 0 {
			texts := make([]string, len(ss))
			for i, s := range ss {
				texts[i] = s.Text
			}
			out = append(out, fmt.Sprintf("the Brain Dump speaks to %s (not written; place it if it fits): %q", g, strings.Join(texts, " ")))
		}
	}
	return out
}
