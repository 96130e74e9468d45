// Package interviewtest reads whole interviews written down as scripts, so
// the engine's tests and the CLI's drive the same interviews and check the
// same charter at the end.
//
// A script is a txtar archive (testdata/interviews/*.txtar):
//
//	what the interview is and why it must go this way     (the comment)
//	-- seed --           (optional) the seed's worked example, verbatim
//	-- charter.md --     (optional) the charter at the start; none: no file
//	-- path --           (optional) where the charter lives, under a folder
//	                     named after the project (default
//	                     project/.rp1/context/charter.md)
//	-- steps --          each response, then what the user types:
//	                       > next_question Q1 Brain Dump [problem users value_prop scope success]
//	                       the answer, any number of lines
//	                       > skip Q2 Value Proposition [scope success]
//	                       > success Q5 []
//	                     "(skip)" as the answer skips the question.
//	-- expect --         (optional) "status: Complete", "title: Runbook Radar"
//	-- finished.md --    the charter at the end, today's date as <TODAY>
//	-- check --          the codes `charter-lsp check` reports on it, sorted
//
// Run the engine's tests with -update to rewrite finished.md and check.
package interviewtest

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/interview"
)

// DefaultPath is where a script's charter lives unless it says otherwise.
const DefaultPath = "project/.rp1/context/charter.md"

// Script is one interview written down.
type Script struct {
	File    string
	Comment string
	Seed    string
	Start   []byte // the charter at the start (Exists false: no file)
	Exists  bool
	Path    string
	Steps   []Step
	Expect  map[string]string
	// Finished and Check are the goldens; "" when the script has none yet.
	Finished, Check string

	archive *txtar.Archive
}

// Step is one response the interviewer must give, and what the user then
// types.
type Step struct {
	Line   string // the "> …" line as written, for messages
	Type   string
	Number int
	Topic  string   // the entry's topic; "" for success and error
	Gaps   []string // gaps_remaining
	Answer string   // "" for none
	Skip   bool     // the user skips the question
}

var stepRe = regexp.MustCompile(`^> (\w+) Q(\d+)(?: (.*?))? \[([^\]]*)\]$`)

// Load reads a script.
func Load(file string) (*Script, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	a := txtar.Parse(data)
	s := &Script{File: file, Comment: strings.TrimSpace(string(a.Comment)), Path: DefaultPath, Expect: map[string]string{}, archive: a}
	for _, f := range a.Files {
		text := string(f.Data)
		switch f.Name {
		case "seed":
			s.Seed = text
		case "charter.md":
			s.Start, s.Exists = f.Data, true
		case "path":
			s.Path = strings.TrimSpace(text)
		case "steps":
			if s.Steps, err = parseSteps(text); err != nil {
				return nil, fmt.Errorf("%s: %v", file, err)
			}
		case "expect":
			for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
				k, v, ok := strings.Cut(line, ":")
				if !ok {
					return nil, fmt.Errorf("%s: expect line %q is not key: value", file, line)
				}
				s.Expect[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		case "finished.md":
			s.Finished = text
		case "check":
			s.Check = text
		default:
			return nil, fmt.Errorf("%s: unknown section %q", file, f.Name)
		}
	}
	if len(s.Steps) == 0 {
		return nil, fmt.Errorf("%s: no steps", file)
	}
	return s, nil
}

func parseSteps(text string) ([]Step, error) {
	var steps []Step
	var answer []string
	flush := func() {
		if n := len(steps); n > 0 {
			a := strings.TrimSpace(strings.Join(answer, "\n"))
			if a == "(skip)" {
				steps[n-1].Skip = true
			} else {
				steps[n-1].Answer = a
			}
		}
		answer = nil
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if !strings.HasPrefix(line, "> ") {
			if len(steps) == 0 && strings.TrimSpace(line) != "" {
				return nil, fmt.Errorf("text before the first step: %q", line)
			}
			answer = append(answer, line)
			continue
		}
		flush()
		m := stepRe.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("step line %q is not \"> TYPE Qn [TOPIC] [gaps]\"", line)
		}
		n, _ := strconv.Atoi(m[2])
		gaps := strings.Fields(m[4])
		if gaps == nil {
			gaps = []string{}
		}
		steps = append(steps, Step{Line: line, Type: m[1], Number: n, Topic: m[3], Gaps: gaps})
	}
	flush()
	return steps, nil
}

// Response is what a run of the interviewer answered, as its JSON says it
// (the CLI sees nothing else), with the topic of the entry it writes.
type Response struct {
	Type     string
	Number   int
	Topic    string
	Gaps     []string
	JSON     []byte
	Question string
}

// FromEngine describes an engine response.
func FromEngine(r interview.Response, json []byte) Response {
	gaps := make([]string, len(r.Metadata.GapsRemaining))
	for i, g := range r.Metadata.GapsRemaining {
		gaps[i] = string(g)
	}
	topic := r.Topic
	if r.Type != interview.TypeNextQuestion && r.Type != interview.TypeSkip {
		topic = ""
	}
	return Response{Type: r.Type, Number: r.Metadata.QuestionNumber, Topic: topic, Gaps: gaps, JSON: json, Question: r.NextQuestion}
}

// Matches reports how a response differs from the step ("" when it does
// not).
func (st Step) Matches(r Response) string {
	if r.Type != st.Type || r.Number != st.Number || (st.Topic != "" && r.Topic != st.Topic) || !slices.Equal(r.Gaps, st.Gaps) {
		return fmt.Sprintf("want %q, got > %s Q%d %s %v", st.Line, r.Type, r.Number, r.Topic, r.Gaps)
	}
	return ""
}

// React writes the user's reaction to the pending question into text: the
// answer after its "**Answer**:", or a skip (interview.SkipPending).
func (st Step) React(text []byte) ([]byte, error) {
	if st.Skip {
		p, err := interview.SkipPending(text, "The user chose to skip this question.")
		if err != nil {
			return nil, err
		}
		return interview.Apply(text, p.Edits), nil
	}
	e := rp1.Parse(text).ScratchPad.PendingEntry()
	if e == nil || !e.HasAnswer {
		return nil, fmt.Errorf("no pending **Answer**: to type %q into", st.Answer)
	}
	nl := "\n"
	if strings.Contains(string(text), "\r\n") {
		nl = "\r\n"
	}
	at := e.AnswerSpan.End
	out := interview.Apply(text, []interview.Edit{{Span: source.Span{Start: at, End: at}, NewText: strings.ReplaceAll(st.Answer, "\n", nl)}})
	if got := rp1.Parse(out).ScratchPad.Entries; !slices.ContainsFunc(got, func(x *rp1.Entry) bool {
		return x.Number == e.Number && strings.ReplaceAll(x.Answer, "\r\n", "\n") == st.Answer
	}) {
		return nil, fmt.Errorf("typing %q did not give Q%d that answer:\n%s", st.Answer, e.Number, out)
	}
	return out, nil
}

// GapCodes are the diagnostics that say a charter has a gap; a charter the
// interview finished as Complete has none of them (section-partial, a
// one-sentence section, may remain: it is a hint).
var GapCodes = []string{"section-missing", "section-empty", "section-covered-by-qa", "status-complete-with-gaps",
	"status-mismatch", "status-noncanonical", "placeholder-variant"}

// Normalize is a finished charter as finished.md holds it: today's date
// (the run's clock) written <TODAY>.
func Normalize(final []byte, today string) string {
	return strings.ReplaceAll(string(final), today, "<TODAY>")
}

// Verify checks a finished charter (normalized) and the codes check
// reported on it (sorted) against the script: finished.md, check, and the
// stated outcome (expect: the status, the title; a Complete charter with
// no gap diagnostic; no scratch pad left).
func (s *Script) Verify(finished string, codes []string) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if finished != s.Finished {
		bad("finished charter:\n%s\nwant (finished.md; the engine's test with -update rewrites it):\n%s", finished, s.Finished)
	}
	if check := strings.Join(codes, "\n") + "\n"; check != s.Check {
		bad("check on the finished charter: %q, want %q", check, s.Check)
	}
	ch := rp1.Parse([]byte(finished))
	if want := s.Expect["status"]; want != "" {
		if f := ch.Header("Status"); f == nil || f.Value != want {
			bad("**Status** %v, want %s", f, want)
		}
		if want == rp1.StatusValueComplete {
			for _, c := range codes {
				if slices.Contains(GapCodes, c) {
					bad("a Complete charter has the gap diagnostic %s", c)
				}
			}
		}
	}
	if want := s.Expect["title"]; want != "" {
		if name, placeholder := ch.ProjectName(); placeholder || name != want {
			bad("title %q (placeholder %v), want %q", ch.Title, placeholder, want)
		}
	}
	if ch.ScratchPad != nil || strings.Contains(finished, "Scratch Pad") {
		bad("the scratch pad is still there")
	}
	return problems
}

// SetGoldens rewrites the script's finished.md and check sections.
func (s *Script) SetGoldens(finished string, codes []string) error {
	set := func(name, text string) {
		for i := range s.archive.Files {
			if s.archive.Files[i].Name == name {
				s.archive.Files[i].Data = []byte(text)
				return
			}
		}
		s.archive.Files = append(s.archive.Files, txtar.File{Name: name, Data: []byte(text)})
	}
	set("finished.md", finished)
	set("check", strings.Join(codes, "\n")+"\n")
	return os.WriteFile(s.File, txtar.Format(s.archive), 0o644)
}
