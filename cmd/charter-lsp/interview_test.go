package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/interview"
	"github.com/charter-lsp/charter-lsp/interview/interviewtest"
)

// interviewStep is one run of "charter-lsp interview FILE --apply": what the
// response must be, then the answer the user types into the file.
type interviewStep struct {
	wantType   string
	wantNumber int
	wantGaps   []string
	wantTopic  string // the "### Q{N}: Topic" the run appended ("" for none)
	answer     string // written after the new **Answer**: before the next run
}

// interviewRunner runs the CLI: in-process through run, or as a built binary.
type interviewRunner func(t *testing.T, args ...string) (stdout string, code int)

// cliRunner is an interviewRunner that also returns stderr, where --apply
// says what it wrote.
type cliRunner func(t *testing.T, args ...string) (stdout, stderr string, code int)

func inProcess(t *testing.T, args ...string) (string, int) {
	out, _, code := inProcessFull(t, args...)
	return out, code
}

func inProcessFull(t *testing.T, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := run(append([]string{"interview"}, args...), nil, &out, &errb)
	t.Logf("stderr: %s", errb.String())
	return out.String(), errb.String(), code
}

func binaryFull(t *testing.T) cliRunner {
	binPath := testfixture.Server(t)
	return func(t *testing.T, args ...string) (string, string, int) {
		cmd := exec.Command(binPath, append([]string{"interview"}, args...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		t.Logf("stderr: %s", errb.String())
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), 0
	}
}

// runFlow drives an interview step by step with --apply, answering in the
// file between runs as a user would, and returns the final file.
func runFlow(t *testing.T, runCLI interviewRunner, path string, steps []interviewStep) []byte {
	t.Helper()
	for i, st := range steps {
		out, code := runCLI(t, path, "--apply")
		if code != 0 {
			t.Fatalf("step %d: exit %d\n%s", i+1, code, out)
		}
		var resp struct {
			Type         string `json:"type"`
			NextQuestion string `json:"next_question"`
			Metadata     struct {
				QuestionNumber int      `json:"question_number"`
				TotalQuestions int      `json:"total_questions"`
				Gaps           []string `json:"gaps_remaining"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal([]byte(out), &resp); err != nil {
			t.Fatalf("step %d: output is not JSON: %v\n%s", i+1, err, out)
		}
		if resp.Type != st.wantType || resp.Metadata.QuestionNumber != st.wantNumber || !slices.Equal(resp.Metadata.Gaps, st.wantGaps) {
			t.Fatalf("step %d: got %s Q%d gaps %v, want %s Q%d gaps %v\n%s", i+1,
				resp.Type, resp.Metadata.QuestionNumber, resp.Metadata.Gaps, st.wantType, st.wantNumber, st.wantGaps, out)
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.wantTopic != "" {
			heading := "### Q" + strconv.Itoa(st.wantNumber) + ": " + st.wantTopic + "\n**Asked**: " + resp.NextQuestion + "\n**Answer**: \n"
			if !bytes.Contains(text, []byte(heading)) {
				t.Fatalf("step %d: file lacks the new entry %q:\n%s", i+1, heading, text)
			}
		}
		if st.answer == skipAnswer {
			text = bytes.Replace(text, []byte("**Answer**: \n"), []byte("**Skipped**: The user chose to skip this question.\n"), 1)
			if err := os.WriteFile(path, text, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if st.answer != "" {
			text = bytes.Replace(text, []byte("**Answer**: \n"), []byte("**Answer**: "+st.answer+"\n"), 1)
			if err := os.WriteFile(path, text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// checkFinished runs `charter-lsp check` on a finished charter, as a user
// would next, and fails on any gap diagnostic: what the interview writes
// must pass charter-lsp's own check (section-partial, a one-sentence
// section, is a hint and may remain). The status must be Complete.
func checkFinished(t *testing.T, path string, final []byte) {
	t.Helper()
	ds, code := checkJSON(t, filepath.Dir(path), filepath.Base(path))
	for _, d := range ds {
		if slices.Contains(interviewtest.GapCodes, d.Code) {
			t.Errorf("check on the finished charter: %s: %s", d.Code, d.Message)
		}
	}
	if code != 0 {
		t.Errorf("check exit %d", code)
	}
	if !bytes.Contains(final, []byte("**Status**: Complete")) || bytes.Contains(final, []byte("Scratch Pad")) {
		t.Errorf("not finished:\n%s", final)
	}
	if t.Failed() {
		t.Logf("finished charter:\n%s", final)
	}
}

// TestInterviewScriptsCLI plays every whole interview of
// interview/testdata/interviews (the seed's CREATE, UPDATE, RESUME and skip
// examples, kept verbatim there, and realistic interviews) from a shell, as
// a user would: `charter-lsp interview FILE` prints the next action, `…
// --apply` carries it out, the user types the answer into the file, and
// again. Each response must be the script's, the seed's gaps_remaining must
// hold at every step, and the finished charter must be the one the
// engine's test finishes (finished.md), with the diagnostics `charter-lsp
// check` reports on it (check).
func TestInterviewScriptsCLI(t *testing.T) {
	files, err := filepath.Glob("../../interview/testdata/interviews/*.txtar")
	if err != nil || len(files) < 9 {
		t.Fatalf("want the interview scripts, found %d (%v)", len(files), err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runScriptCLI(t, inProcessFull, file)
		})
	}
}

// TestInterviewScriptBinary is the realistic on-call interview through the
// built binary: the Brain Dump answers the problem and the users, nothing
// is asked twice, and after four questions the charter is finished,
// titled, Complete and clean by check.
func TestInterviewScriptBinary(t *testing.T) {
	runScriptCLI(t, binaryFull(t), "../../interview/testdata/interviews/oncall-named.txtar")
}

// runScriptCLI plays one script through the CLI (see
// TestInterviewScriptsCLI). A skip is seen in the printing run; the
// applying run records it and asks the next question, which must be the
// script's next step.
func runScriptCLI(t *testing.T, runCLI cliRunner, file string) {
	t.Helper()
	s, err := interviewtest.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), filepath.FromSlash(s.Path))
	if s.Exists {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, s.Start, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func() []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	parse := func(out, _ string, code int) interviewtest.Response {
		var r struct {
			Type         string `json:"type"`
			NextQuestion string `json:"next_question"`
			Metadata     struct {
				QuestionNumber int      `json:"question_number"`
				Gaps           []string `json:"gaps_remaining"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
			t.Fatalf("exit %d, output not a response (%v):\n%s", code, err, out)
		}
		return interviewtest.Response{Type: r.Type, Number: r.Metadata.QuestionNumber, Gaps: r.Metadata.Gaps,
			JSON: []byte(out), Question: r.NextQuestion}
	}
	// topicOf reads the topic of entry Qn the applying run wrote.
	topicOf := func(n int) string {
		for _, e := range rp1.Parse(read()).ScratchPad.Entries {
			if e.Number == n {
				return e.Topic
			}
		}
		t.Fatalf("no Q%d in the file:\n%s", n, read())
		return ""
	}
	var run []interviewtest.Observed
	after := 0
	for i := 0; i < len(s.Steps); i++ {
		o := parse(runCLI(t, path))
		out, stderr, code := runCLI(t, path, "--apply")
		applied := parse(out, stderr, code)
		if o.Type == interview.TypeSkip {
			// "recorded Q4 (Success Criteria) as skipped": the file may be
			// finished already, its scratch pad gone.
			if m := regexp.MustCompile(`recorded Q` + strconv.Itoa(o.Number) + ` \((.*)\) as skipped`).FindStringSubmatch(stderr); m != nil {
				o.Topic = m[1]
			}
			run = append(run, interviewtest.Observed{Response: o, After: after})
			if msg := s.Steps[i].Matches(o); msg != "" {
				t.Fatalf("step %d: %s", i+1, msg)
			}
			i++ // the applying run recorded the skip and went on
			if i == len(s.Steps) {
				t.Fatalf("the script ends with a skip")
			}
			o = applied
		} else if string(applied.JSON) != string(o.JSON) {
			t.Fatalf("step %d: --apply carried out another action:\n%s\nthan the one printed:\n%s", i+1, applied.JSON, o.JSON)
		}
		if o.Type == interview.TypeNextQuestion {
			o.Topic = topicOf(o.Number)
		}
		run = append(run, interviewtest.Observed{Response: o, After: after})
		if msg := s.Steps[i].Matches(o); msg != "" {
			t.Fatalf("step %d: %s\n%s", i+1, msg, read())
		}
		if o.Type != interview.TypeNextQuestion {
			if i != len(s.Steps)-1 {
				t.Fatalf("step %d: the interview ended (%s) with steps to go", i+1, o.Type)
			}
			break
		}
		text, err := s.Steps[i].React(read())
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		after = o.Number
	}
	if s.Seed != "" {
		problems, n := interviewtest.CheckSeed(s.Seed, run)
		if n == 0 && !strings.Contains(s.Seed, "Charter has") && !strings.Contains(s.Seed, "Prior coverage") {
			t.Fatalf("read nothing the seed's example promises")
		}
		for _, p := range problems {
			t.Error("seed: " + p)
		}
	}
	ds, _ := checkJSON(t, filepath.Dir(path), filepath.Base(path))
	var codes []string
	for _, d := range ds {
		codes = append(codes, d.Code)
	}
	slices.Sort(codes)
	for _, p := range s.Verify(interviewtest.Normalize(read(), time.Now().UTC().Format("2006-01-02")), codes) {
		t.Error(p)
	}
}

// TestInterviewCreateFlowMarkdownAnswers: answers written as markdown (a
// segment list with bold labels, a scope answer with "### Out of scope" and
// a nested list) are carried over whole, the value question names the users
// in a few words (no raw sentence, no markdown), and the finished charter
// passes check.
func TestInterviewCreateFlowMarkdownAnswers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shiftplan", ".rp1", "context", "charter.md")
	all := []string{"problem", "users", "value_prop", "scope", "success"}
	var valueQuestion string
	steps := []interviewStep{
		{wantType: "next_question", wantNumber: 1, wantGaps: all, wantTopic: "Brain Dump",
			answer: "I want a tool that plans volunteer shifts for food banks. We schedule about 300 volunteers by hand in spreadsheets every month. " +
				"Shifts go unfilled because the spreadsheet is always out of date."},
		{wantType: "next_question", wantNumber: 2, wantGaps: all[1:], wantTopic: "Target Users",
			answer: "### Primary User Segments\n\n**Volunteer coordinators**\n- Plan the month's shifts\n- Chase no-shows by phone\n\n" +
				"**Regular volunteers**\n- Pick shifts that fit their week"},
		{wantType: "next_question", wantNumber: 3, wantGaps: all[2:], wantTopic: "Value Proposition",
			answer: "Coordinators save a day a month. Volunteers swap shifts themselves instead of calling the coordinator."},
		{wantType: "next_question", wantNumber: 4, wantGaps: all[3:], wantTopic: "Scope",
			answer: "v1 plans shifts and sends reminders. Volunteers confirm by text message.\n\n### Out of scope\n- Payroll\n- Donor management\n  - including receipts"},
		{wantType: "next_question", wantNumber: 5, wantGaps: all[4:], wantTopic: "Success Criteria",
			answer: "- Nine in ten shifts are filled a week ahead\n- Coordinators stop using the spreadsheet within two months"},
		{wantType: "success", wantNumber: 6, wantGaps: []string{}},
	}
	runCLI := func(t *testing.T, args ...string) (string, int) {
		out, code := inProcess(t, args...)
		if strings.Contains(out, "unique value") {
			var r struct {
				NextQuestion string `json:"next_question"`
			}
			json.Unmarshal([]byte(out), &r)
			valueQuestion = r.NextQuestion
		}
		return out, code
	}
	final := runFlow(t, runCLI, path, steps)
	if valueQuestion != "For volunteer coordinators and regular volunteers dealing with the out-of-date spreadsheet, what unique value does your solution provide? How is it better than alternatives?" {
		t.Errorf("value question: %q", valueQuestion)
	}
	for _, bad := range []string{"For I want", "For we schedule", "**", "###"} {
		if strings.Contains(valueQuestion, bad) {
			t.Errorf("value question holds %q: %q", bad, valueQuestion)
		}
	}
	scope := section(final, "## Scope Guardrails")
	for _, want := range []string{"### Out of scope\n- Payroll\n- Donor management\n  - including receipts", "v1 plans shifts"} {
		if !strings.Contains(scope, want) {
			t.Errorf("scope lost %q:\n%s", want, scope)
		}
	}
	if !strings.Contains(section(final, "## Target Users"), "### Primary User Segments\n\n**Volunteer coordinators**") {
		t.Errorf("users answer not carried over whole:\n%s", final)
	}
	// The Brain Dump gave no name and the budget is spent: the title is
	// the project folder's, as rp1's template names a charter.
	if !bytes.HasPrefix(final, []byte("# Project Charter: shiftplan\n")) {
		t.Errorf("title:\n%s", final)
	}
	checkFinished(t, path, final)
}

// skipAnswer, as a step's answer, turns the pending "**Answer**:" into a skip.
const skipAnswer = "\x00skip"

// TestInterviewUpdateFlow is the seed's UPDATE example: problem, users and
// scope are complete, value is partial (TBD) and success empty, so only the
// value and success questions are asked (no Brain Dump), then success.
func TestInterviewUpdateFlow(t *testing.T) {
	path := copyFixture(t, "../../interview/testdata/fixtures/update-partial.md")
	before, _ := os.ReadFile(path)
	final := runFlow(t, inProcess, path, []interviewStep{
		{wantType: "next_question", wantNumber: 1, wantGaps: []string{"value_prop", "success"}, wantTopic: "Value Proposition",
			answer: "Matches come with an audit trail auditors accept. It replaces two days of manual work with an hour of review."},
		{wantType: "next_question", wantNumber: 2, wantGaps: []string{"success"}, wantTopic: "Success Criteria",
			answer: "Month-end close takes one day instead of three. Failure is auditors rejecting the suggested matches."},
		{wantType: "success", wantNumber: 3, wantGaps: []string{}},
	})
	// The complete sections are byte for byte what they were.
	for _, heading := range []string{"## Problem & Context", "## Target Users", "## Scope Guardrails"} {
		if section(before, heading) != section(final, heading) {
			t.Errorf("%s changed:\n%s", heading, section(final, heading))
		}
	}
	checkInterviewGolden(t, "update.golden.md", final)
}

// TestInterviewSkipFlow: when the users answer already states the value,
// --apply records the skip and asks the next question in the same run.
func TestInterviewSkipFlow(t *testing.T) {
	path := copyFixture(t, "../../interview/testdata/next/skip-users-states-value.md")
	final := runFlow(t, inProcess, path, []interviewStep{
		{wantType: "next_question", wantNumber: 4, wantGaps: []string{"scope", "success"}, wantTopic: "Scope"},
	})
	if !bytes.Contains(final, []byte("### Q3: Value Proposition\n**Skipped**: Value proposition already covered in Q2 (Target Users).\n")) {
		t.Errorf("skip not recorded:\n%s", final)
	}
}

// TestInterviewExitCodes: an error response exits 1 and leaves the file
// alone; bad flags exit 2; output is JSON even for a binary file.
func TestInterviewExitCodes(t *testing.T) {
	dir := t.TempDir()
	noPad := filepath.Join(dir, "charter.md")
	orig := []byte("# Project Charter: X\n\n## Problem & Context\n\nA. B.\n")
	os.WriteFile(noPad, orig, 0o644)
	binFile := filepath.Join(dir, "blob.md")
	os.WriteFile(binFile, []byte{0x89, 'P', 'N', 'G', 0, 0, 0xff}, 0o644)
	cases := []struct {
		args []string
		code int
		typ  string
	}{
		{[]string{noPad, "--mode", "RESUME", "--apply"}, 1, "error"},
		{[]string{"--mode", "resume", noPad}, 1, "error"},
		{[]string{noPad, "--finish"}, 1, "error"},
		{[]string{binFile, "--apply"}, 1, "error"},
		{[]string{noPad}, 0, "next_question"},
		{[]string{noPad, "--mode", "SIDEWAYS"}, 2, ""},
		{[]string{noPad, "--budget", "0"}, 2, ""},
		{[]string{}, 2, ""},
		{[]string{noPad, noPad}, 2, ""},
		{[]string{filepath.Join(dir, "missing", "charter.md"), "--mode", "UPDATE", "--apply"}, 2, ""},
	}
	for _, c := range cases {
		out, code := inProcess(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, c.code, out)
		}
		if c.typ != "" {
			var r struct{ Type string }
			if err := json.Unmarshal([]byte(out), &r); err != nil || r.Type != c.typ {
				t.Errorf("%v: type %q (%v), want %s", c.args, r.Type, err, c.typ)
			}
		}
	}
	if got, _ := os.ReadFile(noPad); !bytes.Equal(got, orig) {
		t.Errorf("an error response changed the file:\n%s", got)
	}
}

func copyFixture(t *testing.T, src string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "charter.md")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// section is the text from heading to the next "## " line.
func section(text []byte, heading string) string {
	s := string(text)
	i := strings.Index(s, heading+"\n")
	if i < 0 {
		return ""
	}
	rest := s[i+len(heading)+1:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

var updateInterviewGolden = os.Getenv("UPDATE_GOLDEN") != ""

// checkInterviewGolden compares a finished charter with its golden file,
// today's date (written by the CLI's clock) read as <TODAY>.
func checkInterviewGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	today := regexp.QuoteMeta(time.Now().UTC().Format("2006-01-02"))
	got = regexp.MustCompile(today+`(T\d\d:\d\d:\d\dZ)?`).ReplaceAll(got, []byte("<TODAY>"))
	path := filepath.Join("testdata", "interview", name)
	if updateInterviewGolden {
		os.WriteFile(path, got, 0o644)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
	}
}

// TestInterviewFinalizerFlow drives a skeleton charter's interview from a
// shell (issue 17): --contract finalizer --apply creates .rp1/context/
// charter.md from rp1's template, each --answer fills the first gap region
// and updates **Status**, the JSON keeps upstream's key order, and the
// finished charter passes check with no diagnostic at all.
func TestInterviewFinalizerFlow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ferrylog", ".rp1", "context", "charter.md")
	out, code := inProcess(t, path, "--contract", "finalizer", "--apply")
	if code != 0 || !strings.HasPrefix(out, `{"status":"draft","artifact":"`+path+`","gaps":["Vision",`) {
		t.Fatalf("create: exit %d\n%s", code, out)
	}
	created, _ := os.ReadFile(path)
	if !bytes.HasPrefix(created, []byte("# Project Charter: ferrylog\n\n**Created**: ")) || !bytes.Contains(created, []byte("### Won't\n- _TBD_\n")) {
		t.Fatalf("template:\n%s", created)
	}
	answers := []string{
		"Every crossing is logged once and read by everyone who needs it.",
		"Crossing logs are written on paper and retyped the next morning. Errors surface days later.",
		"Deck officers at sea and harbour clerks ashore. They log about forty crossings a day.",
		"One entry at sea replaces the paper log. Clerks stop retyping.",
		"- Offline logging on a tablet\n  - sync when back in range\n- PDF export for inspectors",
		"Replace the harbour system. Track crew pay.",
		"No log is retyped a month after launch. Inspectors get answers the same day.",
	}
	for i, a := range answers {
		// The skeleton charter is recognised: no --contract needed.
		out, code = inProcess(t, path, "--answer", a)
		if code != 0 {
			t.Fatalf("answer %d: exit %d\n%s", i+1, code, out)
		}
		var r rp1.FinalizerResponse
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Gaps) != len(answers)-i-1 {
			t.Fatalf("answer %d: gaps %v", i+1, r.Gaps)
		}
		if ds := rp1.CheckFinalizerAnswer([]byte(out), r); len(ds) != 0 {
			t.Fatalf("our own answer breaks the contract: %s", ds[0].Message)
		}
	}
	if out != `{"status":"complete","artifact":"`+path+`","gaps":[],"warnings":[]}`+"\n" {
		t.Errorf("final answer: %s", out)
	}
	final, _ := os.ReadFile(path)
	for _, want := range []string{"**Status**: Complete", "### Will\n- Offline logging on a tablet\n  - sync when back in range\n- PDF export for inspectors\n", "### Won't\n- Replace the harbour system.\n- Track crew pay.\n"} {
		if !bytes.Contains(final, []byte(want)) {
			t.Errorf("finished charter lacks %q:\n%s", want, final)
		}
	}
	if ds, code := checkJSON(t, filepath.Dir(path), "charter.md"); len(ds) != 0 || code != 0 {
		t.Errorf("check on the finished skeleton: %v", found(ds))
	}
	// The stateless contract refuses a skeleton charter rather than write a
	// scratch pad rp1 would ignore.
	out, code = inProcess(t, path, "--contract", "stateless", "--apply")
	if code != 1 || !strings.Contains(out, "skeleton format") {
		t.Errorf("stateless on a skeleton: exit %d\n%s", code, out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, final) {
		t.Errorf("the refusal changed the file")
	}
}

// TestInterviewFinalizerStatusAndChecks: --apply corrects a status that
// disagrees with the gaps and nothing else; --check-answer reports what a
// finalizer got wrong (finalizer-json) and exits 1, and accepts a right
// answer; --answer on a scratch-pad charter and unknown contracts are usage
// errors.
func TestInterviewFinalizerStatusAndChecks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "charter.md")
	skeleton := "# Project Charter: x\n\n**Created**: 2026-07-20\n**Status**: Complete\n\n## Vision\n_TBD_\n\n## Problem & Context\nA. B.\n\n## Target Users\nC.\n\n## Business Rationale\nD.\n\n## Scope Guardrails\n\n### Will\n- e\n\n### Won't\n- f\n\n## Success Criteria\nG.\n"
	os.WriteFile(path, []byte(skeleton), 0o644)
	out, code := inProcess(t, path, "--apply")
	if code != 0 || !strings.HasPrefix(out, `{"status":"draft",`) || !strings.Contains(out, `"gaps":["Vision"]`) {
		t.Fatalf("exit %d: %s", code, out)
	}
	got, _ := os.ReadFile(path)
	if want := strings.Replace(skeleton, "**Status**: Complete", "**Status**: Draft", 1); string(got) != want {
		t.Errorf("--apply changed more than the status:\n%s", got)
	}

	bad := filepath.Join(dir, "answer.json")
	os.WriteFile(bad, []byte("```json\n{\"status\":\"complete\",\"artifact\":\""+path+"\",\"gaps\":[],\"warnings\":[]}\n```\n"), 0o644)
	out, code = inProcess(t, path, "--check-answer", bad)
	if code != 1 || !strings.Contains(out, "error finalizer-json The answer starts with a code fence") {
		t.Errorf("fenced answer: exit %d\n%s", code, out)
	}
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"status":"draft","artifact":"`+path+`","gaps":["Vision"],"warnings":["status was Complete"]}`), 0o644)
	if out, code = inProcess(t, path, "--check-answer", good); code != 0 || out != "" {
		t.Errorf("right answer: exit %d\n%s", code, out)
	}

	pad := filepath.Join(dir, "pad", "charter.md")
	os.MkdirAll(filepath.Dir(pad), 0o755)
	os.WriteFile(pad, []byte("# Project Charter: y\n\n**Version**: 1.0.0\n\n## Problem & Context\nA. B.\n"), 0o644)
	for _, args := range [][]string{
		{pad, "--contract", "finalizer", "--answer", "text"},
		{pad, "--answer", "text"},
		{path, "--contract", "legacy"},
	} {
		if _, code := inProcess(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// A scratch pad holding answers: rewriting it as a skeleton would lose
	// them, so the finalizer answers error.
	os.WriteFile(pad, []byte("# Project Charter: y\n\n## Vision\n_TBD_\n\n## Scratch Pad\n\n### Q1: Target Users\n**Asked**: Who?\n**Answer**: Clerks. Officers.\n\n<!-- End scratch pad -->\n"), 0o644)
	out, code = inProcess(t, pad, "--contract", "finalizer")
	if code != 1 || !strings.HasPrefix(out, `{"status":"error",`) || !strings.Contains(out, "migrate") {
		t.Errorf("legacy pad: exit %d\n%s", code, out)
	}
}

// A pi-charter charter has no interview: charter-lsp interview refuses it
// with a message that says what it is and what to run instead, whatever
// the contract or flags, and writes nothing.
func TestInterviewRefusesPiCharterFiles(t *testing.T) {
	project := t.TempDir()
	charter := filepath.Join(project, ".charters", "20260702-101500-offline-sync", "charter.md")
	os.MkdirAll(filepath.Dir(charter), 0o755)
	src := []byte("# Objective\n\nShip offline sync.\n\n## Scope\n\nNotes only.\n")
	os.WriteFile(charter, src, 0o644)
	for _, args := range [][]string{{charter}, {charter, "--apply"}, {charter, "--contract", "finalizer", "--apply"}, {charter, "--contract", "finalizer", "--answer", "x"}} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"interview"}, args...), nil, &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), "is a pi-charter charter (.charters/<id>/charter.md, ADR-0014 on), not an rp1 charter") ||
			!strings.Contains(errOut.String(), "charter-lsp status") || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args[1:], code, out.String(), errOut.String())
		}
	}
	if b, _ := os.ReadFile(charter); !bytes.Equal(b, src) {
		t.Errorf("the charter was changed:\n%s", b)
	}
	// A charter.md elsewhere is still interviewed.
	other := filepath.Join(project, "charter.md")
	os.WriteFile(other, []byte("# Project Charter: X\n\n## Problem & Context\n\nA. B.\n"), 0o644)
	var out, errOut bytes.Buffer
	if code := run([]string{"interview", other}, nil, &out, &errOut); code != 0 {
		t.Errorf("an rp1 charter: exit %d %s", code, errOut.String())
	}
}

// TestAppliedSaysTheStatusWritten: finishing with the budget spent and a
// gap left writes **Status**: Draft; the note on stderr said "status
// Complete" whatever the file held.
func TestAppliedSaysTheStatusWritten(t *testing.T) {
	r := interview.Response{Type: interview.TypeSuccess,
		Metadata: interview.Metadata{GapsRemaining: []rp1.SectionID{"scope"}}}
	got := applied(r, []byte("# Project Charter: x\n\n**Status**: Draft\n\n## Scope Guardrails\n\n_TBD_\n"))
	if !strings.Contains(got, "status Draft (gaps left: scope)") {
		t.Errorf("applied = %q", got)
	}
	r.Metadata.GapsRemaining = nil
	got = applied(r, []byte("# Project Charter: x\n\n**Status**: Complete\n"))
	if !strings.HasSuffix(got, "status Complete") {
		t.Errorf("applied = %q", got)
	}
}

// TestInterviewFinalizerVisionVerdict: `check` and `interview --contract
// finalizer` give one verdict on a charter without "## Vision". Read as a
// skeleton charter, both report the Vision gap — also the corpus's
// Fieldflash (front matter, **Version**, ### Will / ### Won't), whose
// regions make it a skeleton despite its **Version** line; read as a
// scratch-pad charter (the real rp1 charter of testdata/fixtures), check
// reports nothing and the finalizer answers error (migrate first) instead
// of a Vision gap, and --apply writes nothing.
func TestInterviewFinalizerVisionVerdict(t *testing.T) {
	fieldflash, err := os.ReadFile("../../analysis/rp1/testdata/corpus/front-matter-will-wont.md")
	if err != nil {
		t.Fatal(err)
	}
	skeleton, err := os.ReadFile("../../analysis/rp1/testdata/skeleton-no-vision.md")
	if err != nil {
		t.Fatal(err)
	}
	scratchPadEra, err := os.ReadFile("../../testdata/fixtures/rp1-real/charter.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		text []byte
		gap  bool
	}{{"skeleton", skeleton, true}, {"skeleton with a Version line", fieldflash, true}, {"scratch-pad generation", scratchPadEra, false}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p", ".rp1", "context", "charter.md")
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, c.text, 0o644)
			ds, _ := checkJSON(t, filepath.Dir(path), "charter.md")
			checkSays := false
			for _, d := range ds {
				checkSays = checkSays || strings.Contains(d.Message, "Vision")
			}
			out, code := inProcess(t, path, "--contract", "finalizer", "--apply")
			var r rp1.FinalizerResponse
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("exit %d: %s", code, out)
			}
			finSays := slices.Contains(r.Gaps, "Vision")
			if checkSays != c.gap || finSays != c.gap {
				t.Errorf("Vision gap: check %v, finalizer %v (%s); want both %v", checkSays, finSays, out, c.gap)
			}
			if !c.gap && (code != 1 || r.Status != rp1.FinalizerError || !strings.Contains(out, "migrate")) {
				t.Errorf("scratch-pad charter: exit %d %s", code, out)
			}
			if after, _ := os.ReadFile(path); !c.gap && !bytes.Equal(after, c.text) {
				t.Errorf("--apply changed a scratch-pad charter:\n%s", after)
			}
		})
	}
}
