package interview

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

var testNow = time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)

// TestNextGolden runs Next on each markdown case and compares the JSON it
// prints with the .json file beside it (go test -update rewrites them; review
// the diff).
func TestNextGolden(t *testing.T) {
	cases := []struct {
		file, golden string
		opts         Options
		missing      bool
	}{
		{file: "fixtures/create-after-brain-dump.md"},
		{file: "fixtures/resume-after-q2.md"},
		{file: "fixtures/update-partial.md"},
		{file: "fixtures/rp1-real.md"},
		{file: "next/pending.md"},
		{file: "next/skip-users-states-value.md"},
		{file: "next/after-skip.md"},
		{file: "next/user-skipped.md"},
		{file: "next/all-malformed.md"},
		{file: "next/budget-spent.md", golden: "next/budget-spent.budget2.json", opts: Options{Budget: 2}},
		{file: "next/budget-spent.md", golden: "next/budget-spent.finish.json", opts: Options{FinishNow: true}},
		{file: "next/other-markdown.md"},
		{file: "next/state-json.md"},
		{file: "next/no-pad-resume.md", golden: "next/no-pad-resume.resume.json", opts: Options{Mode: "RESUME"}},
		{file: "next/no-pad-resume.md", golden: "next/no-pad-resume.finish.json", opts: Options{FinishNow: true}},
		{file: "next/missing.md", golden: "next/missing.create.json", missing: true},
		{file: "next/missing.md", golden: "next/missing.resume.json", missing: true, opts: Options{Mode: "resume"}},
		{file: "next/missing.md", golden: "next/missing.badmode.json", missing: true, opts: Options{Mode: "REPLACE"}},
	}
	for _, c := range cases {
		golden := c.golden
		if golden == "" {
			golden = strings.TrimSuffix(c.file, ".md") + ".json"
		}
		t.Run(golden, func(t *testing.T) {
			var text []byte
			if !c.missing {
				var err error
				if text, err = os.ReadFile(filepath.Join("testdata", c.file)); err != nil {
					t.Fatal(err)
				}
			}
			c.opts.Now = testNow
			got, err := json.MarshalIndent(Next(text, !c.missing, c.opts), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, golden, append(got, '\n'))
		})
	}
}

// TestSharedFixtures states what a reader of each shared fixture expects the
// interviewer to do next, and why.
func TestSharedFixtures(t *testing.T) {
	cases := []struct {
		file    string
		why     string
		mode    string
		typ     string
		number  int
		section rp1.SectionID
		gaps    []rp1.SectionID
		mention []string // words the question must contain
	}{
		{
			file: "create-after-brain-dump.md",
			why: "the seed's CREATE example: Q1 (Brain Dump) speaks to the users (a handbook for small " +
				"infrastructure teams; the on-call engineers and their team leads) and to the problem (wikis " +
				"out of date). Coverage counts no sentences (the seed's Step 2), so one sentence on the " +
				"problem covers it, and Q2 asks about the value, with gaps_remaining [value_prop, scope, success]",
			mode: ModeResume, typ: TypeNextQuestion, number: 2, section: rp1.ValueProp,
			gaps:    []rp1.SectionID{rp1.ValueProp, rp1.Scope, rp1.Success},
			mention: []string{"For the on-call engineers and their team leads, what unique value"},
		},
		{
			file: "resume-after-q2.md",
			why: "the seed's RESUME example: Q1 (Brain Dump) covers the problem and Q2 the users, so the " +
				"interview resumes at Q3 with the value proposition, never re-asking users",
			mode: ModeResume, typ: TypeNextQuestion, number: 3, section: rp1.ValueProp,
			gaps:    []rp1.SectionID{rp1.ValueProp, rp1.Scope, rp1.Success},
			mention: []string{"For renters dealing with watering schedules,"},
		},
		{
			file: "update-partial.md",
			why: "no scratch pad, so UPDATE: problem, users and scope are complete, Business Rationale " +
				"is only TBD (unfilled) and Success Criteria is empty, so the gaps are value_prop and " +
				"success and Q1 is the targeted value question (no Brain Dump in UPDATE), referencing " +
				"the charter's own users",
			mode: ModeUpdate, typ: TypeNextQuestion, number: 1, section: rp1.ValueProp,
			gaps:    []rp1.SectionID{rp1.ValueProp, rp1.Success},
			mention: []string{"For accountants dealing with "},
		},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata/fixtures", c.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Next(text, true, Options{})
			if r.Mode != c.mode || r.Type != c.typ || r.Metadata.QuestionNumber != c.number ||
				r.Section != c.section || !slices.Equal(r.Metadata.GapsRemaining, c.gaps) {
				t.Fatalf("expected %s Q%d about %s with gaps %v, because %s; got %s %s Q%d about %s with gaps %v",
					c.typ, c.number, c.section, c.gaps, c.why,
					r.Mode, r.Type, r.Metadata.QuestionNumber, r.Section, r.Metadata.GapsRemaining)
			}
			for _, m := range c.mention {
				if !strings.Contains(r.NextQuestion, m) {
					t.Errorf("question %q should mention %q", r.NextQuestion, m)
				}
			}
		})
	}
}

// TestModeDetection: no file or an empty one is CREATE, a scratch pad is
// RESUME, anything else UPDATE; the caller's mode wins over the pad's
// comment.
func TestModeDetection(t *testing.T) {
	pad := "# C\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n<!-- End scratch pad -->\n"
	cases := []struct {
		text   string
		exists bool
		mode   string
		want   string
	}{
		{"", false, "", ModeCreate},
		{"  \n\n", true, "", ModeCreate},
		{pad, true, "", ModeResume},
		{"# C\n\n## Problem & Context\n\nX.\n", true, "", ModeUpdate},
		{pad, true, "update", ModeUpdate},
		{"# C\n", true, "CREATE", ModeCreate},
	}
	for _, c := range cases {
		if got := Next([]byte(c.text), c.exists, Options{Mode: c.mode}).Mode; got != c.want {
			t.Errorf("mode of %q (exists %v, given %q) = %s, want %s", c.text, c.exists, c.mode, got, c.want)
		}
	}
}

// TestUpdateModeCommentLoses: a pad whose comment says CREATE but is run in
// UPDATE mode is not asked a Brain Dump.
func TestUpdateModeCommentLoses(t *testing.T) {
	text := "# C\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n<!-- End scratch pad -->\n"
	if r := Next([]byte(text), true, Options{Mode: ModeUpdate}); r.Topic == BrainDumpTopic {
		t.Errorf("UPDATE asked the Brain Dump: %+v", r)
	}
	if r := Next([]byte(text), true, Options{}); r.Topic != BrainDumpTopic {
		t.Errorf("RESUME of a CREATE pad with no entries should ask the Brain Dump, got %q", r.Topic)
	}
}

// TestFinishNowWithPending: an explicit finish drops a pending question once
// problem and users are covered, and refuses before that.
func TestFinishNowWithPending(t *testing.T) {
	text := read(t, "next/pending.md")
	r := Next(text, true, Options{FinishNow: true})
	if r.Type != TypeSuccess || !slices.Equal(r.Metadata.GapsRemaining, []rp1.SectionID{rp1.ValueProp, rp1.Scope, rp1.Success}) {
		t.Fatalf("got %s %v: %s", r.Type, r.Metadata.GapsRemaining, r.Message)
	}
	p, err := Finish(text, r, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if ch := rp1.Parse(Apply(text, p.Edits)); ch.ScratchPad != nil || ch.SectionCompleteness(rp1.ValueProp) != rp1.StatusEmpty {
		t.Errorf("finish left the pad or filled value_prop")
	}
	text = []byte("# C\n\n## Scratch Pad\n\n### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: A garden app. Weeds are a pain.\n")
	if r := Next(text, true, Options{FinishNow: true}); r.Type != TypeError {
		t.Errorf("finish without users covered: %s", r.Type)
	}
}

// TestFinishNowMessage: "Finish interview" says the interview finished early
// only when it would have gone on; after every section is covered, or the
// budget is spent, it ends as it would have ended by itself.
func TestFinishNowMessage(t *testing.T) {
	answered := "# Project Charter: Rotas\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n" +
		"### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: Planning café rotas by hand is slow. It takes hours every week.\n\n" +
		"### Q2: Target Users\n**Asked**: Who?\n**Answer**: Café managers who schedule shift workers. They juggle availability.\n\n" +
		"### Q3: Value Proposition\n**Asked**: Why?\n**Answer**: A rota is drafted in minutes. Conflicts are flagged early.\n\n" +
		"### Q4: Scope\n**Asked**: Scope?\n**Answer**: Rota drafting is in. Payroll stays out.\n\n" +
		"### Q5: Success Criteria\n**Asked**: Success?\n**Answer**: A rota takes ten minutes. Managers accept it.\n\n" +
		"<!-- End scratch pad -->\n"
	early := "# Project Charter: Rotas\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n" +
		"### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: Planning café rotas by hand is slow. It takes hours every week.\n\n" +
		"### Q2: Target Users\n**Asked**: Who?\n**Answer**: Café managers who schedule shift workers. They juggle availability.\n\n" +
		"<!-- End scratch pad -->\n"
	for _, c := range []struct {
		name, text string
		budget     int
		want       string
	}{
		{"all answered", answered, 0, "Charter interview complete. All required sections covered."},
		{"budget spent", early, 2, "Charter interview complete: the question budget (2) is spent."},
		{"early", early, 0, "Charter interview finished early at the user's request."},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Next([]byte(c.text), true, Options{FinishNow: true, Budget: c.budget})
			if r.Type != TypeSuccess || !strings.HasPrefix(r.Message, c.want) {
				t.Errorf("got %s %q, want a success starting %q", r.Type, r.Message, c.want)
			}
			natural := Next([]byte(c.text), true, Options{Budget: c.budget})
			if c.name != "early" && natural.Message != r.Message {
				t.Errorf("finish says %q, the interview by itself %q", r.Message, natural.Message)
			}
		})
	}
}

// The files of a .charters/ charter are pi-charter's: no interview.
func TestNextRefusesChartersFiles(t *testing.T) {
	for _, name := range []string{"charter.md", "state.json", "events.jsonl"} {
		r := Next([]byte("# Objective\n\nShip it.\n"), true, Options{Path: "/p/.charters/20260702-101500-ship/" + name})
		if r.Type != TypeError || !strings.Contains(r.Message, "not an rp1 charter.md") {
			t.Errorf("%s: %s %q", name, r.Type, r.Message)
		}
	}
}
