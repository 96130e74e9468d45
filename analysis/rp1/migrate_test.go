package rp1

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var migrateNow = time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)

// migrationSources are every scratch-pad era charter the tests hold: the
// fixtures, the corpus and the shared upstream fixtures.
func migrationSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, pattern := range []string{"testdata/*.md", "testdata/corpus/*.md", "../../interview/testdata/*/*.md"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			if filepath.Base(f) == "README.md" || strings.Contains(f, ".golden") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if ch := Parse(src); ch.Title != "" || len(ch.Sections) > 0 || ch.ScratchPad != nil {
				out[f] = src
			}
		}
	}
	return out
}

// TestMigrateRoundTrip: every charter migrates to one that parses under the
// skeleton grammar with nothing lost: each answer is in a region or still in
// the scratch pad, every line of every section is still there, Vision is
// never invented, the status is the one the gaps call for, and migrating the
// result again changes nothing.
func TestMigrateRoundTrip(t *testing.T) {
	n := 0
	for f, src := range migrationSources(t) {
		for _, text := range [][]byte{src, bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))} {
			m, err := Migrate(text, MigrateOptions{Now: migrateNow})
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			n++
			after := Parse(m.New)
			if after.Format != FormatSkeleton {
				t.Errorf("%s: migrated charter reads as %s:\n%s", f, after.Format, m.New)
				continue
			}
			sk := after.Skeleton
			if got, want := sk.Status, sk.ExpectedStatus(); m.Changed() && (got == nil || got.Value != want) {
				t.Errorf("%s: status %v, want %s", f, got, want)
			}
			lost := lostLines(Parse(text), m.New)
			for _, l := range lost {
				t.Errorf("%s: lost %q\n%s", f, l, m.New)
			}
			before := Parse(text)
			hadVision := false
			for _, s := range before.Sections {
				hadVision = hadVision || (s.ID == "" && visionVariantKeys[regionKey(s.Heading)] && sectionText(before, s) != "")
			}
			if before.Format == FormatSkeleton {
				hadVision = !before.Skeleton.Region(RegionVision).Gap()
			}
			if v := sk.Region(RegionVision); !hadVision && !v.Gap() {
				t.Errorf("%s: Vision was inferred:\n%s", f, m.New)
			}
			if bytes.Contains(text, []byte("\r\n")) && bytes.Count(m.New, []byte("\n")) != bytes.Count(m.New, []byte("\r\n")) {
				t.Errorf("%s: bare LF in a CRLF migration", f)
			}
			again, err := Migrate(m.New, MigrateOptions{Now: migrateNow})
			if err != nil || !bytes.Equal(again.New, m.New) {
				t.Errorf("%s: migrating twice changes the charter:\n%s\n---\n%s", f, m.New, again.New)
			}
			if before.ScratchPad != nil && m.PadRemoved == (after.ScratchPad != nil) {
				t.Errorf("%s: PadRemoved %v but the scratch pad is %v", f, m.PadRemoved, after.ScratchPad != nil)
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d migrations", n)
	}
}

var listMarkRe = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+`)

// lostLines lists the content lines of the old charter (section bodies,
// answers, unplaced entries, unknown sections) that the new text lacks.
// Lines are compared trimmed and without list markers, since a Scope answer
// becomes list items; heading and label lines that migration renames (In /
// Out scope parts, section names) and placeholder-only lines are skipped.
func lostLines(ch *Charter, newText []byte) []string {
	src := ch.Index.Source()
	have := map[string]bool{}
	for _, l := range strings.Split(strings.ReplaceAll(string(newText), "\r\n", "\n"), "\n") {
		have[norm(l)] = true
		for _, s := range SplitSentences(l) {
			have[norm(s.Text)] = true
		}
	}
	var lost []string
	check := func(text string) {
		for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
			t := strings.TrimSpace(l)
			if t == "" || placeholderOnlyLine(t) || boldLineRe.MatchString(t) {
				continue
			}
			if lvl, _ := atxHeading(t); lvl > 0 {
				continue
			}
			if have[norm(t)] {
				continue
			}
			// a paragraph split into list items: every sentence must be there
			ok := true
			for _, s := range SplitSentences(t) {
				ok = ok && have[norm(s.Text)]
			}
			if !ok {
				lost = append(lost, t)
			}
		}
	}
	for _, s := range ch.Sections {
		check(string(src[s.BodySpan.Start:s.BodySpan.End]))
	}
	for _, e := range ch.Answered() {
		check(e.Answer)
	}
	if ch.ScratchPad != nil {
		for _, e := range ch.ScratchPad.Entries {
			if e.Malformed() || e.Number == 0 {
				check(string(src[e.Span.Start:e.Span.End]))
			}
		}
	}
	return lost
}

func norm(s string) string {
	s = strings.TrimSpace(s)
	if m := fieldRe.FindStringIndex(s); m != nil {
		s = s[m[1]:] // "**Answer**: text" holds "text"
	}
	return strings.Join(strings.Fields(listMarkRe.ReplaceAllString(s, "")), " ")
}

// TestMigrateGolden: the migrated text of a few charters, for review.
func TestMigrateGolden(t *testing.T) {
	for _, f := range []string{
		"testdata/rp1-real.md",
		"testdata/resume-after-q2.md",
		"testdata/legacy-scratch-pad.md",
		"testdata/corpus/h3-sections-table.md",
		"testdata/corpus/front-matter-value-scope.md",
		"testdata/corpus/pipe-header-vision.md",
		"testdata/corpus/answer-with-subheadings.md",
	} {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Migrate(src, MigrateOptions{Now: migrateNow})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			b.Write(m.New)
			b.WriteString("\n<!-- migration report\n")
			for _, p := range m.Placed {
				b.WriteString("placed Q" + strconv.Itoa(p.Entry.Number) + " " + p.Entry.Topic + " →")
				for _, r := range p.Regions {
					b.WriteString(" " + string(r) + ";")
				}
				if len(p.Regions) == 0 {
					b.WriteString(" kept in the scratch pad")
				}
				b.WriteString("\n")
			}
			for _, r := range Regions {
				for _, s := range m.Offers[r] {
					b.WriteString("offer " + string(r) + ": " + s.Text + "\n")
				}
			}
			b.WriteString("gaps " + strings.Trim(strings.Join(regionNames(m.Gaps), ", "), " ") + "\n-->\n")
			compareGolden(t, filepath.Join("testdata/migrate", strings.TrimSuffix(filepath.Base(f), ".md")+".golden.md"), b.String())
		})
	}
}

func regionNames(ids []RegionID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return out
}

// TestMigrateSplitsScope: a Scope answer is split into Will and Won't by its
// wording and its In/Out labels, nested items staying with their parent.
func TestMigrateSplitsScope(t *testing.T) {
	will, wont := splitScopeAnswer("v1 plans routes and schedules setters. We won't bill members.\n\n### Out of scope\n- Public ratings\n  - and comments\n- Shop")
	if will != "- v1 plans routes and schedules setters." {
		t.Errorf("will = %q", will)
	}
	if wont != "- We won't bill members.\n- Public ratings\n  - and comments\n- Shop" {
		t.Errorf("won't = %q", wont)
	}
}

func TestMigrateRefusesNonCharter(t *testing.T) {
	if _, err := Migrate([]byte("just text\n"), MigrateOptions{}); err != ErrNotCharter {
		t.Errorf("err = %v", err)
	}
}

// Notes account for every answer, the scratch pad, Vision, the gaps and
// the status, and offer the Brain Dump's sentences for the gaps.
func TestMigrationNotes(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"testdata/resume-after-q2.md", []string{
			"**Version**: 1.0.0 is kept: rp1 keeps it too, though its skeleton template writes none; check says so (generation-conflict, information) until you remove it",
			"Q1 (Brain Dump) stays in the scratch pad: a brain dump is never written into a region",
			"Q2 (Target Users) → Target Users",
			"the scratch pad stays, with what could not be placed",
			"Vision stays _TBD_: it is never inferred from the other sections",
			"gaps left: Vision, Problem & Context, Business Rationale, Scope Guardrails / Will, Scope Guardrails / Won't, Success Criteria",
			"**Status**: Draft",
		}},
		{"testdata/legacy-scratch-pad.md", []string{
			"Q1 (Target Users) → Target Users",
			"the scratch pad is removed: every answer is placed",
			"**Status**: Complete",
		}},
	} {
		src, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Migrate(src, MigrateOptions{Now: migrateNow})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Notes(); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: notes\n%s\nwant\n%s", tc.file, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	src, _ := os.ReadFile("testdata/create-after-brain-dump.md")
	m, _ := Migrate(src, MigrateOptions{Now: migrateNow})
	if notes := strings.Join(m.Notes(), "\n"); !strings.Contains(notes, "the Brain Dump speaks to Target Users (not written; place it if it fits)") {
		t.Errorf("no offer for Target Users:\n%s", notes)
	}
}

// An answer is carried over whole: headings that would end the section it
// goes into are demoted, deeper ones and code are left alone, and a code
// fence or an HTML comment it leaves open is closed.
func TestAnswerMarkdown(t *testing.T) {
	cases := []struct{ in, want string }{
		{"# Title\ntext", "### Title\ntext"},
		{"a\n## Section\nb", "a\n### Section\nb"},
		{"x\n  ## indented", "x\n  ### indented"},
		{"### Out of scope\n- billing", "### Out of scope\n- billing"},
		{"#hashtag stays", "#hashtag stays"},
		{"x\r\n## crlf", "x\n### crlf"},
		{"```\n## in code\n```", "```\n## in code\n```"},
		{"Run:\n```sh\nmake", "Run:\n```sh\nmake\n```"}, // an open fence would swallow the next section
		{"x\n<!--\nnote", "x\n<!--\nnote\n-->"},         // so would an open comment
		{"<!-- a -->\n## b", "<!-- a -->\n### b"},
		{"<!--\n## hidden\n-->", "<!--\n## hidden\n-->"}, // no heading to the parse: left as written
		{"```\n<!--\n```", "```\n<!--\n```"},             // a comment in code opens nothing
		{"<!--\n```", "<!--\n```\n-->"},                  // a fence in a comment opens nothing
	}
	for _, c := range cases {
		if got := AnswerMarkdown(c.in); got != c.want {
			t.Errorf("AnswerMarkdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Text under the header that opens an HTML comment and never closes it hid
// every section after it: migrated, the sections written after it must be
// seen, as the fuzzer found (the migrated text read as scratch-pad).
func TestMigrateClosesAnOpenComment(t *testing.T) {
	for _, in := range []string{
		"# 0\n\n<!--\n",
		"# 0\n<!--\n## Problem\nx\n",
		"# App\n\n## Problem & Context\n\nSlow.\n\n## Notes\n\n<!-- draft\n",
		"# App\n\n## Scratch Pad\n\n### Q1: Problem\n**Asked**: what?\n**Answer**: <!-- it\n",
	} {
		m, err := Migrate([]byte(in), MigrateOptions{Now: migrateNow})
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		after := Parse(m.New)
		if after.Format != FormatSkeleton {
			t.Errorf("%q migrated reads as %s:\n%s", in, after.Format, m.New)
		}
		if got := len(ReadSkeleton(after).Regions); got == 0 {
			t.Errorf("%q migrated: no region seen:\n%s", in, m.New)
		}
	}
}
