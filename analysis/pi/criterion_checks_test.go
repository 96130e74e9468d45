package pi

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// TestParsedChecksMatchChecksOfFile: the per-criterion findings a parse
// computes on block-relative text and the check places (and the reusing parser
// carries over from unchanged blocks) equal checking each criterion against
// the whole file, under random edits.
func TestParsedChecksMatchChecksOfFile(t *testing.T) {
	// The generated register has a mistake in about one VAL in 90
	// (misspelt verifier kinds, title filters, task titles).
	start := gen.Criteria(12, 8)
	pieces := []string{"x", "\n", "\r\n", "## m9 Milestone\n", "### VAL-NEW-001 Add login\n", "Verifier: commnad\n",
		"Command: npx vitest -t login\n", "- Verifier: manual\n", "Verifer: command\n", "é", "😀"}
	var p CriteriaParser
	seen := 0
	editAtRandom(start, pieces, 7, 300, func(step int, src []byte) {
		for _, cr := range []*Criteria{p.Parse(src), ParseCriteria(src)} {
			for _, v := range cr.Criteria {
				want := criterionDiagnostics(src, inFile(v))
				if len(want) == 0 && len(v.checks) == 0 {
					continue
				}
				seen += len(want)
				if got := placedChecks(v); !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d: %s: parsed checks, placed\n%+v\nchecked against the file\n%+v", step, v.ID, got, want)
				}
			}
		}
	})
	if seen == 0 {
		t.Fatal("no criterion had a finding; the test compared nothing")
	}
}

// inFile is v's parse with its spans in file offsets, as a parse of the
// whole file would give them.
func inFile(v *Criterion) *parsedCriterion {
	p := *v.parsedCriterion
	p.heading, p.id, p.title, p.body, p.description = v.HeadingSpan(), v.IDSpan(), v.TitleSpan(), v.BodySpan(), v.DescriptionSpan()
	p.fields, p.notParsed, p.warnings, p.checks = v.Fields(), v.NotParsed(), v.Warnings(), nil
	return &p
}

// placedChecks are v's checks, relative to its block, placed at the
// block's offset (what parsedBlock.found locates).
func placedChecks(v *Criterion) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, dg := range v.checks {
		dg.Span, dg.Fix = dg.Span.Shift(v.at), dg.Fix.Shifted(v.at)
		if len(dg.Related) > 0 {
			rel := make([]diag.Related, len(dg.Related))
			for j, r := range dg.Related {
				r.Span = r.Span.Shift(v.at)
				rel[j] = r
			}
			dg.Related = rel
		}
		out = append(out, dg)
	}
	return out
}

// TestReusedBlocksKeepTheirCriteria: after an edit, the criteria of the
// blocks before it are the previous version's (not placed again), those
// after it are placed anew with the same parse (not copied), and the
// result still equals a fresh parse.
func TestReusedBlocksKeepTheirCriteria(t *testing.T) {
	src := gen.Criteria(6, 4)
	var p CriteriaParser
	before := p.Parse(src)
	mid := before.Criteria[len(before.Criteria)/2]
	at := mid.BodySpan().Start
	edited := append(append(append([]byte{}, src[:at]...), 'x'), src[at:]...)
	after := p.Parse(edited)
	if !reflect.DeepEqual(after, ParseCriteria(edited)) {
		t.Fatal("incremental parse differs from a fresh parse")
	}
	for i, v := range after.Criteria {
		prev := before.Criteria[i]
		switch {
		case v.MilestoneID != mid.MilestoneID && v.HeadingSpan().Start < at:
			if v != prev {
				t.Errorf("%s, before the edit, was copied again", v.ID)
			}
		case v.HeadingSpan().Start > at:
			if v == prev || v.HeadingSpan().Start != prev.HeadingSpan().Start+1 {
				t.Errorf("%s, after the edit, at %d, was at %d", v.ID, v.HeadingSpan().Start, prev.HeadingSpan().Start)
			}
			if v.MilestoneID != mid.MilestoneID && v.parsedCriterion != prev.parsedCriterion {
				t.Errorf("%s, after the edit's block, was copied", v.ID)
			}
		}
	}
}

// TestCarriedChecksMatchLocatedInFile: the findings of a block's VALs and
// milestone, located once in the block's text and placed by adding where
// the block is (diag.Place), are what locating them in each version of the
// file gives, under random edits (line breaks of every kind, characters of
// two and four UTF-16 units, headings made and unmade, VALs nested and
// dropped), by the reusing parser and a fresh one.
func TestCarriedChecksMatchLocatedInFile(t *testing.T) {
	start := gen.Criteria(12, 8)
	pieces := []string{"x", "\n", "\r\n", "\r", "## m9 Milestone\n", "### VAL-NEW-001 Add login\n", "Verifier: commnad\n",
		"Command: npx vitest -t login\n", "- Verifier: manual\n", "Verifer: command\n", "é", "😀", "### VAL-é-1 😀 fix\n",
		"## VAL-UNG-001 Implement it\n", "# H1\n"}
	var p CriteriaParser
	seen := 0
	editAtRandom(start, pieces, 9, 400, func(step int, src []byte) {
		ix := source.NewIndex(src)
		for _, cr := range []*Criteria{p.Parse(src), ParseCriteria(src)} {
			if cr.wholeFile() && len(cr.Criteria) > 0 {
				continue // the check locates them as any others
			}
			var want []diag.Diagnostic
			for _, v := range cr.Criteria {
				for _, dg := range v.checks {
					dg.Span, dg.Fix = dg.Span.Shift(v.at), dg.Fix.Shifted(v.at)
					want = append(want, dg)
				}
			}
			for _, m := range cr.Milestones {
				if n := milestoneSizeNote(m.ID, len(m.Criteria)); n != "" {
					want = append(want, diag.Written(diag.MilestoneSize, m.HeadingSpan, n))
				}
			}
			diag.Locate(want, "f", ix)
			diag.Sort(want)
			var got []diag.Diagnostic
			for _, b := range cr.found {
				for _, dg := range b.ds {
					dg.Place("f", b.at, ix.Line(b.at))
					got = append(got, dg)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: carried, placed\n%+v\nlocated in the file\n%+v", step, got, want)
			}
			seen += len(want)
		}
	})
	if seen == 0 {
		t.Fatal("no finding was carried; the test compared nothing")
	}
}

// editAtRandom edits start steps times, each a deletion of up to 8 bytes
// (one in three) or an insertion of one of pieces at a random place (seed
// picks them), and calls fn with each version.
func editAtRandom(start []byte, pieces []string, seed uint64, steps int, fn func(step int, src []byte)) {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	src := append([]byte{}, start...)
	for step := range steps {
		at := rng.IntN(len(src) + 1)
		if rng.IntN(3) == 0 {
			end := min(len(src), at+rng.IntN(8))
			src = append(src[:at:at], src[end:]...)
		} else {
			ins := pieces[rng.IntN(len(pieces))]
			src = append(src[:at:at], append([]byte(ins), src[at:]...)...)
		}
		fn(step, src)
	}
}
