package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/interview/agent"
	"github.com/charter-lsp/charter-lsp/interview/agent/agenttest"
)

// The built-in agent (agenttest.Builtin) is removed once the tests are done.
func TestMain(m *testing.M) { agenttest.Main(m) }

// withAgent is a runner that names an interview agent on every run.
func withAgent(runCLI cliRunner, cmd string) cliRunner {
	return func(t *testing.T, args ...string) (string, string, int) {
		out, errOut, code := runCLI(t, append(args, "--agent", cmd)...)
		if strings.Contains(errOut, "built-in interviewer answered instead") {
			t.Fatalf("the agent failed: %s", errOut)
		}
		return out, errOut, code
	}
}

// The agent's whole path from the CLI: every interview script, played
// with --agent naming the built-in engine built as an agent program (the
// CLI is then the seed's caller: the agent decides, the engine writes),
// gives each response of the script and ends with the engine's charter.
func TestInterviewScriptsThroughAgentCLI(t *testing.T) {
	files, err := filepath.Glob("../../interview/testdata/interviews/*.txtar")
	if err != nil || len(files) < 9 {
		t.Fatalf("want the interview scripts, found %d (%v)", len(files), err)
	}
	log := filepath.Join(t.TempDir(), "calls")
	bin := agenttest.Builtin(t, log)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runScriptCLI(t, withAgent(inProcessFull, bin), file)
		})
	}
	if calls, _ := os.ReadFile(log); strings.Count(string(calls), "\n") < 50 {
		t.Errorf("the agent answered only %d calls", strings.Count(string(calls), "\n"))
	}
}

// The same through the built binary, with the agent named in the
// environment (CHARTER_LSP_AGENT), as a user's shell would.
func TestInterviewAgentBinary(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls")
	t.Setenv(agent.EnvCommand, agenttest.Builtin(t, log))
	runScriptCLI(t, binaryFull(t), "../../interview/testdata/interviews/oncall-named.txtar")
	if calls, _ := os.ReadFile(log); len(strings.Fields(string(calls))) < 4 {
		t.Errorf("the agent from the environment answered %q", calls)
	}
}

// An agent that fails: the CLI says what it did on stderr and the
// built-in engine answers (exit 0); `--agent ”` turns an agent from the
// environment off.
func TestInterviewAgentFallbackCLI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p", ".rp1", "context", "charter.md")
	pidFile := filepath.Join(dir, "pid")
	for name, c := range map[string]struct {
		args []string
		says string
	}{
		"prose": {[]string{"--agent", agenttest.Script(t, "echo 'Sure:'\necho '{\"type\":\"skip\",\"message\":\"x\"}'")},
			`The interview agent (fake-agent) printed text before its JSON answer ("Sure:")`},
		"hung": {[]string{"--agent", agenttest.Script(t, fmt.Sprintf("echo $$ > %q\nexec sleep 300", pidFile)), "--agent-timeout", "1s"},
			"The interview agent (fake-agent) did not answer within 1s and was stopped; the built-in interviewer answered instead."},
		"wrong type": {[]string{"--agent", agenttest.Answering(t, `{"type":"next_question","next_question":["a","b"]}`)},
			"answered outside the StatelessAgentResponse contract: at /next_question"},
	} {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := inProcessFull(t, append([]string{path}, c.args...)...)
			if code != 0 || !strings.Contains(errOut, c.says) || !strings.Contains(errOut, "asking the interview agent (fake-agent)") {
				t.Errorf("exit %d, stderr:\n%s\nwant it to say %q", code, errOut, c.says)
			}
			var r struct{ Type, NextQuestion string }
			if json.Unmarshal([]byte(out), &r) != nil || r.Type != "next_question" {
				t.Errorf("the built-in's response: %s", out)
			}
			if name == "hung" {
				agenttest.WaitGroupGone(t, agenttest.WaitPid(t, pidFile))
			}
		})
	}
	cmd, marker := agenttest.Marker(t)
	t.Setenv(agent.EnvCommand, cmd)
	if _, errOut, code := inProcessFull(t, path, "--agent", ""); code != 0 || strings.Contains(errOut, "agent") {
		t.Errorf("--agent '': exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("--agent '' ran the agent from the environment")
	}
}

// Ctrl-C while the agent works stops it, its whole process group with it,
// and writes nothing.
func TestInterviewAgentInterrupted(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	path := filepath.Join(dir, "p", ".rp1", "context", "charter.md")
	hung := agenttest.Script(t, fmt.Sprintf("echo $$ > %q\nsleep 300 &\nwait", pidFile))
	cmd := exec.Command(testfixture.Server(t), "interview", path, "--apply", "--agent", hung)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := agenttest.WaitPid(t, pidFile)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("charter-lsp interview did not stop on Ctrl-C")
	}
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(errb.String(), "the interview agent was stopped; nothing was written") {
		t.Errorf("exit %d, stderr:\n%s", code, errb.String())
	}
	agenttest.WaitGroupGone(t, pgid)
	if _, err := os.Stat(path); err == nil {
		t.Error("the charter was written after the agent was stopped")
	}
}

// An agent's finished charter is written as the engine writes one, and
// checked: the CLI lists what check reports on it.
func TestInterviewAgentContentIsChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "radar", ".rp1", "context", "charter.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	start := "# Project Charter: [To Be Determined]\n\n**Version**: 1.0.0\n**Status**: Draft\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n### Q1: Brain Dump\n**Asked**: Tell me everything.\n**Answer**: We're building Runbook Radar for on-call engineers.\n\n<!-- End scratch pad -->\n"
	if err := os.WriteFile(path, []byte(start), 0o644); err != nil {
		t.Fatal(err)
	}
	content, _ := json.Marshal(map[string]any{"type": "success", "charter_content": map[string]string{
		"problem": "Engineers lose time. It hurts.", "users": "On-call engineers. And leads.", "value_prop": "Faster. Fresher.",
		"scope": "## Won't\n- Paging", "success": "Under a minute. Three teams.",
	}})
	_, errOut, code := inProcessFull(t, path, "--apply", "--agent", agenttest.Answering(t, string(content)))
	if code != 0 || !strings.Contains(errOut, "finished the charter") || !strings.Contains(errOut, "warning section-missing") ||
		!strings.Contains(errOut, "problem(s) in what fake-agent wrote") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	got, _ := os.ReadFile(path)
	if ch := rp1.Parse(got); ch.ScratchPad != nil || !strings.Contains(string(got), "### Won't\n- Paging") || !strings.HasPrefix(string(got), "# Project Charter: Runbook Radar\n") {
		t.Errorf("finished:\n%s", got)
	}
}

// For a skeleton charter with no gap left, the agent is rp1's finalizer:
// a faithful answer is printed (its artifact the charter's path); one
// that disagrees with the charter is refused and the built-in answers.
func TestInterviewFinalizerAgentCLI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "relay", ".rp1", "context", "charter.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	text := "# Project Charter: relay\n**Created**: 2026-07-20\n**Status**: Complete\n## Vision\nPredictable setup.\n## Problem & Context\nAnswers get lost.\n## Target Users\nDevelopers.\n## Business Rationale\nRecovery.\n## Scope Guardrails\n### Will\n- Keep questions\n### Won't\n- Add state\n## Success Criteria\nOne topology.\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	faithful := agenttest.Script(t, `printf '{"status":"complete","artifact":"%s","gaps":[],"warnings":["checked by the agent"]}\n' "$1"`)
	out, errOut, code := inProcessFull(t, path, "--agent", faithful)
	want := fmt.Sprintf(`{"status":"complete","artifact":%q,"gaps":[],"warnings":["checked by the agent"]}`, path)
	if code != 0 || strings.TrimSpace(out) != want {
		t.Errorf("exit %d, printed %s, want %s\n%s", code, out, want, errOut)
	}
	wrong := agenttest.Script(t, `printf '{"status":"draft","artifact":"%s","gaps":["Vision"],"warnings":[]}\n' "$1"`)
	out, errOut, code = inProcessFull(t, path, "--agent", wrong)
	if code != 0 || !strings.Contains(errOut, "answered what the charter does not say") || !strings.Contains(out, `"status":"complete"`) {
		t.Errorf("a disagreeing finalizer: exit %d, %s\n%s", code, out, errOut)
	}
}

// The README's recipe works: its wrapper script, with a stand-in for the
// LLM client that answers as models do (a sentence and a fence around the
// JSON), gives the CLI an answer within the contract.
func TestReadmeAgentRecipe(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- charter-agent recipe -->\n```sh\n")
	if !ok {
		t.Fatal("the README has no charter-agent recipe")
	}
	script, _, _ := strings.Cut(rest, "```\n")
	dir := t.TempDir()
	agentPath := filepath.Join(dir, "charter-agent")
	if err := os.WriteFile(agentPath, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".config", "charter-agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "charter-agent", "charter-interviewer.md"), []byte("You are CharterGPT, a stateless product strategist."), 0o644); err != nil {
		t.Fatal(err)
	}
	// The stand-in for llm: it checks it got rp1's prompt as the system prompt and the
	// charter in its input, then answers like a chatty model.
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	llm := `#!/bin/sh
[ "$1" = -s ] && [ "$2" = "You are CharterGPT, a stateless product strategist." ] || { echo "no system prompt: $*" >&2; exit 3; }
in=$(cat)
case "$in" in *"<mode>CREATE</mode>"*"<charter>"*) ;; *) echo "bad input: $in" >&2; exit 4 ;; esac
printf 'Here is the next action:\n` + "```json" + `\n{\n  "type": "next_question",\n  "next_question": "What are you building, and for whom?",\n  "metadata": {"question_number": 1, "total_questions": 5, "gaps_remaining": ["problem", "users", "value_prop", "scope", "success"]}\n}\n` + "```" + `\nHope that helps!\n'
`
	if err := os.WriteFile(filepath.Join(bin, "llm"), []byte(llm), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	path := filepath.Join(dir, "proj", ".rp1", "context", "charter.md")
	out, errOut, code := inProcessFull(t, path, "--agent", agentPath, "--mode", "CREATE")
	var r struct {
		Type         string `json:"type"`
		NextQuestion string `json:"next_question"`
	}
	if code != 0 || strings.Contains(errOut, "built-in interviewer answered") || json.Unmarshal([]byte(out), &r) != nil || r.NextQuestion != "What are you building, and for whom?" {
		t.Errorf("exit %d, printed %s\nstderr:\n%s", code, out, errOut)
	}
}
