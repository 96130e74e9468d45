//go:build unix

package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
	"github.com/charter-lsp/charter-lsp/verify"
)

// A pi charter whose VALs run shell commands: one that passes printing a
// line, one that fails, one that waits (to cancel), one that is weak.
const verifyCriteria = `# Criteria

## m1 Checks

### VAL-V-001 — The check passes
Verifier: command
Command: echo verified-output; echo second line

### VAL-V-002 — The check fails
Verifier: command
Command: echo broken >&2; exit 3

### VAL-V-003 — The check takes a while
Verifier: command
Command: echo started; sleep 300

### VAL-V-004 — The check names a test
Verifier: command
Command: true || go test -run TestNothing ./...

### VAL-V-005 — A person checks
Verifier: manual
Because: eyes only
`

const verifyState = `{"charterId": "v", "schemaVersion": "3", "objective": "check", "status": "active"}`

func startVerify(t *testing.T, cfg lsptest.Config) (*lsptest.Client, uri.URI, string) {
	t.Helper()
	if cfg.Capabilities == nil {
		cfg.Capabilities = lsptest.ProgressCapabilities()
	}
	c := lsptest.Start(t, cfg)
	c.WriteFile(".pi/charters/v/charter.md", "# Charter: v\n\n## Objective\n\nCheck.\n")
	c.WriteFile(".pi/charters/v/state.json", verifyState)
	c.WriteFile(".pi/charters/v/criteria.md", verifyCriteria)
	u := c.Open(".pi/charters/v/criteria.md", verifyCriteria)
	c.Sync()
	return c, u, c.Path(".pi/charters/v")
}

func lenses(t *testing.T, c *lsptest.Client, u uri.URI) []protocol.CodeLens {
	t.Helper()
	got, err := c.Server.CodeLens(t.Context(), &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// runLens finds the "Run" lens of VAL id.
func runLens(t *testing.T, c *lsptest.Client, u uri.URI, id string) *protocol.Command {
	t.Helper()
	for _, l := range lenses(t, c, u) {
		if l.Command.Command == "charter.verify" && strings.Contains(string(l.Command.Arguments[0]), `"criterionId":"`+id+`"`) {
			return &l.Command
		}
	}
	return nil
}

func runVerify(t *testing.T, c *lsptest.Client, cmd *protocol.Command) (verify.RunAnswer, error) {
	t.Helper()
	raw, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: cmd.Command, Arguments: cmd.Arguments})
	var a verify.RunAnswer
	if err == nil {
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatalf("answer %s: %v", raw, err)
		}
	}
	return a, err
}

func verifyOutput(c *lsptest.Client, run string) string {
	var b strings.Builder
	for _, raw := range c.Notifications(verify.OutputMethod) {
		var o verify.RunOutput
		json.Unmarshal(raw, &o)
		if o.Run == run {
			b.WriteString(o.Text)
		}
	}
	return b.String()
}

// TestVerifyRunsWhatWasShownAndRecordsIt: the lens shows the command, the
// server asks with the command verbatim before running it, streams its
// output with a progress, and records the result as record does; the
// register's diagnostics and lenses then show the new evidence.
func TestVerifyRunsWhatWasShownAndRecordsIt(t *testing.T) {
	c, u, dir := startVerify(t, lsptest.Config{})
	cmd := runLens(t, c, u, "VAL-V-001")
	if cmd == nil || cmd.Title != "▶ Run `echo verified-output; echo second line`" {
		t.Fatalf("lens %+v", cmd)
	}
	if runLens(t, c, u, "VAL-V-005") != nil {
		t.Error("a manual VAL has nothing to run, so no Run lens")
	}
	c.Answer(lsptest.Pick("Run"))
	a, err := runVerify(t, c, cmd)
	if err != nil {
		t.Fatal(err)
	}
	asked := c.Asked()
	if len(asked) != 1 || !strings.Contains(asked[0].Message, "\n\necho verified-output; echo second line") || !strings.Contains(asked[0].Message, c.Root) {
		t.Fatalf("the question should show the command verbatim and where it runs: %+v", asked)
	}
	if a.Outcome != "pass" || a.ExitCode == nil || *a.ExitCode != 0 || a.Declined || a.Cancelled || a.Run == "" {
		t.Fatalf("answer %+v", a)
	}
	if out := verifyOutput(c, a.Run); !strings.Contains(out, "$ echo verified-output; echo second line\n") || !strings.Contains(out, "verified-output\nsecond line\n") || !strings.Contains(out, "# pass: ") {
		t.Errorf("streamed output %q", out)
	}
	notes := c.Notifications(verify.OutputMethod)
	var last verify.RunOutput
	json.Unmarshal(notes[len(notes)-1], &last)
	if !last.Done || last.Recorded != a.Recorded {
		t.Errorf("the last piece of output should say the run is done and where it was recorded: %+v", last)
	}
	kinds := ""
	for _, p := range c.ProgressReports() {
		kinds += p.Kind + " "
	}
	if !strings.HasPrefix(kinds, "begin ") || !strings.HasSuffix(kinds, "end ") {
		t.Errorf("progress %q, want begin … end", kinds)
	}

	// The evidence, as record writes it.
	if !strings.HasPrefix(a.Recorded, filepath.Join(dir, "work", "m1", "evidence")+"/") || filepath.Base(a.Recorded) != "evidence.json" {
		t.Fatalf("recorded in %s", a.Recorded)
	}
	var row struct {
		CriterionID, Outcome, Summary, Source, RecordedBy string
		Artifacts                                         []string
		Details                                           map[string]any
	}
	raw, _ := os.ReadFile(a.Recorded)
	if err := json.Unmarshal(raw, &row); err != nil {
		t.Fatal(err)
	}
	if row.CriterionID != "VAL-V-001" || row.Outcome != "pass" || row.Source != "verifier" || row.RecordedBy != "user" ||
		!strings.HasPrefix(row.Summary, "`echo verified-output; echo second line` exited 0 in ") || !strings.HasSuffix(row.Summary, "verified-output\nsecond line") ||
		row.Details["command"] != "echo verified-output; echo second line" || row.Details["exitCode"] != 0.0 || row.Details["durationMs"] == nil {
		t.Errorf("evidence row %s", raw)
	}
	if len(row.Artifacts) != 1 || filepath.Join(dir, row.Artifacts[0]) != a.Artifact {
		t.Errorf("artifacts %v, answer %s", row.Artifacts, a.Artifact)
	}
	if log, err := os.ReadFile(a.Artifact); err != nil || !strings.Contains(string(log), "verified-output\nsecond line\n") {
		t.Errorf("artifact %q %v", log, err)
	}
	state, _ := os.ReadFile(filepath.Join(dir, "criterion-state.json"))
	rel, _ := filepath.Rel(dir, a.Recorded)
	if !strings.Contains(string(state), `"VAL-V-001": {`) || !strings.Contains(string(state), `"lastEvidencePath": "`+filepath.ToSlash(rel)+`"`) {
		t.Errorf("criterion-state.json:\n%s", state)
	}
	// The lens over the VAL now shows the pass.
	c.Sync()
	found := false
	for _, l := range lenses(t, c, u) {
		if l.Command.Command == "charter.recordEvidence" && strings.Contains(string(l.Command.Arguments[0]), "VAL-V-001") {
			found = strings.HasPrefix(l.Command.Title, "✓ pass")
		}
	}
	if !found {
		t.Error("the VAL's status lens does not show the recorded pass")
	}

	// A failing command records a fail with its exit status.
	a, err = runVerify(t, c, runLens(t, c, u, "VAL-V-002"))
	if err != nil || a.Outcome != "fail" || *a.ExitCode != 3 {
		t.Fatalf("fail: %+v %v", a, err)
	}
	raw, _ = os.ReadFile(a.Recorded)
	if !strings.Contains(string(raw), `"outcome": "fail"`) || !strings.Contains(string(raw), "broken") {
		t.Errorf("fail row %s", raw)
	}
}

// TestVerifyRunsNothingUnlessAsked: a dismissed or cancelled question, a
// command that is not the charter's, a register with unsaved edits to the
// command: nothing runs and nothing is written.
func TestVerifyRunsNothingUnlessAsked(t *testing.T) {
	c, u, dir := startVerify(t, lsptest.Config{})
	marker := filepath.Join(c.Root, "ran")
	cmd := runLens(t, c, u, "VAL-V-001")
	for _, answer := range []string{"", "Cancel"} {
		c.Answer(lsptest.Pick(answer))
		a, err := runVerify(t, c, cmd)
		if err != nil || !a.Declined || a.Run != "" {
			t.Errorf("answer %q: %+v %v", answer, a, err)
		}
	}
	// Arguments naming another command (a forged lens, a stale one).
	c.Answer(lsptest.Pick("Run"))
	forged := *cmd
	forged.Arguments = []protocol.LSPAny{mustJSON(map[string]string{"uri": string(u), "criterionId": "VAL-V-001", "command": "touch " + marker})}
	if _, err := runVerify(t, c, &forged); err == nil || !strings.Contains(err.Error(), "not the \"touch ") {
		t.Errorf("forged command: %v", err)
	}
	// The user edits the command after the lens was computed.
	edited := strings.Replace(verifyCriteria, "Command: echo verified-output; echo second line", "Command: touch "+marker, 1)
	c.Replace(u, 2, edited)
	c.Sync()
	if _, err := runVerify(t, c, cmd); err == nil || !strings.Contains(err.Error(), "is now \"touch ") {
		t.Errorf("edited command: %v", err)
	}
	if len(c.Asked()) != 2 {
		t.Errorf("asked %d times, want only the two declined runs", len(c.Asked()))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a command ran that the user was not shown")
	}
	if _, err := os.Stat(filepath.Join(dir, "work")); err == nil {
		t.Error("evidence was written")
	}
}

func mustJSON(v any) protocol.LSPAny {
	raw, _ := json.Marshal(v)
	return raw
}

// TestVerifyCancelRecordsNothing: cancelling the progress kills the
// command and records nothing.
func TestVerifyCancelRecordsNothing(t *testing.T) {
	c, u, dir := startVerify(t, lsptest.Config{})
	c.Answer(lsptest.Pick("Run"))
	cmd := runLens(t, c, u, "VAL-V-003")
	done := make(chan verify.RunAnswer, 1)
	go func() {
		a, err := runVerify(t, c, cmd)
		if err != nil {
			t.Error(err)
		}
		done <- a
	}()
	var run string
	c.WaitFor("the command's first line", func() bool {
		for _, raw := range c.Notifications(verify.OutputMethod) {
			var o verify.RunOutput
			json.Unmarshal(raw, &o)
			if strings.Contains(o.Text, "started\n") {
				run = o.Run
				return true
			}
		}
		return false
	})
	if err := c.Server.WorkDoneProgressCancel(t.Context(), &protocol.WorkDoneProgressCancelParams{Token: protocol.String(run)}); err != nil {
		t.Fatal(err)
	}
	var a verify.RunAnswer
	select {
	case a = <-done:
	case <-t.Context().Done():
	}
	if !a.Cancelled || a.Outcome != "" || a.Recorded != "" {
		t.Errorf("answer %+v", a)
	}
	if !strings.Contains(verifyOutput(c, run), "cancelled; nothing recorded") {
		t.Errorf("output %q", verifyOutput(c, run))
	}
	if _, err := os.Stat(filepath.Join(dir, "work")); err == nil {
		t.Error("a cancelled run wrote evidence")
	}
	if _, err := os.Stat(filepath.Join(dir, "criterion-state.json")); err == nil {
		t.Error("a cancelled run wrote criterion-state.json")
	}
}

// TestVerifyWeakCommandSaysSo: a command that can pass on zero tests asks
// "Run anyway" with the reason, and the record says so.
func TestVerifyWeakCommandSaysSo(t *testing.T) {
	c, u, _ := startVerify(t, lsptest.Config{})
	cmd := runLens(t, c, u, "VAL-V-004")
	if cmd == nil || !strings.HasSuffix(cmd.Title, "(weak: can pass on zero tests)") {
		t.Fatalf("lens %+v", cmd)
	}
	c.Answer(lsptest.Pick("Run")) // not offered: the question says "Run anyway"
	if a, err := runVerify(t, c, cmd); err != nil || !a.Declined {
		t.Fatalf("%+v %v", a, err)
	}
	q := c.Asked()[0]
	if q.Type != protocol.MessageTypeWarning || !strings.Contains(q.Message, "can pass without running a test") || q.Actions[0].Title != "Run anyway" {
		t.Errorf("question %+v", q)
	}
	c.Answer(lsptest.Pick("Run anyway"))
	a, err := runVerify(t, c, cmd)
	if err != nil || a.Outcome != "pass" || a.Weak == "" {
		t.Fatalf("%+v %v", a, err)
	}
	raw, _ := os.ReadFile(a.Recorded)
	if !strings.Contains(string(raw), `"weakVerifier": "`) || !strings.Contains(string(raw), "Weak verifier, run after the user confirmed it") {
		t.Errorf("the record does not say the verifier is weak: %s", raw)
	}
}

// TestVerifyRefusedInRestrictedMode: an untrusted workspace has no Run
// lens or action, and the command refuses with the reason.
func TestVerifyRefusedInRestrictedMode(t *testing.T) {
	c, u, _ := startVerify(t, lsptest.Config{InitializationOptions: map[string]any{"restricted": true}, Settings: map[string]any{"restricted": true}})
	for _, l := range lenses(t, c, u) {
		if l.Command.Command == "charter.verify" {
			t.Errorf("lens %q in Restricted Mode", l.Command.Title)
		}
	}
	actions, err := c.Server.CodeAction(t.Context(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{Start: protocol.Position{Line: 5}, End: protocol.Position{Line: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if ca, ok := a.(*protocol.CodeAction); ok && ca.Command.Command == "charter.verify" {
			t.Errorf("action %q in Restricted Mode", ca.Title)
		}
	}
	c.Answer(lsptest.Pick("Run"))
	cmd := &protocol.Command{Command: "charter.verify", Arguments: []protocol.LSPAny{mustJSON(map[string]string{"uri": string(u), "criterionId": "VAL-V-001", "command": "echo verified-output; echo second line"})}}
	if _, err := runVerify(t, c, cmd); err == nil || !strings.Contains(err.Error(), "not trusted (Restricted Mode)") {
		t.Errorf("err %v", err)
	}
	if len(c.Asked()) != 0 {
		t.Error("asked to run in Restricted Mode")
	}
}

// TestVerifyActionOnTheCriterion: the code action under the cursor is the
// same command as the lens.
func TestVerifyActionOnTheCriterion(t *testing.T) {
	c, u, _ := startVerify(t, lsptest.Config{})
	line := uint32(strings.Count(verifyCriteria[:strings.Index(verifyCriteria, "Command: echo broken")], "\n"))
	actions, err := c.Server.CodeAction(t.Context(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, a := range actions {
		if ca, ok := a.(*protocol.CodeAction); ok {
			titles = append(titles, ca.Title)
			if ca.Command.Command == "charter.verify" {
				if ca.Title != "▶ Run `echo broken >&2; exit 3`" || *ca.Kind != "refactor.charter.verify" {
					t.Errorf("action %+v", ca)
				}
				return
			}
		}
	}
	t.Errorf("no Run action on VAL-V-002; got %q", titles)
}

// A .charters criterion's Command: line: the run's result is its Status
// line, written in charter.md (an edit of the open document, else the
// file), with the output under work/verify/.
const verifyFI15 = "## Objective\nShip it.\n## Criteria\n### C1. The parser streams\nCommand: echo parsed 42/42\nStatus: pending\n### C2. Docs\nDepends: C1\nStatus: pending\n"

func TestVerifyChartersCriterion(t *testing.T) {
	for _, open := range []bool{false, true} {
		t.Run(map[bool]string{false: "closed", true: "open"}[open], func(t *testing.T) {
			// Open, the edit goes to the editor's buffer, as VS Code applies it.
			c := lsptest.Start(t, lsptest.Config{Capabilities: lsptest.ProgressCapabilities(), ApplyToBuffers: open})
			rel := ".charters/20260701-000000-ship-it/charter.md"
			c.WriteFile(rel, verifyFI15)
			c.WriteFile(".charters/20260701-000000-ship-it/state.json", `{"charterId":"20260701-000000-ship-it","schemaVersion":"file-interface","objective":"Ship it.","status":"active"}`)
			u := c.Open(rel, verifyFI15)
			c.Sync()
			cmd := runLens(t, c, u, "C1")
			if cmd == nil || cmd.Title != "▶ Run `echo parsed 42/42`" || runLens(t, c, u, "C2") != nil {
				t.Fatalf("lenses %+v", lenses(t, c, u))
			}
			if !open {
				c.Close(u)
				c.Sync()
			}
			c.Answer(lsptest.Pick("Run"))
			a, err := runVerify(t, c, cmd)
			if err != nil || a.Outcome != "pass" || a.Recorded != c.Path(rel) {
				t.Fatalf("%+v %v", a, err)
			}
			raw, _ := os.ReadFile(c.Path(rel))
			text := string(raw)
			if open {
				if string(raw) != verifyFI15 {
					t.Errorf("the open document's file was written behind the editor's back:\n%s", raw)
				}
				text, _, _ = c.Text(u)
			}
			artifact, _ := filepath.Rel(filepath.Dir(c.Path(rel)), a.Artifact)
			want := "Status: pass — `echo parsed 42/42` exited 0 in "
			if !strings.Contains(text, "Command: echo parsed 42/42\n"+want) || !strings.Contains(text, ": parsed 42/42 (output: "+filepath.ToSlash(artifact)+"; ") {
				t.Errorf("charter.md:\n%s", text)
			}
			if log, err := os.ReadFile(a.Artifact); err != nil || !strings.Contains(string(log), "parsed 42/42") {
				t.Errorf("artifact %q %v", log, err)
			}
		})
	}
}

// TestVerifyStaysInTheWorkspace: a charter folder that is a link out of
// the workspace gets no lens and the command refuses.
func TestVerifyStaysInTheWorkspace(t *testing.T) {
	outside := testfixture.Copy(t, "pi-project")
	c := lsptest.Start(t, lsptest.Config{Capabilities: lsptest.ProgressCapabilities()})
	if err := os.MkdirAll(c.Path(".pi/charters"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, ".pi/charters/auth-rework"), c.Path(".pi/charters/auth-rework")); err != nil {
		t.Skip(err)
	}
	raw, _ := os.ReadFile(c.Path(".pi/charters/auth-rework/criteria.md"))
	u := c.Open(".pi/charters/auth-rework/criteria.md", string(raw))
	c.Sync()
	if cmd := runLens(t, c, u, "VAL-SESS-001"); cmd != nil {
		t.Errorf("a Run lens in a charter outside the workspace: %+v", cmd)
	}
	c.Answer(lsptest.Pick("Run"))
	cmd := &protocol.Command{Command: "charter.verify", Arguments: []protocol.LSPAny{mustJSON(map[string]string{"uri": string(u), "criterionId": "VAL-SESS-001", "command": "go test ./src/auth/..."})}}
	if _, err := runVerify(t, c, cmd); err == nil || !strings.Contains(err.Error(), "outside the workspace folders") {
		t.Errorf("err %v", err)
	}
	if len(c.Asked()) != 0 {
		t.Error("asked to run a command of a charter outside the workspace")
	}
}
