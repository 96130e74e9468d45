package rp1

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The corpus (testdata/corpus, described in its README.md) holds charters
// written for these tests in the shapes real rp1 charters take in public
// repositories: section heading levels, header lines, front matter, tables,
// nested and numbered lists, bold labels, placeholders, scratch pads. The
// golden files hold the full reading; TestCorpusReadings states what matters
// about each in words.

func TestCorpusGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, md := range files {
		if filepath.Base(md) == "README.md" {
			continue
		}
		t.Run(filepath.Base(md), func(t *testing.T) {
			src, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, strings.TrimSuffix(md, ".md")+".golden", render(src))
		})
	}
}

// compareGolden compares got with the golden file (go test -update rewrites
// it).
func compareGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
}

// reading is what a reader of a corpus charter expects the parse to find.
type reading struct {
	file   string
	why    string
	format Format
	level  int // the level the five sections are found at
	// status of each of the five sections, in priority order (E, P, C).
	statuses string
	// codes: every diagnostic code Check reports, sorted.
	codes []string
	// entries: the scratch pad entries as "Q<n>:<sections>" (sections by
	// Entry.Sections); nil when there is no pad.
	entries []string
}

func TestCorpusReadings(t *testing.T) {
	readings := []reading{
		{
			file: "h3-sections-table.md", format: FormatScratchPad, level: 3, statuses: "CCCCC",
			why: "the five sections are ### under the title (Jud/mkdn and block/model-ledger write them so); " +
				"a users table, bold labels with numbered lists and In/Out scope lists are content",
		},
		{
			file: "front-matter-value-scope.md", format: FormatScratchPad, level: 2, statuses: "CCCCC",
			why: "the rp1_doc_id front matter is skipped; ## Value Proposition and ## Scope are accepted names; " +
				"### Core Principles inside a section is content",
		},
		{
			file: "subsection-labels.md", format: FormatScratchPad, level: 2, statuses: "CCCCC",
			why: "bold labels opening lists, ### In Scope (v1) / ### Out of Scope (v1), and a ### Success Metrics " +
				"heading inside ## Success Criteria, which is part of that section, not a second one",
		},
		{
			file: "bootstrap-skipped-form.md", format: FormatScratchPad, level: 2, statuses: "EEEEE",
			codes:   []string{"generation-conflict", "section-covered-by-qa", "section-empty"},
			entries: []string{"Q1:", "Q2:users"},
			why: "bootstrap's \"### Q2: Skipped\" form names no topic, so its **Skipped** reason decides: it is " +
				"about Target Users (issue 14, defect 3); the Brain Dump says enough about the problem to write it. " +
				"The interview under way keeps it a scratch-pad charter beside its ## Vision (generation-conflict says so)",
		},
		{
			file: "todo-domain.md", format: FormatScratchPad, level: 2, statuses: "CCCCC",
			why: "TODO as a domain word (\"a TODO app\", \"marked TODO past its day\") is content, not a placeholder " +
				"(issue 14, defect 2)",
		},
		{
			file: "placeholder-forms.md", format: FormatScratchPad, level: 2, statuses: "EEEPE",
			codes: []string{"section-empty", "section-partial"},
			why: "[To Be Determined], a bare \"- TODO\" item, <placeholder> and a {template field} are all a " +
				"section holds: unfilled; \"TODO:\" beside real text makes Scope PARTIAL",
		},
		{
			file: "answer-with-subheadings.md", format: FormatScratchPad, level: 2, statuses: "EEEEE",
			codes:   []string{"section-covered-by-qa", "section-missing"},
			entries: []string{"Q1:", "Q2:scope"},
			why: "the ### Out of scope heading and its list belong to Q2's answer (the next line is not a field), " +
				"so nothing is lost and no malformed entry is reported (issue 14, defect 6)",
		},
	}
	for _, r := range readings {
		t.Run(r.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata/corpus", r.file))
			if err != nil {
				t.Fatal(err)
			}
			ch := Parse(src)
			var statuses strings.Builder
			for _, id := range Priority {
				statuses.WriteByte(string(ch.SectionCompleteness(id))[0])
			}
			var codes []string
			for _, d := range Check(ch, Options{RP1Style: true}) {
				if !slices.Contains(codes, d.Code.String()) {
					codes = append(codes, d.Code.String())
				}
			}
			slices.Sort(codes)
			var entries []string
			if ch.ScratchPad != nil {
				entries = []string{}
				for _, e := range ch.ScratchPad.Entries {
					var ids []string
					for _, id := range e.Sections() {
						ids = append(ids, string(id))
					}
					entries = append(entries, "Q"+strconv.Itoa(e.Number)+":"+strings.Join(ids, ","))
				}
			}
			if ch.Format != r.format || ch.SectionLevel() != r.level || statuses.String() != r.statuses ||
				!slices.Equal(codes, r.codes) || !slices.Equal(entries, r.entries) {
				t.Errorf("expected format %s, sections at level %d, statuses %s, codes %v, entries %v, because %s;\n"+
					"got format %s, level %d, statuses %s, codes %v, entries %v",
					r.format, r.level, r.statuses, r.codes, r.entries, r.why,
					ch.Format, ch.SectionLevel(), statuses.String(), codes, entries)
			}
		})
	}
}

// TestSkeletonCorpusReadings: the corpus's skeleton charters, read as rp1
// (PR #436 on) reads them.
func TestSkeletonCorpusReadings(t *testing.T) {
	all := Regions
	cases := []struct {
		file   string
		why    string
		gaps   []RegionID
		status string // the status the gaps call for
		codes  []string
	}{
		{
			file: "skeleton-new.md", gaps: all, status: StatusValueDraft, codes: []string{"section-empty"},
			why: "a new charter from rp1's template (front matter with rp1_doc_id): every region holds only _TBD_ " +
				"or - _TBD_, so all seven are gaps and Draft is right",
		},
		{
			file: "skeleton-complete.md", gaps: []RegionID{}, status: StatusValueComplete,
			why: "every region written, nested Will/Won't lists, an unrelated table section: no gap, Complete is right, " +
				"no diagnostic (issue 17: a complete skeleton charter was flagged as partial)",
		},
		{
			file: "skeleton-single-dispatch.md", gaps: []RegionID{}, status: StatusValueComplete, codes: []string{"status-noncanonical"},
			why: "the single-dispatch template's literal \"**Status**: {Draft | Complete}\" (@2a3bce24) is one value, " +
				"not Draft or Complete: rp1 rewrites it",
		},
		{
			file: "skeleton-duplicate-region.md", gaps: []RegionID{RegionVision}, status: StatusValueDraft,
			codes: []string{"duplicate-region", "mixed-placeholder", "section-empty"},
			why: "the Vision written at the end and the second ### Will are never read (the first heading wins): Vision " +
				"stays a gap, the CSV export counts for nothing; Will's _TBD_ beside a written line is unfinished, not a gap",
		},
		{
			file: "pipe-header-vision.md", gaps: []RegionID{RegionWill, RegionWont}, status: StatusValueDraft,
			codes: []string{"generation-conflict", "region-heading-variant", "status-noncanonical"},
			why: "the shape of Jud/mkdn's charter: **Version** (the scratch-pad era's) beside ## Vision, a skeleton region: " +
				"read as the regions say, and generation-conflict says so; ### Will Do / Won't Do are not the Will and " +
				"Won't regions (gaps), Final is not a status rp1 writes, the extra sections are ignored",
		},
		{
			file: "front-matter-will-wont.md", gaps: []RegionID{RegionVision}, status: StatusValueDraft,
			codes: []string{"generation-conflict", "section-missing", "status-mismatch"},
			why: "### Will / ### Won't are the skeleton template's own regions, so **Version** is a conflict, not a " +
				"decision: read as rp1 reads it today, Vision is missing, so Complete should be Draft",
		},
		{
			file: "bootstrap-skeleton.md", gaps: all, status: StatusValueDraft,
			codes: []string{"generation-conflict", "legacy-scratch-pad", "region-heading-variant", "section-empty", "status-noncanonical"},
			why: "the scratch-pad era's bootstrap skeleton has ## Vision and an interview that has not begun (no answer): " +
				"read as the regions say, every region is a gap; ### Will Do / Won't Do are variants, the empty pad is " +
				"legacy, **Version** a conflict",
		},
		{
			file: "skeleton-hand-edited.md", gaps: []RegionID{RegionVision, RegionProblem, RegionWill, RegionWont},
			status: StatusValueDraft,
			codes:  []string{"mixed-placeholder", "placeholder-variant", "region-heading-variant", "status-noncanonical"},
			why: "## Vision Statement, ## Problem and Context, ### Will Do and ### Won’t are not found (gaps); TBD and " +
				"{One measurable outcome} count as written; _TBD_ inside a sentence is not a gap but unfinished; the " +
				"status shares a pipe-joined line",
		},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata/corpus", c.file))
			if err != nil {
				t.Fatal(err)
			}
			ch := Parse(src)
			var codes []string
			for _, d := range Check(ch, Options{RP1Style: true}) {
				if !slices.Contains(codes, d.Code.String()) {
					codes = append(codes, d.Code.String())
				}
			}
			slices.Sort(codes)
			if ch.Format != FormatSkeleton || !slices.Equal(ch.Skeleton.Gaps(), c.gaps) ||
				ch.Skeleton.ExpectedStatus() != c.status || !slices.Equal(codes, c.codes) {
				t.Errorf("expected a skeleton with gaps %v, status %s, codes %v, because %s;\ngot %s, gaps %v, status %s, codes %v",
					c.gaps, c.status, c.codes, c.why, ch.Format, ch.Skeleton.Gaps(), ch.Skeleton.ExpectedStatus(), codes)
			}
		})
	}
}
