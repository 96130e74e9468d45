package rp1

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// TestFixesResolve applies every quick fix offered on the fixtures and the
// corpus, with LF and CRLF line endings: the diagnostic it was offered for
// is gone, a skeleton charter stays a skeleton, and a CRLF file gets no bare
// LF.
func TestFixesResolve(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	corpus, _ := filepath.Glob("testdata/corpus/*.md")
	n := 0
	for _, f := range append(files, corpus...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range [][]byte{src, bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))} {
			ch := Parse(text)
			before := Check(ch, Options{RP1Style: true})
			for _, d := range before {
				if d.Fix == nil {
					continue
				}
				n++
				fixed := applyEdits(text, d.Fix.Edits)
				after := Parse(fixed)
				if count(Check(after, Options{RP1Style: true}), d) >= count(before, d) {
					t.Errorf("%s: fix %q leaves %s: %s\n%s", f, d.Fix.Title, d.Code, d.Message, fixed)
				}
				if ch.Format == FormatSkeleton && after.Format != FormatSkeleton {
					t.Errorf("%s: fix %q turned a skeleton into %s", f, d.Fix.Title, after.Format)
				}
				if bytes.Contains(text, []byte("\r\n")) && bytes.Count(fixed, []byte("\n")) != bytes.Count(fixed, []byte("\r\n")) {
					t.Errorf("%s: fix %q wrote a bare LF into a CRLF file", f, d.Fix.Title)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d fixes exercised", n)
	}
}

// count is how many diagnostics of d's code concern d's region (or, without
// one, d's code at all).
func count(ds []diag.Diagnostic, d diag.Diagnostic) int {
	n := 0
	for _, x := range ds {
		if x.Code == d.Code && x.Data["region"] == d.Data["region"] {
			n++
		}
	}
	return n
}

// TestSkeletonReading states, for the shapes rp1's skeleton takes, which
// regions are gaps and what status rp1 derives (FORMATS.md §2.5).
func TestSkeletonReading(t *testing.T) {
	const template = "---\nscope: kbRoot\npath_pattern: \"charter.md\"\nproducer: charter-interviewer\ntype: document\nstrictness: strict\n---\n\n" +
		"# Project Charter: {Project Name}\n\n**Created**: {Date}\n**Status**: Draft\n\n## Vision\n_TBD_\n\n## Problem & Context\n_TBD_\n\n" +
		"## Target Users\n_TBD_\n\n## Business Rationale\n_TBD_\n\n## Scope Guardrails\n\n### Will\n- _TBD_\n\n### Won't\n- _TBD_\n\n## Success Criteria\n_TBD_\n"
	all := []RegionID{RegionVision, RegionProblem, RegionUsers, RegionRationale, RegionWill, RegionWont, RegionSuccess}
	cases := []struct {
		name string
		text string
		gaps []RegionID
	}{
		{"the template: every region is a gap", template, all},
		{"a region with text is filled; _TBD_ in another region does not matter",
			strings.Replace(template, "## Vision\n_TBD_", "## Vision\nShip it.", 1), all[1:]},
		{"an empty region is a gap", strings.Replace(template, "## Vision\n_TBD_", "## Vision\n", 1), all},
		{"a comment-only region is a gap (our reading)", strings.Replace(template, "## Vision\n_TBD_", "## Vision\n<!-- one sentence -->", 1), all},
		{"- _TBD_ with blank lines and indentation is still placeholder-only",
			strings.Replace(template, "### Will\n- _TBD_", "### Will\n\n   - _TBD_  \n\n", 1), all},
		{"_TBD_ mixed into text is not a gap",
			strings.Replace(template, "## Target Users\n_TBD_", "## Target Users\nRenters; segments _TBD_.", 1), slices.Delete(slices.Clone(all), 2, 3)},
		{"a ### heading under a region is content", strings.Replace(template, "## Vision\n_TBD_", "## Vision\n_TBD_\n### Later\nMore.", 1), all[1:]},
		{"heading case and spacing do not matter", strings.Replace(template, "## Vision\n_TBD_", "##   vision  \nShip it.", 1), all[1:]},
		// A heading inside an HTML comment block renders as nothing: the
		// region is the visible heading after it (it was the commented one,
		// whose text made the region filled).
		{"a commented-out heading is no heading",
			strings.Replace(template, "## Vision\n_TBD_", "<!--\n## Vision\nShip it.\n-->\n## Vision\n_TBD_", 1), all},
		{"a commented-out heading does not fill a gap",
			strings.Replace(template, "## Vision\n_TBD_", "## Vision\n_TBD_\n  <!-- draft:\n## Problem & Context\nsomething -->", 1), all},
		{"a one-line comment is not a block", strings.Replace(template, "## Vision\n_TBD_", "<!-- note -->\n## Vision\nShip it.", 1), all[1:]},
		{"### Will outside Scope Guardrails is not the region",
			strings.Replace(strings.Replace(template, "## Scope Guardrails\n", "## Scope Notes\n", 1), "- _TBD_\n\n### Won't", "- ok\n\n### Won't", 1), all},
	}
	for _, c := range cases {
		sk := ReadSkeleton(Parse([]byte(c.text)))
		if got := sk.Gaps(); !slices.Equal(got, c.gaps) {
			t.Errorf("%s: gaps %v, want %v", c.name, got, c.gaps)
		}
	}
	if f := Parse([]byte(template)).Format; f != FormatSkeleton {
		t.Errorf("the template is read as %s", f)
	}
}

// TestFormatDetection: which generation a charter is read as.
func TestFormatDetection(t *testing.T) {
	cases := []struct {
		text string
		want Format
	}{
		{"", FormatScratchPad},
		{"# Project Charter: X\n\n**Created**: 2026-07-20\n**Status**: Draft\n\n## Vision\n_TBD_\n", FormatSkeleton},
		{"# Project Charter: X\n\n**Status**: Draft\n\n## Scope Guardrails\n### Will\n- a\n### Won't\n- b\n", FormatSkeleton},
		{"---\nproducer: charter-interviewer\n---\n# Project Charter: X\n**Version**: 1.0.0\n", FormatSkeleton},
		// **Version** (the scratch-pad era's) beside a skeleton region: the
		// regions decide (generation-conflict says so).
		{"# Project Charter: X\n**Version**: 1.0.0 | **Status**: Draft\n\n## Vision\n_TBD_\n", FormatSkeleton},
		{"# Project Charter: X\n**Version**: 1.0.0\n\n## Scope Guardrails\n### Will\n- a\n### Won't\n- b\n", FormatSkeleton},
		// A scratch-pad interview under way outweighs a Vision heading alone
		// (the scratch-pad era's bootstrap wrote one) …
		{"# Project Charter: X\n\n## Vision\nA.\n\n## Scratch Pad\n### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: A tool.\n<!-- End scratch pad -->\n", FormatScratchPad},
		// … but not the template's ### Will / ### Won't, nor one not begun.
		{"# Project Charter: X\n\n## Scope Guardrails\n### Will\n- a\n### Won't\n- b\n\n## Scratch Pad\n### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: A tool.\n<!-- End scratch pad -->\n", FormatSkeleton},
		{"# Project Charter: X\n\n## Vision\nA.\n\n## Scratch Pad\n### Q1: Brain Dump\n**Asked**: Tell me.\n<!-- End scratch pad -->\n", FormatSkeleton},
		// The real rp1 charter: **Version**, ### We Will / We Won't, no Vision.
		{"# Project Charter: rp1\n\n**Version**: 1.0.0\n**Status**: Complete\n\n## Scope Guardrails\n### We Will\n- a\n### We Won't\n- b\n", FormatScratchPad},
		{"# Project Charter: X\n\n**Version**: 1.0.0\n\n## Problem & Context\nA. B.\n", FormatScratchPad},
		{"# Project Charter: X\n\n## Problem & Context\nA. B.\n", FormatScratchPad},
		{"# Project Charter: X\n\n```\n## Vision\n```\n", FormatScratchPad},
	}
	for _, c := range cases {
		if got := Parse([]byte(c.text)).Format; got != c.want {
			t.Errorf("%q: %s, want %s", c.text, got, c.want)
		}
	}
}
