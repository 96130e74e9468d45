package lsp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/interview/agent"
	"github.com/charter-lsp/charter-lsp/interview/agent/agenttest"
	"github.com/charter-lsp/charter-lsp/interview/interviewtest"
	"github.com/charter-lsp/charter-lsp/lsp"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// The built-in agent (agenttest.Builtin) is removed once the tests are done.
func TestMain(m *testing.M) { agenttest.Main(m) }

// turnResult is charter.interview.turn's answer, as an editor reads it.
type turnResult struct {
	Done        bool         `json:"done"`
	Message     string       `json:"message"`
	Level       string       `json:"level"`
	Title       string       `json:"title"`
	Question    string       `json:"question"`
	Placeholder string       `json:"placeholder"`
	Answer      *turnCommand `json:"answer"`
	Buttons     []turnCommand
	Response    *struct {
		Type     string `json:"type"`
		Metadata struct {
			QuestionNumber int `json:"question_number"`
			TotalQuestions int `json:"total_questions"`
		} `json:"metadata"`
	} `json:"response"`
	Region *struct {
		Gaps   []string `json:"gaps"`
		Status string   `json:"status"`
	} `json:"region"`
}

type turnCommand struct {
	ID        string            `json:"id"`
	Label     string            `json:"label"`
	Tooltip   string            `json:"tooltip"`
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

// button is the turn's button with id.
func (r turnResult) button(t *testing.T, id string) turnCommand {
	t.Helper()
	for _, b := range r.Buttons {
		if b.ID == id {
			return b
		}
	}
	t.Fatalf("no %q button in %+v", id, r.Buttons)
	return turnCommand{}
}

func (r turnResult) has(id string) bool {
	for _, b := range r.Buttons {
		if b.ID == id {
			return true
		}
	}
	return false
}

// runTurn runs a turn's command as an editor does: answer, when set, goes
// into the first argument as "answer".
func runTurn(t *testing.T, c *lsptest.Client, cmd turnCommand, answer *string) (turnResult, error) {
	t.Helper()
	args := make([]protocol.LSPAny, len(cmd.Arguments))
	for i, a := range cmd.Arguments {
		args[i] = protocol.LSPAny(a)
	}
	if answer != nil {
		var obj map[string]any
		if err := json.Unmarshal(cmd.Arguments[0], &obj); err != nil {
			t.Fatal(err)
		}
		obj["answer"] = *answer
		raw, _ := json.Marshal(obj)
		args[0] = protocol.LSPAny(raw)
	}
	res, err := c.Server.ExecuteCommand(reqCtx(t), &protocol.ExecuteCommandParams{Command: cmd.Command, Arguments: args})
	if err != nil {
		return turnResult{}, err
	}
	var r turnResult
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatalf("%s: %v\n%s", cmd.Command, err, res)
	}
	return r, nil
}

// startTurn is the conversation's first call.
func startTurn(t *testing.T, c *lsptest.Client, u uri.URI) turnResult {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"uri": u})
	r, err := runTurn(t, c, turnCommand{Command: "charter.interview.turn", Arguments: []json.RawMessage{raw}}, nil)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return r
}

func mustTurn(t *testing.T, c *lsptest.Client, cmd turnCommand, answer *string) turnResult {
	t.Helper()
	r, err := runTurn(t, c, cmd, answer)
	if err != nil {
		t.Fatalf("%s %s: %v", cmd.Command, cmd.Arguments, err)
	}
	return r
}

func ptr(s string) *string { return &s }

// agentCaps is an editor that shows progress, as VS Code does.
func agentCaps() *protocol.ClientCapabilities {
	caps := editorCaps()
	yes := true
	caps.Window.WorkDoneProgress = &yes
	return caps
}

func saidMessage(c *lsptest.Client, parts ...string) string {
	for _, m := range c.Messages() {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(m.Message, p)
		}
		if ok {
			return m.Message
		}
	}
	return ""
}

// The interview as a conversation: the server gives each prompt's title
// ("Q1 of 5 · Brain Dump"), its question, the command that takes the
// answer and the buttons, and carries out what the user chose. Played
// with a whole interview's answers, the conversation ends with the charter
// the engine writes (the script's finished.md).
func TestInterviewConversation(t *testing.T) {
	s, err := interviewtest.Load("../interview/testdata/interviews/oncall-named.txtar")
	if err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, s.Path, "")
	r := startTurn(t, c, d.u)
	if r.Title != "Q1 of 5 · Brain Dump" || !strings.HasPrefix(r.Question, "Tell me everything about this project.") || r.Done {
		t.Fatalf("first prompt %+v", r)
	}
	if !r.has("skip") || r.has("finish") {
		t.Errorf("Q1's buttons %+v: skip, and no finish before the problem and users are covered", r.Buttons)
	}
	for i, st := range s.Steps {
		if st.Type == "success" {
			if !r.Done || r.Level != "info" || !strings.Contains(r.Message, "**Status**: Complete") || !strings.Contains(r.Message, `Titled "Runbook Radar"`) {
				t.Fatalf("the end: %+v", r)
			}
			break
		}
		want := fmt.Sprintf("Q%d of 5 · %s", st.Number, st.Topic)
		if r.Title != want || r.Response == nil || r.Response.Metadata.QuestionNumber != st.Number {
			t.Fatalf("step %d: prompt %q, want %q", i+1, r.Title, want)
		}
		if i > 0 && !r.has("finish") {
			t.Errorf("step %d: no finish button once the problem and users are covered", i+1)
		}
		r = mustTurn(t, c, *r.Answer, ptr(st.Answer))
	}
	got, _, _ := c.Text(d.u)
	if n := interviewtest.Normalize([]byte(got), time.Now().UTC().Format("2006-01-02")); n != s.Finished {
		t.Errorf("the conversation's charter:\n%s\nwant the engine's:\n%s", n, s.Finished)
	}
}

// Skip and Finish do what their tooltips say: the question is recorded as
// skipped and the next asked; finishing writes the sections and ends.
func TestConversationSkipAndFinish(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, "p/.rp1/context/charter.md", "")
	r := startTurn(t, c, d.u)
	r = mustTurn(t, c, *r.Answer, ptr("The problem: on-call engineers lose ten minutes per incident. The users are on-call engineers."))
	if r.Title != "Q2 of 5 · Value Proposition" {
		t.Fatalf("prompt %q", r.Title)
	}
	skip := r.button(t, "skip")
	if skip.Label != "Skip" || !strings.Contains(skip.Tooltip, "not asked again") {
		t.Errorf("skip button %+v", skip)
	}
	r = mustTurn(t, c, skip, nil)
	if r.Title != "Q3 of 5 · Scope" {
		t.Fatalf("after the skip: %q", r.Title)
	}
	text, _, _ := c.Text(d.u)
	if !strings.Contains(text, "### Q2: Value Proposition\n**Asked**: ") || !strings.Contains(text, "**Skipped**: Skipped by the user.") {
		t.Errorf("the skip is not in the scratch pad:\n%s", text)
	}
	// An answer meant for Q2 (an editor's stale prompt) is refused.
	stale := skip
	stale.Arguments = []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"uri":%q,"do":"answer","question":2}`, d.u))}
	if _, err := runTurn(t, c, stale, ptr("late")); err == nil || !strings.Contains(err.Error(), "Q2") {
		t.Errorf("a stale answer: %v", err)
	}
	r = mustTurn(t, c, r.button(t, "finish"), nil)
	if !r.Done || !strings.Contains(r.Message, "The charter is finished") {
		t.Fatalf("finish: %+v", r)
	}
	text, _, _ = c.Text(d.u)
	if ch := rp1.Parse([]byte(text)); ch.ScratchPad != nil || ch.Section(rp1.Problem) == nil {
		t.Errorf("finished charter:\n%s", text)
	}
	// Finished early, the charter keeps gaps: a new conversation is an
	// UPDATE interview about the first.
	if r := startTurn(t, c, d.u); r.Title != "Q1 of 5 · Problem & Context" {
		t.Errorf("after finishing early: %+v", r)
	}
	if text, _, _ := c.Text(d.u); !strings.Contains(text, "<!-- Mode: UPDATE -->") {
		t.Errorf("no UPDATE scratch pad:\n%s", text)
	}

	// A charter with every section written: nothing to ask, nothing written.
	complete := "# Project Charter: Radar\n\n**Status**: Complete\n\n"
	for _, id := range rp1.Priority {
		complete += "## " + rp1.CanonicalHeading[id] + "\n\nIt is written. It has two sentences.\n\n"
	}
	d2 := openDoc(t, c, "q/.rp1/context/charter.md", complete)
	edits := len(c.Edits())
	if r := startTurn(t, c, d2.u); !r.Done || !strings.Contains(r.Message, "nothing to ask") || len(c.Edits()) != edits {
		t.Errorf("a complete charter: %+v, %d edits", r, len(c.Edits())-edits)
	}
}

// The agent's whole path through the server: each prompt's question is
// the agent's (the title says so), progress is shown while it works, and
// the conversation ends with the charter the engine writes by itself.
func TestConversationThroughTheAgent(t *testing.T) {
	s, err := interviewtest.Load("../interview/testdata/interviews/oncall-named.txtar")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "calls")
	c := lsptest.Start(t, lsptest.Config{Capabilities: agentCaps(), ApplyToBuffers: true,
		Options:               lspOptions(agent.Config{Command: agenttest.Builtin(t, log), From: agent.EnvCommand}),
		InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, s.Path, "")
	r := startTurn(t, c, d.u)
	for _, st := range s.Steps {
		if st.Type == "success" {
			break
		}
		if want := fmt.Sprintf("Q%d of 5 · %s (asked by fake-agent)", st.Number, st.Topic); r.Title != want {
			t.Fatalf("prompt %q, want %q", r.Title, want)
		}
		r = mustTurn(t, c, *r.Answer, ptr(st.Answer))
	}
	if !r.Done || !strings.Contains(r.Message, "**Status**: Complete") {
		t.Fatalf("the end: %+v", r)
	}
	got, _, _ := c.Text(d.u)
	if n := interviewtest.Normalize([]byte(got), time.Now().UTC().Format("2006-01-02")); n != s.Finished {
		t.Errorf("the charter:\n%s\nwant the engine's:\n%s", n, s.Finished)
	}
	calls, _ := os.ReadFile(log)
	if modes := strings.Fields(string(calls)); len(modes) != 5 || modes[0] != "CREATE" || modes[1] != "RESUME" {
		t.Errorf("the agent's calls (their MODE): %q", modes)
	}
	var begins, ends int
	for _, p := range c.ProgressReports() {
		switch p.Kind {
		case "begin":
			begins++
			if p.Title != "Interview agent" || !strings.Contains(p.Message, "asking fake-agent") {
				t.Errorf("begin %+v", p)
			}
		case "end":
			ends++
		}
	}
	if begins != 5 || ends != 5 {
		t.Errorf("progress: %d begins, %d ends, want one each per step: %+v", begins, ends, c.ProgressReports())
	}
	if msg := saidMessage(c, "built-in interviewer answered"); msg != "" {
		t.Errorf("a fallback: %s", msg)
	}
}

// An agent that answers outside the contract, or runs past its time: the
// user is told what it did, and the built-in interviewer asks instead.
func TestAgentFailureFallsBack(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cases := map[string]struct {
		script  string
		timeout int
		says    string
	}{
		"prose":  {"echo 'Sure! Here is the JSON:'\necho '{\"type\":\"skip\",\"message\":\"x\"}'", 0, `printed text before its JSON answer ("Sure! Here is the JSON:")`},
		"hung":   {fmt.Sprintf("echo $$ > %q\nexec sleep 300", pidFile), 1, "did not answer within 1s and was stopped"},
		"status": {"echo 'no API key' >&2\nexit 2", 0, "exited with status 2; it said: no API key"},
	}
	for name, k := range cases {
		t.Run(name, func(t *testing.T) {
			init := map[string]any{"debounceMs": 0, "interviewAgent": agenttest.Script(t, k.script)}
			if k.timeout > 0 {
				init["interviewAgentTimeout"] = k.timeout
			}
			c := lsptest.Start(t, lsptest.Config{Capabilities: agentCaps(), ApplyToBuffers: true, InitializationOptions: init})
			d := openDoc(t, c, "p/.rp1/context/charter.md", "")
			r := startTurn(t, c, d.u)
			if r.Title != "Q1 of 5 · Brain Dump" {
				t.Errorf("the built-in's question: %q", r.Title)
			}
			msg := saidMessage(c, "The interview agent (fake-agent)", k.says, "the built-in interviewer answered instead")
			if msg == "" {
				t.Errorf("no message saying %q: %+v", k.says, c.Messages())
			}
			text, _, _ := c.Text(d.u)
			if !strings.Contains(text, "### Q1: Brain Dump") {
				t.Errorf("no question written:\n%s", text)
			}
			if name == "hung" {
				waitGone(t, pidFile)
			}
		})
	}
}

// Cancelling the progress in the editor stops the agent (its process
// group) and writes nothing.
func TestAgentCancelledFromTheEditor(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := lsptest.Start(t, lsptest.Config{Capabilities: agentCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{
		"debounceMs": 0, "interviewAgent": agenttest.Script(t, fmt.Sprintf("echo $$ > %q\nsleep 300 &\nwait", pidFile))}})
	d := openDoc(t, c, "p/.rp1/context/charter.md", "")
	done := make(chan error, 1)
	go func() {
		raw, _ := json.Marshal(map[string]any{"uri": d.u})
		_, err := runTurn(t, c, turnCommand{Command: "charter.interview.turn", Arguments: []json.RawMessage{raw}}, nil)
		done <- err
	}()
	var token string
	deadline := time.Now().Add(lsptest.Timeout)
	for token == "" {
		for _, p := range c.ProgressReports() {
			if p.Kind == "begin" {
				token = p.Token
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no progress began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	agenttest.WaitPid(t, pidFile)
	if err := c.Server.WorkDoneProgressCancel(reqCtx(t), &protocol.WorkDoneProgressCancelParams{Token: protocol.String(token)}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != protocol.CodeRequestCancelled {
			t.Errorf("err = %v, want RequestCancelled", err)
		}
	case <-time.After(lsptest.Timeout):
		t.Fatal("the turn did not end after the cancel")
	}
	if text, _, _ := c.Text(d.u); text != "" {
		t.Errorf("a cancelled step wrote:\n%s", text)
	}
	waitGone(t, pidFile)
}

// In an untrusted workspace the agent is not run, and the user is told
// why; the built-in interviewer asks.
func TestAgentRefusedInUntrustedWorkspace(t *testing.T) {
	cmd, marker := agenttest.Marker(t)
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true,
		InitializationOptions: map[string]any{"restricted": true, "interviewAgent": cmd, "debounceMs": 0},
		Settings:              map[string]any{"restricted": true}})
	d := openDoc(t, c, "p/.rp1/context/charter.md", "")
	r := startTurn(t, c, d.u)
	if r.Title != "Q1 of 5 · Brain Dump" {
		t.Errorf("prompt %q", r.Title)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the agent ran in an untrusted workspace")
	}
	if saidMessage(c, "interview agent (fake-agent) is not run in an untrusted workspace", "trust the workspace") == "" {
		t.Errorf("no message saying why: %+v", c.Messages())
	}
}

// The workspace's settings and the project file cannot name the agent:
// it is not run, and the user is told why (and where to name it).
func TestAgentNotTakenFromTheWorkspace(t *testing.T) {
	t.Run("workspace settings", func(t *testing.T) {
		cmd, marker := agenttest.Marker(t)
		c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true,
			InitializationOptions: map[string]any{"debounceMs": 0},
			Settings:              map[string]any{"interviewAgent": cmd}})
		d := openDoc(t, c, "p/.rp1/context/charter.md", "")
		if r := startTurn(t, c, d.u); r.Title != "Q1 of 5 · Brain Dump" {
			t.Errorf("prompt %q", r.Title)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Error("the agent named by the workspace settings ran")
		}
		if saidMessage(c, "interviewAgent in the workspace settings is ignored", "only your user settings name it") == "" {
			t.Errorf("no message saying why: %+v", c.Messages())
		}
	})
	t.Run("project file", func(t *testing.T) {
		cmd, marker := agenttest.Marker(t)
		c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0}})
		c.WriteFile(".charter-lsp.jsonc", fmt.Sprintf(`{"interviewAgent": %q, "questionBudget": 4}`, cmd))
		c.FilesChanged(protocol.FileChangeTypeCreated, ".charter-lsp.jsonc")
		d := openDoc(t, c, "p/.rp1/context/charter.md", "")
		if r := startTurn(t, c, d.u); r.Title != "Q1 of 4 · Brain Dump" {
			t.Errorf("prompt %q: the project file's other settings apply", r.Title)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Error("the agent named by the project file ran")
		}
		if saidMessage(c, "interviewAgent in .charter-lsp.jsonc is ignored", "never a project file") == "" {
			t.Errorf("no message saying why: %+v", c.Messages())
		}
		u := c.Open(".charter-lsp.jsonc", fmt.Sprintf(`{"interviewAgent": %q, "questionBudget": 4}`, cmd))
		p := c.WaitDiagnostics(u, 1)
		if len(p.Params.Diagnostics) != 1 || p.Params.Diagnostics[0].Severity != protocol.DiagnosticSeverityWarning ||
			!strings.Contains(fmt.Sprint(p.Params.Diagnostics[0].Message), "interviewAgent is ignored here") {
			t.Errorf("the project file's diagnostics: %+v", p.Params.Diagnostics)
		}
	})
}

// A skeleton charter's conversation: one region at a time in document
// order, Skip passes over one, and once no gap is left the agent
// finalizes the charter (rp1's finalizer contract), checked against it.
func TestSkeletonConversationWithFinalizer(t *testing.T) {
	fin := agenttest.Script(t, `printf '{"status":"complete","artifact":"%s","gaps":[],"warnings":["looks good"]}\n' "$1"`)
	c := lsptest.Start(t, lsptest.Config{Capabilities: agentCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0, "interviewAgent": fin}})
	text := "# Project Charter: ferrylog\n**Status**: Draft\n\n## Vision\n_TBD_\n\n## Problem & Context\nCrossings are logged on paper.\n\n## Target Users\n_TBD_\n\n" +
		"## Business Rationale\nOne entry at sea.\n\n## Scope Guardrails\n### Will\n- Offline logging\n### Won't\n- Payroll\n\n## Success Criteria\nNo log retyped.\n"
	d := openDoc(t, c, "ferry/.rp1/context/charter.md", text)
	r := startTurn(t, c, d.u)
	if r.Title != "Region 1 of 7 · Vision" || r.Region == nil || len(r.Region.Gaps) != 2 {
		t.Fatalf("first prompt %+v", r)
	}
	r = mustTurn(t, c, r.button(t, "skip"), nil)
	if r.Title != "Region 3 of 7 · Target Users" {
		t.Fatalf("after skipping Vision: %q", r.Title)
	}
	r = mustTurn(t, c, *r.Answer, ptr("Deck officers at sea."))
	if !r.Done || !strings.Contains(r.Message, "Left for later: Vision") {
		t.Fatalf("Vision passed over: %+v", r)
	}
	r = startTurn(t, c, d.u)
	r = mustTurn(t, c, *r.Answer, ptr("Every crossing logged once, at sea."))
	if !r.Done || !strings.Contains(r.Message, "**Status**: Complete") || !strings.Contains(r.Message, "The interview agent (fake-agent) finalized it: complete. Its warnings: looks good") {
		t.Fatalf("the end: %+v", r)
	}
	got, _, _ := c.Text(d.u)
	if !strings.Contains(got, "**Status**: Complete") || strings.Contains(got, "_TBD_") {
		t.Errorf("charter:\n%s", got)
	}
}

// lspOptions is the server's options with an agent (as charter-lsp serve
// sets it from CHARTER_LSP_AGENT).
func lspOptions(a agent.Config) lsp.Options {
	return lsp.Options{Agent: a}
}

// waitGone fails unless the agent whose pid is in file left no process.
func waitGone(t *testing.T, file string) {
	t.Helper()
	agenttest.WaitGroupGone(t, agenttest.WaitPid(t, file))
}

// The code action asks the agent too; its title says the agent decides
// (what comes next is not the built-in engine's to predict).
func TestCodeActionAsksTheAgent(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls")
	c := lsptest.Start(t, lsptest.Config{Capabilities: agentCaps(), ApplyToBuffers: true,
		InitializationOptions: map[string]any{"debounceMs": 0, "interviewAgent": agenttest.Builtin(t, log)}})
	d := openDoc(t, c, "p/.rp1/context/charter.md", "# Project Charter: [To Be Determined]\n\n**Status**: Draft\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n"+
		"### Q1: Brain Dump\n**Asked**: Tell me everything.\n**Answer**: The problem: on-call engineers lose ten minutes per incident. The users are on-call engineers.\n\n<!-- End scratch pad -->\n")
	a := d.action("Ask next interview question")
	if a.Title != "Ask next interview question (the interview agent, fake-agent, decides)" {
		t.Errorf("title %q", a.Title)
	}
	if _, err := c.Server.ExecuteCommand(reqCtx(t), &protocol.ExecuteCommandParams{Command: a.Command.Command, Arguments: a.Command.Arguments}); err != nil {
		t.Fatal(err)
	}
	text, _, _ := c.Text(d.u)
	if calls, _ := os.ReadFile(log); strings.TrimSpace(string(calls)) != "RESUME" || !strings.Contains(text, "### Q2: Value Proposition") {
		t.Errorf("calls %q, charter:\n%s", calls, text)
	}
}

// The conversation's question budget is the charter's own: its folder's
// project file, not the first workspace folder's.
func TestConversationBudgetIsTheCharters(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0}})
	c.WriteFile(".charter-lsp.jsonc", `{"questionBudget": 2}`)
	c.WriteFile("team/.charter-lsp.jsonc", `{"questionBudget": 4}`)
	d := openDoc(t, c, "team/charter.md", "")
	if r := startTurn(t, c, d.u); r.Title != "Q1 of 4 · Brain Dump" {
		t.Errorf("first prompt %q, want the team's budget of 4", r.Title)
	}
}
