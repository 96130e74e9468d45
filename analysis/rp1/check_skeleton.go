package rp1

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// regionNeeds says what each region should hold, for messages.
var regionNeeds = map[RegionID]string{
	RegionVision:    "the one-sentence north star",
	RegionProblem:   sectionNeeds[Problem],
	RegionUsers:     sectionNeeds[Users],
	RegionRationale: sectionNeeds[ValueProp],
	RegionWill:      "what v1 will do, as a list",
	RegionWont:      "what it won't do, as a list",
	RegionSuccess:   sectionNeeds[Success],
}

// checkSkeleton reports what rp1 (PR #436 on) will make of a skeleton
// charter (FORMATS.md §2.5, §3 RPS rows): gaps, headings it will not find,
// placeholders it will not recognise, a status it will rewrite, and a
// scratch pad it will ignore. Each diagnostic with one unambiguous repair
// carries it as a diag.Fix.
func checkSkeleton(ch *Charter, sk *Skeleton, f *found) {
	src := ch.Index.Source()
	nl := source.LineEnding(src)

	scopeReported := false
	for _, r := range sk.Regions {
		heading, level := RegionHeading(r.ID)
		mark := strings.Repeat("#", level) + " " + heading
		for _, h := range r.Duplicates {
			if !f.take(diag.DuplicateRegion, h.Span) {
				continue
			}
			d := diag.New(diag.DuplicateRegion, h.Span,
				"%q appears again here; rp1 reads only the first %q (line %d), so nothing under this heading counts; merge it into the first.",
				r.ID, mark, r.Heading.Line+1)
			d.Related = []diag.Related{{Span: r.Heading.Span, Message: "the heading rp1 reads"}}
			f.put(d)
		}
		switch {
		case r.State == RegionFilled && len(r.PlaceholderLines) > 0:
			f.add(placeholderVariant(src, r, nl))
		case r.State == RegionFilled:
			for _, m := range r.Mixed {
				if !f.take(diag.MixedPlaceholder, m) {
					continue
				}
				f.put(diag.New(diag.MixedPlaceholder, m,
					"%q holds _TBD_ beside its text: rp1 counts %q as written, but it is unfinished; finish the sentence.",
					r.ID, r.ID))
			}
		case r.State == RegionEmpty:
			holds := "holds only _TBD_"
			if r.Placeholder.Len() == 0 {
				holds = "is empty"
			}
			d := diag.New(diag.SectionEmpty, r.Heading.Span,
				"Required region %q %s, so rp1 asks for it and keeps the charter Draft; write %s, or run the interview.",
				r.ID, holds, regionNeeds[r.ID])
			d.Data = map[string]string{"region": string(r.ID)}
			f.add(d)
		case r.Variant != nil:
			v := r.Variant
			d := diag.New(diag.RegionHeadingVariant, v.Span,
				"rp1 does not read %q as %q, so that region is a gap and the charter stays Draft; rename it %q.",
				strings.TrimSpace(string(src[v.Span.Start:v.Span.End])), r.ID, mark)
			d.Fix = &diag.Fix{Title: "Rename to " + mark, Edits: []diag.Edit{{Span: v.Span, NewText: mark}}}
			d.Data = map[string]string{"region": string(r.ID)}
			f.add(d)
		case r.ID.IsList() && sk.Scope == nil:
			if scopeReported {
				continue
			}
			scopeReported = true
			if sv := sk.ScopeVariant; sv != nil {
				d := diag.New(diag.RegionHeadingVariant, sv.Span,
					"rp1 does not read %q as \"## %s\", so Will and Won't under it are gaps and the charter stays Draft; rename it.",
					strings.TrimSpace(string(src[sv.Span.Start:sv.Span.End])), ScopeHeading)
				d.Fix = &diag.Fix{Title: "Rename to ## " + ScopeHeading, Edits: []diag.Edit{{Span: sv.Span, NewText: "## " + ScopeHeading}}}
				d.Data = map[string]string{"region": string(RegionWill)}
				f.add(d)
				continue
			}
			at := regionInsertion(ch, sk, r.ID)
			block := ScopeBlock("- "+TBDMarker, "- "+TBDMarker, nl)
			d := diag.New(diag.SectionMissing, source.Span{Start: at, End: at},
				"Required regions \"## %s\" › \"### Will\" and \"### Won't\" are missing, so rp1 keeps the charter Draft and asks for them; add them with %s and %s.",
				ScopeHeading, regionNeeds[RegionWill], regionNeeds[RegionWont])
			d.Fix = &diag.Fix{Title: "Add ## " + ScopeHeading + " with Will and Won't", Edits: []diag.Edit{insertBlock(src, at, block, nl)}}
			d.Data = map[string]string{"region": string(RegionWill)}
			f.add(d)
		default:
			at := regionInsertion(ch, sk, r.ID)
			d := diag.New(diag.SectionMissing, source.Span{Start: at, End: at},
				"Required region %q is missing, so rp1 keeps the charter Draft and asks for it; add it with %s.", mark, regionNeeds[r.ID])
			d.Fix = &diag.Fix{Title: "Add " + mark, Edits: []diag.Edit{insertBlock(src, at, mark+nl+r.ID.Placeholder()+nl, nl)}}
			d.Data = map[string]string{"region": string(r.ID)}
			f.add(d)
		}
		if r.Legacy != nil && r.ID != RegionWont {
			f.add(legacySection(ch, r))
		}
	}
	f.add(checkSkeletonStatus(ch, sk, nl)...)
	if pad := ch.ScratchPad; pad != nil {
		f.add(legacyScratchPad(ch, pad))
	}
}

// placeholderVariant reports a region whose every line is a placeholder rp1
// does not recognise, and offers rp1's own.
func placeholderVariant(src []byte, r *Region, nl string) diag.Diagnostic {
	first, last := r.PlaceholderLines[0], r.PlaceholderLines[len(r.PlaceholderLines)-1]
	text := strings.TrimSpace(string(src[first.Start:first.End]))
	d := diag.New(diag.PlaceholderVariant, first,
		"%q is not rp1's placeholder (_TBD_), so rp1 counts %q as written and can mark the charter Complete from nothing; write it, or mark it %q.",
		text, r.ID, r.ID.Placeholder())
	span := source.Span{Start: first.Start, End: last.End}
	// Only when the lines replaced hold nothing else (a comment between them
	// would be lost).
	if strings.Count(string(src[span.Start:span.End]), "\n") == len(r.PlaceholderLines)-1 {
		d.Fix = &diag.Fix{Title: "Mark as " + r.ID.Placeholder(), Edits: []diag.Edit{{Span: span, NewText: r.ID.Placeholder()}}}
	}
	d.Data = map[string]string{"region": string(r.ID)}
	return d
}

// legacySection offers the skeleton's name for a scratch-pad era section.
func legacySection(ch *Charter, r *Region) diag.Diagnostic {
	src := ch.Index.Source()
	h := r.Legacy
	old := strings.TrimSpace(string(src[h.Span.Start:h.Span.End]))
	if r.ID == RegionRationale {
		d := diag.New(diag.LegacySections, h.Span,
			"%q is the scratch-pad era name of \"## %s\", which rp1 now looks for; rename it.", old, RegionRationale)
		d.Fix = &diag.Fix{Title: "Rename to ## " + string(RegionRationale), Edits: []diag.Edit{{Span: h.Span, NewText: "## " + string(RegionRationale)}}}
		return d
	}
	edits := []diag.Edit{{Span: h.Span, NewText: "## " + ScopeHeading}}
	in, out := legacyScopeParts(ch, h)
	if in != nil && out != nil {
		edits = append(edits, diag.Edit{Span: *in, NewText: "### Will"}, diag.Edit{Span: *out, NewText: "### Won't"})
	}
	d := diag.New(diag.LegacySections, h.Span,
		"%q is the scratch-pad era scope section; rp1 now reads \"## %s\" with \"### Will\" and \"### Won't\" lists; split it.", old, ScopeHeading)
	title := "Rename to ## " + ScopeHeading
	if len(edits) == 3 {
		title = "Split into ## " + ScopeHeading + " › ### Will / ### Won't"
	}
	d.Fix = &diag.Fix{Title: title, Edits: edits}
	return d
}

// legacyScopeParts finds the lines that open the in-scope and out-of-scope
// parts of a legacy "## Scope" section: "### In Scope (v1)" headings or
// "**In scope (v1)**:" labels on a line of their own.
func legacyScopeParts(ch *Charter, scope *Heading) (in, out *source.Span) {
	src := ch.Index.Source()
	end := len(src)
	for _, h := range scanHeadings(ch) {
		if h.Span.Start > scope.Span.Start && h.Level <= scope.Level {
			end = h.Span.Start
			break
		}
	}
	ix := ch.Index
	var f codefence.Scanner
	for l := scope.Line + 1; l < ix.LineCount() && ix.LineStart(l) < end; l++ {
		ls := ix.LineSpan(l)
		line := string(src[ls.Start:ls.End])
		if f.Step(line) {
			continue
		}
		text := line
		if lvl, h := atxHeading(line); lvl > scope.Level {
			text = h
		} else if m := boldLineRe.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			text = m[1]
		} else {
			continue
		}
		switch key := regionKey(text); {
		case in == nil && (willVariantKeys[key] || strings.HasPrefix(key, "in scope")):
			s := ls
			in = &s
		case out == nil && (wontVariantKeys[key] || strings.HasPrefix(key, "out of scope")):
			s := ls
			out = &s
		}
	}
	if in != nil && out != nil && in.Start > out.Start {
		return nil, nil // Won't before Will: leave the order to the author
	}
	return in, out
}

// boldLineRe: a line that is only a bold label ("**In Scope (v1)**:").
var boldLineRe = regexp.MustCompile(`^\*\*([^*\n]+?)\*\*\s*:?\s*$|^\*\*([^*\n]+?):\*\*\s*$`)

// checkSkeletonStatus compares **Status** with what the gaps call for.
func checkSkeletonStatus(ch *Charter, sk *Skeleton, nl string) []diag.Diagnostic {
	src := ch.Index.Source()
	want := sk.ExpectedStatus()
	gaps := sk.Gaps()
	why := "no required region is a gap"
	if len(gaps) > 0 {
		names := make([]string, len(gaps))
		for i, g := range gaps {
			names[i] = string(g)
		}
		why = "the gaps are " + strings.Join(names, ", ")
	}
	f := sk.Status
	if f == nil {
		at, text := statusInsertion(ch, nl, want)
		span := ch.TitleSpan
		if span == (source.Span{}) {
			span = source.Span{Start: at, End: at}
		}
		d := diag.New(diag.StatusNoncanonical, span,
			"The charter has no **Status** line; rp1 derives it from the gaps (%s) and writes it; add \"**Status**: %s\".", why, want)
		d.Fix = &diag.Fix{Title: "Add **Status**: " + want, Edits: []diag.Edit{{Span: source.Span{Start: at, End: at}, NewText: text}}}
		return []diag.Diagnostic{d}
	}
	line := ch.Index.LineSpan(ch.Index.Line(f.Span.Start))
	if sk.StatusJoined {
		d := diag.New(diag.StatusNoncanonical, f.Span,
			"**Status** shares its line with other header fields; rp1's template writes \"**Status**: %s\" on its own line (%s).", want, why)
		d.Fix = &diag.Fix{Title: "Put each header field on its own line", Edits: []diag.Edit{{Span: line, NewText: splitHeaderLine(ch, line, want, nl)}}}
		return []diag.Diagnostic{d}
	}
	// The value runs to the end of the line: "{Draft | Complete}" is one
	// (template) value, not two fields.
	value := source.Span{Start: f.ValueSpan.Start, End: line.End}
	for value.End > value.Start && (src[value.End-1] == ' ' || src[value.End-1] == '\t') {
		value.End--
	}
	got := string(src[value.Start:value.End])
	fix := &diag.Fix{Title: "Set **Status**: " + want, Edits: []diag.Edit{{Span: value, NewText: want}}}
	switch got {
	case want:
		return nil
	case StatusValueDraft, StatusValueComplete:
		d := diag.New(diag.StatusMismatch, f.Span,
			"**Status** says %s but %s, so rp1 rewrites it to %s on its next run; set it to %s.", got, why, want, want)
		d.Fix = fix
		return []diag.Diagnostic{d}
	}
	d := diag.New(diag.StatusNoncanonical, f.Span,
		"**Status** %q is not one of rp1's values (Draft or Complete), so rp1 rewrites it; %s, so set it to %s.", got, why, want)
	d.Fix = fix
	return []diag.Diagnostic{d}
}

// StatusFix is the edit that sets a skeleton charter's **Status** to what
// its gaps call for (the parent's "rewrite with only the status corrected"),
// on its own line; nil when it already says so.
func (ch *Charter) StatusFix() *diag.Fix {
	sk := ReadSkeleton(ch)
	for _, d := range checkSkeletonStatus(ch, sk, source.LineEnding(ch.Index.Source())) {
		return d.Fix
	}
	return nil
}

// statusInsertion is where a missing **Status** line goes, and the text to
// insert: after the **Created** line, else after the title, else at the top
// (after the front matter).
func statusInsertion(ch *Charter, nl, want string) (int, string) {
	field := "**Status**: " + want
	if c := ch.Header("Created"); c != nil {
		end := ch.Index.LineEnd(ch.Index.Line(c.Span.Start))
		return end, nl + field
	}
	if ch.TitleSpan != (source.Span{}) {
		return ch.TitleSpan.End, nl + nl + field
	}
	return ch.FrontMatter.End, field + nl + nl
}

// splitHeaderLine writes each " | "-joined header field of line on its own
// line, the status replaced by want.
func splitHeaderLine(ch *Charter, line source.Span, want, nl string) string {
	var parts []string
	for _, f := range ch.Fields {
		if f.Span.Start < line.Start || f.Span.End > line.End {
			continue
		}
		v := f.Value
		if strings.EqualFold(f.Key, "Status") {
			v = want
		}
		parts = append(parts, "**"+f.Key+"**: "+v)
	}
	return strings.Join(parts, nl)
}

// legacyScratchPad reports a scratch pad in a skeleton charter: rp1 reads
// only the regions, so the answers in it are lost to the interview. The
// fix is the migration (Migrate), which places the answers.
func legacyScratchPad(ch *Charter, pad *ScratchPad) diag.Diagnostic {
	n := len(ch.Answered())
	what := "it is ignored"
	switch {
	case n == 1:
		what = "its answer is ignored and the interview asks again"
	case n > 1:
		what = fmt.Sprintf("its %d answers are ignored and the interview starts over", n)
	}
	d := diag.New(diag.LegacyScratchPad, pad.HeadingSpan,
		"rp1 no longer reads a ## Scratch Pad: %s; move the answers into their regions.", what)
	if m, err := migrate(ch, MigrateOptions{}); err == nil && m.Changed() {
		d.Fix = &diag.Fix{Title: "Migrate the scratch pad's answers into their regions", Edits: []diag.Edit{m.Edit()}}
	}
	return d
}

// RegionInsertion is where region id goes when its heading is missing, and
// whether the "## Scope Guardrails" heading that holds Will and Won't is
// missing too (then the whole block goes there).
func (ch *Charter) RegionInsertion(id RegionID) (at int, withScope bool) {
	sk := ReadSkeleton(ch)
	return regionInsertion(ch, sk, id), id.IsList() && sk.Scope == nil
}

// ScopeBlock is the Scope Guardrails block with the Will and Won't bodies.
func ScopeBlock(will, wont, nl string) string {
	return "## " + ScopeHeading + nl + nl + "### Will" + nl + will + nl + nl + "### Won't" + nl + wont + nl
}

// InsertBlock inserts block (ending in a line ending) at offset at of src as
// its own paragraph, blank lines around it as needed.
func InsertBlock(src []byte, at int, block, nl string) diag.Edit {
	return insertBlock(src, at, block, nl)
}

// regionInsertion is where a missing region belongs: after the body of the
// nearest earlier region present, else before the nearest later one, else
// after the header.
func regionInsertion(ch *Charter, sk *Skeleton, id RegionID) int {
	if id.IsList() && sk.Scope != nil {
		will, wont := sk.Region(RegionWill), sk.Region(RegionWont)
		switch {
		case id == RegionWill && wont.Heading != nil:
			return wont.Heading.Span.Start
		case id == RegionWont && will.Heading != nil:
			return will.Body.End
		}
		return scopeEnd(ch, sk)
	}
	idx := 0
	for i, r := range sk.Regions {
		if r.ID == id {
			idx = i
		}
	}
	for j := idx - 1; j >= 0; j-- {
		if r := sk.Regions[j]; r.Heading != nil {
			if id.IsList() != r.ID.IsList() && r.ID.IsList() && sk.Scope != nil {
				// after the whole Scope Guardrails block
				return scopeEnd(ch, sk)
			}
			return r.Body.End
		}
	}
	for j := idx + 1; j < len(sk.Regions); j++ {
		if r := sk.Regions[j]; r.Heading != nil {
			if r.ID.IsList() && !id.IsList() && sk.Scope != nil {
				return sk.Scope.Span.Start
			}
			return r.Heading.Span.Start
		}
	}
	return headerEnd(ch)
}

// scopeEnd is the end of the Scope Guardrails section.
func scopeEnd(ch *Charter, sk *Skeleton) int {
	for _, h := range scanHeadings(ch) {
		if h.Span.Start > sk.Scope.Span.Start && h.Level <= 2 {
			return h.Span.Start
		}
	}
	return len(ch.Index.Source())
}

// headerEnd is the end of the title and header lines.
func headerEnd(ch *Charter) int {
	end := max(ch.FrontMatter.End, ch.TitleSpan.End)
	for _, f := range ch.Fields {
		end = max(end, ch.Index.LineEnd(ch.Index.Line(f.Span.Start)))
	}
	return end
}

// insertBlock inserts block (ending in a line ending) at offset at, as its
// own paragraph: a blank line before it unless at a blank line or the start,
// and one after it unless the file ends there.
func insertBlock(src []byte, at int, block, nl string) diag.Edit {
	before := ""
	switch {
	case at == 0:
	case src[at-1] != '\n':
		before = nl + nl
	case at >= 2 && src[at-2] != '\n' && !(at >= 3 && src[at-2] == '\r' && src[at-3] == '\n'):
		before = nl
	}
	after := nl
	if at == len(src) {
		after = ""
	}
	return diag.Edit{Span: source.Span{Start: at, End: at}, NewText: before + block + after}
}
