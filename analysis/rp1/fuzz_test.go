package rp1

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/internal/hostile"
)

// FuzzParse: any input parses and checks without panicking, every span lies
// within the text, and sections, entries and diagnostics come in order.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.md")
	corpus, _ := filepath.Glob("testdata/corpus/*.md")
	files = append(files, corpus...)
	for _, md := range files {
		if src, err := os.ReadFile(md); err == nil {
			f.Add(src)
		}
	}
	for _, s := range []string{
		"", "#", "##", "## Scratch Pad", "## Scratch Pad\n### Q1:\n**Answer**:",
		"```\n## Problem\n", "## Problem\r\n\r\nTBD\r", "\r\r\n## Users\n- a\n- b",
		"# T\n**Status**: Complete | **Version**:", "<!-- \n## Scope\n-->",
		"## Scratch Pad\n## x\n<!-- End scratch pad -->", "\xff\xfe## Problem\n[TODO]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ch := Parse(src)
		n := len(src)
		ok := func(what string, s source.Span) {
			if s.Start < 0 || s.End < s.Start || s.End > n {
				t.Fatalf("%s span %+v out of [0,%d]", what, s, n)
			}
		}
		ok("title", ch.TitleSpan)
		for _, f := range ch.Fields {
			ok("field", f.Span)
			ok("field value", f.ValueSpan)
		}
		prev := -1
		for _, s := range ch.Sections {
			ok("heading", s.HeadingSpan)
			ok("body", s.BodySpan)
			if s.HeadingSpan.Start <= prev {
				t.Fatalf("sections out of order")
			}
			prev = s.HeadingSpan.Start
			for _, p := range s.Problems {
				ok("problem", p.Span)
			}
		}
		if sp := ch.ScratchPad; sp != nil {
			for _, s := range []source.Span{sp.Span, sp.HeadingSpan, sp.ModeSpan, sp.StartedSpan, sp.EndSpan, sp.CutSpan} {
				ok("scratch pad", s)
			}
			prev := -1
			for _, e := range sp.Entries {
				for _, s := range []source.Span{e.Span, e.HeadingSpan, e.AskedSpan, e.AnswerSpan, e.SkippedSpan} {
					ok("entry", s)
				}
				if e.Span.Start <= prev || e.Span.End > sp.Span.End {
					t.Fatalf("entry %+v out of order or outside the scratch pad %+v", e.Span, sp.Span)
				}
				prev = e.Span.Start
			}
		}
		ds := Check(ch, Options{RP1Style: true, QuestionBudget: 2})
		for i, d := range ds {
			ok(d.Code.String(), d.Span)
			if d.Code.Rule() == nil {
				t.Fatalf("code %q not in the catalogue", d.Code)
			}
			if i > 0 && ds[i-1].Span.Start > d.Span.Start {
				t.Fatalf("diagnostics not sorted")
			}
			if d.Fix != nil {
				end := -1
				for _, e := range d.Fix.Edits {
					ok(d.Code.String()+" fix", e.Span)
					if e.Span.Start < end {
						t.Fatalf("%s fix edits overlap", d.Code)
					}
					end = e.Span.End
				}
				Parse(applyEdits(src, d.Fix.Edits))
			}
		}
		_ = ch.Gaps()
		if sk := ch.Skeleton; sk != nil {
			for _, r := range sk.Regions {
				if r.Heading != nil {
					ok("region body", r.Body)
				}
				for _, m := range r.Mixed {
					ok("mixed", m)
				}
			}
		}
		if m, err := Migrate(src, MigrateOptions{Now: migrateNow}); err == nil {
			if after := Parse(m.New); after.Format != FormatSkeleton && m.Changed() {
				t.Fatalf("migrated text reads as %s:\n%s", after.Format, m.New)
			}
		}
	})
}

// FuzzFinalizerAnswer: any answer is checked without panicking, with spans
// inside it.
func FuzzFinalizerAnswer(f *testing.F) {
	for _, s := range []string{
		`{"status":"draft","artifact":"a","gaps":["Vision"],"warnings":[]}`,
		"```json\n{}\n```", `{"status":1,"status":2}`, `[]`, `{"gaps":{"a":1}}`, "{\"warnings\":[\"\u00e9\"]} x", "",
	} {
		f.Add([]byte(s))
	}
	want := FinalizerResponse{Status: FinalizerDraft, Artifact: "a", Gaps: []string{"Vision"}, Warnings: []string{}}
	f.Fuzz(func(t *testing.T, answer []byte) {
		for _, d := range CheckFinalizerAnswer(answer, want) {
			if d.Span.Start < 0 || d.Span.End < d.Span.Start || d.Span.End > len(answer) {
				t.Fatalf("span %+v out of [0,%d]", d.Span, len(answer))
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile("testdata/rp1-real.md")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Check(Parse(src), Options{RP1Style: true})
	}
}

// BenchmarkParseLargeSection: one section of 1 MB of prose, the shape of the
// 10 MB hostile-document test (lsp/hostile_test.go) at a tenth of its size.
func BenchmarkParseLargeSection(b *testing.B) {
	src := []byte("# Charter\n\n## Problem\n" + strings.Repeat("Users lose work. It happens daily.\n", 1<<20/35))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(src)
	}
}

// FuzzRuns lays a unit out many times (on one line, as lines, or nested:
// the runs that made goldmark and our scanners quadratic) in a section, a
// skeleton region and a scratch-pad answer: the charter parses and checks,
// every section body goldmark reads is bounded (boundBody), and the work
// allocates in proportion to the text.
func FuzzRuns(f *testing.F) {
	hostile.FuzzRuns(f, func(t *testing.T, run string) {
		for _, src := range []string{
			"# Project Charter: F\n\n## Problem & Context\n\n" + run + "\n\n## Scratch Pad\n### Q1: Target Users\n**Asked**: Who?\n**Answer**: " + run + "\n",
			"# Project Charter: F\n\n**Status**: Draft\n\n## Vision\n" + run + "\n\n## Scope Guardrails\n\n### Will\n- " + run + "\n",
		} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			ch := Parse([]byte(src))
			ds := Check(ch, Options{RP1Style: true})
			runtime.ReadMemStats(&after)
			for _, d := range ds {
				if d.Span.Start < 0 || d.Span.End < d.Span.Start || d.Span.End > len(src) {
					t.Fatalf("%s at %+v in %d bytes", d.Code, d.Span, len(src))
				}
			}
			for _, s := range ch.Sections {
				checkBounded(t, []byte(src[s.BodySpan.Start:s.BodySpan.End]))
			}
			if bound, ok := hostile.AllocBound(len(src)); ok && after.TotalAlloc-before.TotalAlloc > bound {
				alloc := after.TotalAlloc - before.TotalAlloc
				t.Fatalf("%d MB allocated for %d KB of text", alloc>>20, len(src)>>10)
			}
		}
	})
}
