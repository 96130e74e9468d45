package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/interview"
	"github.com/charter-lsp/charter-lsp/interview/agent/agenttest"
	"github.com/charter-lsp/charter-lsp/interview/interviewtest"
)

// The built-in agent (agenttest.Builtin) is removed once the tests are done.
func TestMain(m *testing.M) { agenttest.Main(m) }

var testNow = time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)

// Every whole interview of the engine's scripts, played with the built-in
// engine behind the agent's contract (a separate program, given a copy of
// the charter and the mode, answering one JSON object): each action the
// caller carries out is the script's, and the finished charter and what
// check says of it are the ones the engine writes by itself. The agent's
// question, skip and finished charter go through the engine's writers.
func TestScriptsThroughTheAgentContract(t *testing.T) {
	bin := agenttest.Builtin(t, "")
	files, err := filepath.Glob("../testdata/interviews/*.txtar")
	if err != nil || len(files) < 9 {
		t.Fatalf("want the interview scripts, found %d (%v)", len(files), err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			s, err := interviewtest.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			iv := &Interviewer{Config: Config{Command: bin}}
			text, exists := s.Start, s.Exists
			opts := interview.Options{Now: testNow, Path: filepath.Join(t.TempDir(), filepath.FromSlash(s.Path))}
			k := 0
			for k < len(s.Steps) {
				st, err := iv.Advance(context.Background(), text, exists, opts)
				if err != nil {
					t.Fatal(err)
				}
				if iv.Failed != nil {
					t.Fatalf("step %d: %s", k+1, iv.Fallback())
				}
				if len(st.Applied) == 0 {
					t.Fatalf("step %d: nothing carried out (%s: %s)", k+1, st.Response.Type, st.Response.Message)
				}
				for _, r := range st.Applied {
					b, _ := json.Marshal(r)
					if msg := s.Steps[k].Matches(interviewtest.FromEngine(r, b)); msg != "" {
						t.Fatalf("step %d: %s", k+1, msg)
					}
					k++
				}
				text, exists = st.Text, true
				last := st.Applied[len(st.Applied)-1]
				if last.Type == interview.TypeSuccess {
					break
				}
				if text, err = s.Steps[k-1].React(text); err != nil {
					t.Fatalf("step %d: %v", k, err)
				}
			}
			if k != len(s.Steps) {
				t.Fatalf("carried out %d of the script's %d steps", k, len(s.Steps))
			}
			var codes []string
			for _, d := range rp1.Check(rp1.Parse(text), rp1.Options{RP1Style: true}) {
				codes = append(codes, d.Code.String())
			}
			slices.Sort(codes)
			finished := interviewtest.Normalize(text, testNow.Format("2006-01-02"))
			for _, p := range s.Verify(finished, codes) {
				t.Error(p)
			}
			if iv.Calls < len(s.Steps) {
				t.Errorf("the agent was called %d times for %d steps", iv.Calls, len(s.Steps))
			}
		})
	}
}

// What the agent is given: the seed's $1 (a copy of the charter as the
// caller holds it) and $2 (the mode), RP1_ROOT, a private working folder
// that is not the project, and a clean environment: the user's basics and
// what CHARTER_LSP_AGENT_ENV names, nothing else, never the agent setting
// itself.
func TestTheAgentsInputs(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen")
	bin := agenttest.Script(t, fmt.Sprintf(`{ echo "path=$1"; echo "mode=$2"; echo "cwd=$(pwd)"; echo "text=$(cat "$1")"; env | sort; } > %q
echo '{"type":"error","message":"done"}'`, seen))
	t.Setenv("HOME", "/home/someone")
	t.Setenv("SECRET_TOKEN", "leak")
	t.Setenv("MY_API_KEY", "passed")
	t.Setenv(EnvCommand, "recursion")
	project := filepath.Join(dir, "proj")
	path := filepath.Join(project, ".rp1", "context", "charter.md")
	iv := &Interviewer{Config: Config{Command: bin, Pass: []string{"MY_API_KEY"}}}
	text := []byte("# Project Charter: X\n\n## Problem & Context\n\nunsaved words\n")
	r, err := iv.Next(context.Background(), text, true, interview.Options{Path: path})
	if err != nil || iv.Failed != nil {
		t.Fatalf("err %v, failed %v", err, iv.Failed)
	}
	if r.Type != interview.TypeError || r.Message != "done" {
		t.Fatalf("response %+v", r)
	}
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"mode=UPDATE\n", "text=# Project Charter: X", "unsaved words", "RP1_ROOT=" + filepath.Join(project, ".rp1") + "\n",
		"HOME=/home/someone\n", "MY_API_KEY=passed\n", "NO_COLOR=1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the agent did not get %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"SECRET_TOKEN", EnvCommand, "cwd=" + project, "path=" + path} {
		if strings.Contains(got, not) {
			t.Errorf("the agent got %q:\n%s", not, got)
		}
	}
	if !strings.Contains(got, "path="+os.TempDir()) && !strings.Contains(got, "path=/") {
		t.Errorf("no charter path:\n%s", got)
	}
	// The copy and its folder are gone once the call is over.
	line := got[strings.Index(got, "path=")+5:]
	copyPath := line[:strings.IndexByte(line, '\n')]
	if _, err := os.Stat(filepath.Dir(copyPath)); !os.IsNotExist(err) {
		t.Errorf("the charter's copy %s was left behind (%v)", copyPath, err)
	}
}

// Each way an agent can fail or answer outside the contract: the built-in
// engine answers instead, and the message says what the agent did.
func TestAnswersOutsideTheContract(t *testing.T) {
	cases := []struct {
		name, script string
		kind         string
		says         string
	}{
		{"invalid JSON", `echo '{"type": "next_question", "next_question":'`, KindNotJSON, "not valid JSON"},
		{"not JSON at all", `echo 'I could not read the charter.'`, KindNotJSON, `did not print a JSON object: "I could not read the charter."`},
		{"nothing", `true`, KindEmpty, "printed nothing on stdout"},
		{"wrong type", `echo '{"type":"next_question","next_question":42}'`, KindContract, "at /next_question"},
		{"unknown type", `echo '{"type":"question","next_question":"Why?"}'`, KindContract, "at /type"},
		{"question without its text", `echo '{"type":"next_question"}'`, KindContract, "next_question"},
		{"success without content", `echo '{"type":"success","message":"done"}'`, KindContract, "charter_content"},
		{"extra key", `echo '{"type":"skip","message":"covered","thinking":"hmm"}'`, KindContract, "thinking"},
		{"unknown gap", `echo '{"type":"skip","message":"covered","metadata":{"gaps_remaining":["vision"]}}'`, KindContract, "/metadata/gaps_remaining/0"},
		{"NUL in the content", `printf '%s\n' '{"type":"success","charter_content":{"problem":"a\u0000b"}}'`, KindContract, "/charter_content/problem"},
		{"prose before", "echo 'Here is the next action:'\necho '{\"type\":\"skip\",\"message\":\"covered\"}'", KindProse, `text before its JSON answer ("Here is the next action:")`},
		{"prose after", "echo '{\"type\":\"skip\",\"message\":\"covered\"}'\necho 'Let me know!'", KindProse, `text after its JSON answer ("Let me know!")`},
		{"a markdown fence", "echo '```json'\necho '{\"type\":\"skip\",\"message\":\"covered\"}'\necho '```'", KindProse, "text before its JSON answer"},
		{"two objects", "echo '{\"type\":\"skip\",\"message\":\"a\"}'\necho '{\"type\":\"skip\",\"message\":\"b\"}'", KindProse, "text after its JSON answer"},
		{"exit status", "echo 'no API key set' >&2\nexit 3", KindExit, "exited with status 3; it said: no API key set"},
		{"escapes on stderr", "printf 'bad \\033]0;pwned\\007key\\n' >&2\nexit 1", KindExit, "it said: bad  ]0;pwned key;"},
		{"huge output", "while :; do echo 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; done", KindTooLarge, "printed more than 1024 KiB and was stopped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			iv := &Interviewer{Config: Config{Command: agenttest.Script(t, c.script), Timeout: 20 * time.Second}}
			r, err := iv.Next(context.Background(), nil, false, interview.Options{Path: filepath.Join(t.TempDir(), "charter.md")})
			if err != nil {
				t.Fatal(err)
			}
			if iv.Failed == nil {
				t.Fatalf("the answer was taken: %+v", r)
			}
			if iv.Failed.Kind != c.kind || !strings.Contains(iv.Fallback(), c.says) {
				t.Errorf("kind %s, message %q; want %s, saying %q", iv.Failed.Kind, iv.Fallback(), c.kind, c.says)
			}
			if !strings.HasPrefix(iv.Fallback(), "The interview agent (fake-agent) ") || !strings.HasSuffix(iv.Fallback(), "the built-in interviewer answered instead.") {
				t.Errorf("message %q", iv.Fallback())
			}
			// The built-in engine's answer: the Brain Dump of a new charter.
			if r.Type != interview.TypeNextQuestion || r.Topic != interview.BrainDumpTopic {
				t.Errorf("fallback response %+v", r)
			}
			// Once failed, the step asks the agent nothing more.
			calls := iv.Calls
			iv.Next(context.Background(), nil, false, interview.Options{})
			if iv.Calls != calls {
				t.Error("the agent was called again after failing")
			}
		})
	}
}

// A command that is not there, or does not split into words.
func TestAgentThatCannotStart(t *testing.T) {
	for cmd, says := range map[string]string{
		filepath.Join(t.TempDir(), "no-such-agent"): "could not be started",
		`my-agent "unclosed`:                        "does not split into words",
	} {
		iv := &Interviewer{Config: Config{Command: cmd}}
		if _, err := iv.Next(context.Background(), nil, false, interview.Options{}); err != nil {
			t.Fatal(err)
		}
		if iv.Failed == nil || !strings.Contains(iv.Fallback(), says) {
			t.Errorf("%s: %q, want it to say %q", cmd, iv.Fallback(), says)
		}
	}
}

// A hung agent is stopped at its timeout, its whole process group with
// it (a child it started too): nothing is left running.
func TestHungAgentIsKilledAtItsTimeout(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	bin := agenttest.Script(t, fmt.Sprintf("echo $$ > %q\nsleep 300 &\nsleep 300", pidFile))
	iv := &Interviewer{Config: Config{Command: bin, Timeout: 500 * time.Millisecond}}
	start := time.Now()
	r, err := iv.Next(context.Background(), nil, false, interview.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s to give up on a 500ms timeout", took)
	}
	if iv.Failed == nil || iv.Failed.Kind != KindTimeout || !strings.Contains(iv.Fallback(), "did not answer within 500ms and was stopped") {
		t.Fatalf("failure %v", iv.Failed)
	}
	if r.Type != interview.TypeNextQuestion {
		t.Errorf("no fallback question: %+v", r)
	}
	agenttest.WaitGroupGone(t, agenttest.WaitPid(t, pidFile))
}

// Cancelling the step (the user pressed cancel) stops the agent and its
// group at once; the step ends with the context's error, not a fallback.
func TestCancelledAgentIsKilled(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	bin := agenttest.Script(t, fmt.Sprintf("echo $$ > %q\nsleep 300 &\nwait", pidFile))
	iv := &Interviewer{Config: Config{Command: bin, Timeout: time.Minute}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := iv.Advance(ctx, nil, false, interview.Options{})
		done <- err
	}()
	pid := agenttest.WaitPid(t, pidFile)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the step did not end after the cancel")
	}
	if iv.Failed != nil {
		t.Errorf("a cancel is not a failure to fall back from: %v", iv.Failed)
	}
	agenttest.WaitGroupGone(t, pid)
}

// An agent that starts something in the background and answers: the
// answer is taken, and what it left behind is ended with its group.
func TestBackgroundChildIsEndedAfterTheAnswer(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	bin := agenttest.Script(t, fmt.Sprintf(`echo $$ > %q
sleep 300 >/dev/null 2>&1 &
echo '{"type":"error","message":"done"}'`, pidFile))
	iv := &Interviewer{Config: Config{Command: bin}}
	r, err := iv.Next(context.Background(), nil, false, interview.Options{})
	if err != nil || iv.Failed != nil || r.Message != "done" {
		t.Fatalf("%v %v %+v", err, iv.Failed, r)
	}
	agenttest.WaitGroupGone(t, agenttest.WaitPid(t, pidFile))
}

// A slow agent that answers in time: progress says it started, that it
// is still waiting, and that it ended.
func TestSlowAgentReportsProgress(t *testing.T) {
	old := tick
	tick = 50 * time.Millisecond
	t.Cleanup(func() { tick = old })
	bin := agenttest.Script(t, `sleep 0.4
echo '{"type":"next_question","next_question":"What are you building?","metadata":{"gaps_remaining":["problem","users"]}}'`)
	var mu sync.Mutex
	var phases []Phase
	iv := &Interviewer{Config: Config{Command: bin, Timeout: 20 * time.Second}, Progress: func(p Phase, elapsed, timeout time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		phases = append(phases, p)
		if timeout != 20*time.Second {
			t.Errorf("timeout %s", timeout)
		}
	}}
	st, err := iv.Advance(context.Background(), nil, false, interview.Options{Now: testNow})
	if err != nil || iv.Failed != nil {
		t.Fatalf("%v: %s", err, iv.Fallback())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(phases) < 3 || phases[0] != Started || phases[len(phases)-1] != Ended || !slices.Contains(phases, Waiting) {
		t.Errorf("progress %v, want started, waiting…, ended", phases)
	}
	// The agent's question, written as the engine writes one: the Brain
	// Dump of a new charter (its first question), in a new scratch pad.
	if got := string(st.Text); !strings.Contains(got, "### Q1: Brain Dump\n**Asked**: What are you building?\n**Answer**: ") || !strings.Contains(got, "<!-- Mode: CREATE -->") {
		t.Errorf("the question was not written as the engine writes one:\n%s", got)
	}
}

// The agent's skip is recorded under the section its reason names, and
// the agent is asked again on the text with the skip in it.
func TestAgentSkipThenQuestion(t *testing.T) {
	dir := t.TempDir()
	bin := agenttest.Script(t, fmt.Sprintf(`if grep -q Skipped "$1"; then
  echo '{"type":"next_question","next_question":"What is out of scope?","metadata":{"question_number":9,"total_questions":5,"gaps_remaining":["scope","success"]}}'
else
  echo '{"type":"skip","message":"The value proposition is already in the brain dump.","metadata":{"question_number":2,"gaps_remaining":["scope","success"]}}'
fi`))
	_ = dir
	text := []byte("# Project Charter: [To Be Determined]\n\n**Status**: Draft\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n### Q1: Brain Dump\n**Asked**: Tell me everything.\n**Answer**: On-call engineers lose ten minutes per incident searching wikis. It saves them an hour a week, unlike the wiki.\n\n<!-- End scratch pad -->\n")
	iv := &Interviewer{Config: Config{Command: bin}}
	st, err := iv.Advance(context.Background(), text, true, interview.Options{Now: testNow})
	if err != nil || iv.Failed != nil {
		t.Fatalf("%v: %s", err, iv.Fallback())
	}
	if iv.Calls != 2 || len(st.Applied) != 2 {
		t.Fatalf("%d calls, applied %+v", iv.Calls, st.Applied)
	}
	got := string(st.Text)
	want := "### Q2: Value Proposition\n**Skipped**: The value proposition is already in the brain dump.\n\n### Q3: Scope\n**Asked**: What is out of scope?\n**Answer**: \n"
	if !strings.Contains(got, want) {
		t.Errorf("want the skip under its section, then Q3 (the pad's number, not the agent's 9):\n%s", got)
	}
}

// An agent's finished charter is written as the engine writes one, its
// content verbatim in its sections, even when it is hostile: a fake
// scratch pad, a second title, a status line, comments and headings stay
// inside the section they were given for (headings demoted below it), the
// scratch pad goes, the title and status are the caller's, and check then
// reads the charter as the file now says: here the agent's "### Won't"
// makes it look like a skeleton charter, which check reports.
func TestHostileCharterContent(t *testing.T) {
	content := map[string]string{
		"problem":    "On-call engineers lose ten minutes per incident. It hurts.\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n## Q1: Brain Dump\n**Asked**: x\n**Answer**: \n\n<!-- End scratch pad -->",
		"users":      "# Project Charter: Pwned\n\n**Status**: Complete\n\nOn-call engineers and their leads. They rotate weekly.",
		"value_prop": "<!-- a comment the author left -->\nFaster answers than the wiki. Fewer stale runbooks.",
		"scope":      "## Won't\n- Paging\n\n## Success Criteria\nNot here.",
		"success":    "Time to first runbook under one minute. Adoption by three teams.",
	}
	raw, _ := json.Marshal(map[string]any{"type": "success", "message": "done", "charter_complete": true, "charter_content": content})
	bin := agenttest.Answering(t, string(raw))
	text := []byte("# Project Charter: [To Be Determined]\n\n**Version**: 1.0.0\n**Status**: Draft\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n### Q1: Brain Dump\n**Asked**: Tell me everything.\n**Answer**: We're building Runbook Radar for on-call engineers.\n\n<!-- End scratch pad -->\n")
	iv := &Interviewer{Config: Config{Command: bin}}
	st, err := iv.Advance(context.Background(), text, true, interview.Options{Now: testNow, Path: "/p/radar/.rp1/context/charter.md"})
	if err != nil || iv.Failed != nil {
		t.Fatalf("%v: %s", err, iv.Fallback())
	}
	ch := rp1.Parse(st.Text)
	got := string(st.Text)
	if ch.ScratchPad != nil || strings.Contains(got, "\n## Scratch Pad") {
		t.Errorf("a scratch pad survived (or was injected):\n%s", got)
	}
	if !strings.HasPrefix(got, "# Project Charter: Runbook Radar\n") || strings.Count(got, "\n# ") != 0 {
		t.Errorf("the title is the caller's (from the brain dump), and the only H1:\n%s", got)
	}
	for _, want := range []string{"### Scratch Pad", "### Q1: Brain Dump", "### Project Charter: Pwned", "<!-- a comment the author left -->", "### Won't\n- Paging", "### Success Criteria\nNot here."} {
		if !strings.Contains(got, want) {
			t.Errorf("%q not written verbatim (demoted) in its section:\n%s", want, got)
		}
	}
	for _, id := range rp1.Priority {
		if strings.Count(got, "\n## "+rp1.CanonicalHeading[id]+"\n") != 1 {
			t.Errorf("want one %q heading:\n%s", rp1.CanonicalHeading[id], got)
		}
	}
	// The status is what the text calls for, as check reads it; check
	// says what the agent's content did to the charter.
	if f := ch.Header("Status"); f == nil || f.Value != ch.ExpectedStatus() {
		t.Errorf("status %v, the text calls for %s", f, ch.ExpectedStatus())
	}
	var codes []string
	for _, d := range rp1.Check(ch, rp1.Options{RP1Style: true}) {
		codes = append(codes, d.Code.String())
	}
	if !slices.Contains(codes, "generation-conflict") || slices.Contains(codes, "status-mismatch") {
		t.Errorf("check on the finished charter: %v", codes)
	}
}

// The finalizer contract for a skeleton charter: a faithful answer is
// taken (its artifact the real path); one that disagrees with the charter
// or breaks the key order is refused and the built-in finalizer answers.
func TestFinalizer(t *testing.T) {
	text := []byte("# Project Charter: relay\n**Created**: 2026-07-20\n**Status**: Complete\n## Vision\nPredictable setup.\n## Problem & Context\nAnswers get lost.\n## Target Users\nDevelopers.\n## Business Rationale\nRecovery.\n## Scope Guardrails\n### Will\n- Keep questions\n### Won't\n- Add state\n## Success Criteria\nOne topology.\n")
	path := "/p/relay/.rp1/context/charter.md"
	faithful := agenttest.Script(t, `printf '{"status":"complete","artifact":"%s","gaps":[],"warnings":[]}\n' "$1"`)
	iv := &Interviewer{Config: Config{Command: faithful}}
	r, err := iv.Finalize(context.Background(), text, path)
	if err != nil || iv.Failed != nil {
		t.Fatalf("%v: %s", err, iv.Fallback())
	}
	if r.Status != "complete" || r.Artifact != path {
		t.Errorf("answer %+v", r)
	}
	for name, c := range map[string]struct{ script, says string }{
		"disagrees":              {`printf '{"status":"draft","artifact":"%s","gaps":["Vision"],"warnings":[]}\n' "$1"`, "answered what the charter does not say"},
		"key order":              {`printf '{"artifact":"%s","status":"complete","gaps":[],"warnings":[]}\n' "$1"`, "answered what the charter does not say"},
		"not a finalizer answer": {`echo '{"type":"success","charter_content":{}}'`, "outside the FinalizerResponse contract"},
	} {
		iv := &Interviewer{Config: Config{Command: agenttest.Script(t, c.script)}}
		r, err := iv.Finalize(context.Background(), text, path)
		if err != nil {
			t.Fatal(err)
		}
		if iv.Failed == nil || !strings.Contains(iv.Fallback(), c.says) {
			t.Errorf("%s: %q, want it to say %q", name, iv.Fallback(), c.says)
		}
		if r.Status != "complete" || r.Artifact != path {
			t.Errorf("%s: the built-in finalizer's answer, got %+v", name, r)
		}
	}
}

// The schema is valid, and the engine's own responses satisfy it: the
// built-in engine keeps the contract it holds agents to.
func TestSchemaAcceptsTheEngine(t *testing.T) {
	for _, c := range []Contract{Stateless, Finalizer} {
		if _, err := schemaFor(c); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	files, _ := filepath.Glob("../testdata/interviews/*.txtar")
	n := 0
	for _, file := range files {
		s, err := interviewtest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		text, exists := s.Start, s.Exists
		for range 8 {
			r := interview.Next(text, exists, interview.Options{Now: testNow})
			b, _ := json.Marshal(r)
			var back interview.Response
			if err := decode(b, Stateless, &back); err != nil {
				t.Fatalf("%s: the engine's %s breaks the schema: %v\n%s", file, r.Type, err, b)
			}
			n++
			if r.Type != interview.TypeNextQuestion && r.Type != interview.TypeSkip {
				break
			}
			p, _ := interview.PlanFor(text, r, testNow)
			text, exists = interview.Apply(text, p.Edits), true
			if r.Type == interview.TypeNextQuestion {
				if q, err := interview.AnswerPending(text, 0, "Engineers lose time. Scope is the CLI. Success is adoption."); err == nil {
					text = interview.Apply(text, q.Edits)
				}
			}
		}
	}
	var fin interface{} = rp1.Finalize(rp1.Parse(nil), "/p/charter.md")
	b, _ := json.Marshal(fin)
	var back rp1.FinalizerResponse
	if err := decode(b, Finalizer, &back); err != nil {
		t.Errorf("the built-in finalizer breaks the schema: %v", err)
	}
	if n < 20 {
		t.Errorf("checked only %d responses", n)
	}
}

func TestConfig(t *testing.T) {
	c, err := FromEnv(func(k string) string {
		return map[string]string{EnvCommand: `  my-agent --model "big one" `, EnvTimeout: "90", EnvPass: "A_KEY, B_KEY"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	argv, err := c.Argv()
	if err != nil || !slices.Equal(argv, []string{"my-agent", "--model", "big one"}) || c.Timeout != 90*time.Second || !slices.Equal(c.Pass, []string{"A_KEY", "B_KEY"}) || c.Name() != "my-agent" {
		t.Errorf("%+v %q %v", c, argv, err)
	}
	for _, bad := range []string{"0", "2h", "soon", "500ms"} {
		if _, err := ParseTimeout(bad); err == nil {
			t.Errorf("timeout %q accepted", bad)
		}
	}
	if d, err := ParseTimeout("2m"); err != nil || d != 2*time.Minute {
		t.Errorf("2m: %v %v", d, err)
	}
	home, _ := os.UserHomeDir()
	if argv, _ := (Config{Command: "~/bin/agent --x"}).Argv(); argv[0] != filepath.Join(home, "bin", "agent") {
		t.Errorf("~/ is not the home folder: %q", argv)
	}
	if (Config{Command: "  "}).Enabled() {
		t.Error("a blank command is an agent")
	}
}
