package interview_test

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	. "github.com/charter-lsp/charter-lsp/interview"
	"github.com/charter-lsp/charter-lsp/interview/interviewtest"
)

// testNow is the engine tests' clock (engine_test.go's).
var testNow = time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)

// updating: go test -update (the flag engine_test.go defines).
func updating() bool { return flag.Lookup("update").Value.(flag.Getter).Get().(bool) }

// TestInterviewScripts runs every whole interview of
// testdata/interviews/*.txtar through the engine (Next, then the edits
// that carry out each response, then the user's answer typed into the
// file): each response must be the script's; the seed's worked examples,
// kept verbatim in the scripts, must hold at every step; the finished
// charter must be the script's (finished.md) and check on it must report
// exactly the script's codes. The CLI's test runs the same scripts through
// `charter-lsp interview --apply` and must end with the same charter.
func TestInterviewScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/interviews/*.txtar")
	if err != nil || len(files) < 9 {
		t.Fatalf("want the interview scripts, found %d (%v)", len(files), err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			s, err := interviewtest.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			run, final := runScript(t, s)
			if s.Seed != "" {
				problems, n := interviewtest.CheckSeed(s.Seed, run)
				more, m := interviewtest.CheckSeedCharter(s.Seed, s.Start)
				if n+m == 0 {
					t.Fatalf("read nothing the seed's example promises from:\n%s", s.Seed)
				}
				for _, p := range append(problems, more...) {
					t.Error("seed: " + p)
				}
			}
			finished := interviewtest.Normalize(final, testNow.Format("2006-01-02"))
			var codes []string
			for _, d := range rp1.Check(rp1.Parse(final), rp1.Options{RP1Style: true}) {
				codes = append(codes, d.Code.String())
			}
			slices.Sort(codes)
			if updating() {
				if err := s.SetGoldens(finished, codes); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, p := range s.Verify(finished, codes) {
				t.Error(p)
			}
		})
	}
}

// runScript plays a script through the engine and returns every response
// and the finished charter.
func runScript(t *testing.T, s *interviewtest.Script) ([]interviewtest.Observed, []byte) {
	t.Helper()
	text, exists := s.Start, s.Exists
	opts := Options{Now: testNow, Path: "/p/" + s.Path}
	var run []interviewtest.Observed
	after := 0
	for i, st := range s.Steps {
		r := Next(text, exists, opts)
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		o := interviewtest.Observed{Response: interviewtest.FromEngine(r, b), After: after}
		run = append(run, o)
		if msg := st.Matches(o.Response); msg != "" {
			t.Fatalf("step %d: %s (%s)\n%s", i+1, msg, r.Message, text)
		}
		p, err := PlanFor(text, r, testNow)
		if err != nil {
			t.Fatal(err)
		}
		text, exists = Apply(text, p.Edits), true
		switch r.Type {
		case TypeNextQuestion:
			if text, err = st.React(text); err != nil {
				t.Fatalf("step %d: %v", i+1, err)
			}
			after = r.Metadata.QuestionNumber
		case TypeSuccess, TypeError:
			if i != len(s.Steps)-1 {
				t.Fatalf("step %d: the interview ended (%s) with steps to go", i+1, r.Type)
			}
		}
	}
	if last := run[len(run)-1]; last.Type != TypeSuccess {
		t.Fatalf("the script ends with %s, not success", last.Type)
	}
	return run, text
}
