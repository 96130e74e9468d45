package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// The editor's record-evidence action and `charter-lsp record` in a
// terminal, at the same moment, on the same charter: criterion-state.json
// is valid JSON holding both entries after every round, and both runs'
// evidence files are whole.
func TestRecordFromEditorRacesCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	c, u, _ := startPi(t)
	dir := filepath.Join(c.Root, ".pi/charters/auth-rework")
	state := filepath.Join(dir, "criterion-state.json")
	for round := 0; round < 8; round++ {
		summary := fmt.Sprintf("terminal run %d", round)
		var wg sync.WaitGroup
		var cliErr, lspErr error
		var lspPath string
		wg.Add(2)
		go func() {
			defer wg.Done()
			out, err := exec.Command(bin, "record", "VAL-ROLL-001", "--outcome", "fail", "--summary", summary,
				"--because", "seen in the terminal", "--charter", dir).CombinedOutput()
			if err != nil {
				cliErr = fmt.Errorf("%v: %s", err, out)
			}
		}()
		go func() {
			defer wg.Done()
			arg, _ := json.Marshal(map[string]any{"uri": u, "criterionId": "VAL-SESS-002", "outcome": "pass", "summary": fmt.Sprintf("editor run %d", round)})
			res, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: "charter.recordEvidence", Arguments: []protocol.LSPAny{arg}})
			if err != nil {
				lspErr = err
				return
			}
			var out map[string]string
			json.Unmarshal(res, &out)
			lspPath = out["path"]
		}()
		wg.Wait()
		if cliErr != nil || lspErr != nil {
			t.Fatalf("round %d: cli %v, editor %v", round, cliErr, lspErr)
		}
		raw, err := os.ReadFile(state)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Criteria map[string]struct {
				Outcome     string `json:"outcome"`
				LastSummary string `json:"lastSummary"`
			} `json:"criteria"`
		}
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatalf("round %d: criterion-state.json is not valid JSON: %v\n%s", round, err, raw)
		}
		if got := st.Criteria["VAL-ROLL-001"]; got.LastSummary != summary || got.Outcome != "fail" {
			t.Errorf("round %d: the terminal's entry was lost: %+v", round, got)
		}
		if got := st.Criteria["VAL-SESS-002"]; got.LastSummary != fmt.Sprintf("editor run %d", round) {
			// The editor records the placeholder summary when given none;
			// given one, it is kept.
			if !strings.HasPrefix(got.LastSummary, "editor run") {
				t.Errorf("round %d: the editor's entry was lost: %+v", round, got)
			}
		}
		if b, err := os.ReadFile(lspPath); err != nil || !json.Valid(b) {
			t.Errorf("round %d: the editor's evidence.json: %v", round, err)
		}
	}
	if len(c.Edits()) != 0 {
		t.Errorf("%d workspace edits sent for records", len(c.Edits()))
	}
}

// With criterion-state.json open and changed in the editor but not saved,
// recording is refused: writing the disk's version would not be what the
// editor shows, and the editor's version may be half-typed.
func TestRecordRefusedOverUnsavedState(t *testing.T) {
	c, u, _ := startPi(t)
	rel := ".pi/charters/auth-rework/criterion-state.json"
	disk, _ := os.ReadFile(c.Path(rel))
	stateURI := c.OpenAs(rel, "json", strings.Replace(string(disk), "{", "{\n  \"note\": \"typing\",", 1))
	arg, _ := json.Marshal(map[string]any{"uri": u, "criterionId": "VAL-SESS-002", "outcome": "pass"})
	_, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: "charter.recordEvidence", Arguments: []protocol.LSPAny{arg}})
	if err == nil || !strings.Contains(err.Error(), "unsaved changes") {
		t.Fatalf("err = %v, want a refusal over unsaved changes", err)
	}
	if got, _ := os.ReadFile(c.Path(rel)); string(got) != string(disk) {
		t.Error("criterion-state.json changed")
	}
	// Near miss: the same file open but saved (the editor's text is the disk's).
	c.Close(stateURI)
	c.OpenAs(rel, "json", string(disk))
	if _, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: "charter.recordEvidence", Arguments: []protocol.LSPAny{arg}}); err != nil {
		t.Fatalf("open and saved: %v", err)
	}
}
