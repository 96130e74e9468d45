package lsp_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

const ferrylog = `# Project Charter: ferrylog
**Created**: 2026-07-20
**Status**: Draft

## Vision
_TBD_

## Problem & Context
Crossings are logged on paper and retyped the next morning.

## Target Users
Deck officers at sea.

## Business Rationale
One entry at sea replaces the paper log.

## Scope Guardrails
### Will
- Offline logging
### Won't
- _TBD_

## Success Criteria
No log is retyped a month after launch.
`

// regionCall runs charter.interview.region with arg and decodes its result.
func regionCall(t *testing.T, c *lsptest.Client, arg map[string]any) (map[string]any, error) {
	t.Helper()
	raw, err := json.Marshal(arg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Server.ExecuteCommand(reqCtx(t), &protocol.ExecuteCommandParams{
		Command: "charter.interview.region", Arguments: []protocol.LSPAny{raw}})
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(res, &out); err != nil {
		t.Fatalf("result %s: %v", res, err)
	}
	return out, nil
}

// An editor that can prompt for text answers a skeleton charter's
// questions through the command: each answer lands in its region,
// **Status** follows the gaps, and the result names the next question.
// A stale version, an unknown region and a filled region are refused.
func TestSkeletonInterviewAnswers(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, ".rp1/context/charter.md", ferrylog)
	c.Sync()

	res, err := regionCall(t, c, map[string]any{"uri": d.u, "version": 1, "answer": "Every crossing logged once, at sea."})
	if err != nil {
		t.Fatal(err)
	}
	if res["answered"] != "Vision" || res["next"] != "Scope Guardrails / Won't" || res["status"] != "Draft" || !strings.Contains(res["question"].(string), "not do") {
		t.Errorf("after Vision: %v", res)
	}
	text, version, _ := c.Text(d.u)
	if !strings.Contains(text, "## Vision\nEvery crossing logged once, at sea.\n\n## Problem") {
		t.Errorf("the answer is not in Vision:\n%s", text)
	}

	// The answer for the last gap: **Status** becomes Complete in the same edit.
	res, err = regionCall(t, c, map[string]any{"uri": d.u, "version": version, "region": "Scope Guardrails / Won't", "answer": "Payroll. Crew rosters."})
	if err != nil {
		t.Fatal(err)
	}
	if res["next"] != nil || res["status"] != "Complete" || len(res["gaps"].([]any)) != 0 {
		t.Errorf("after Won't: %v", res)
	}
	text, version, _ = c.Text(d.u)
	for _, want := range []string{"**Status**: Complete", "### Won't\n- Payroll.\n- Crew rosters.\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q:\n%s", want, text)
		}
	}
	if ds := c.WaitDiagnostics(d.u, version).Params.Diagnostics; len(ds) != 0 {
		t.Errorf("diagnostics after the interview: %v", diagCodes(ds))
	}

	var rpcErr *jsonrpc2.Error
	if _, err := regionCall(t, c, map[string]any{"uri": d.u, "version": 1, "answer": "x"}); !errors.As(err, &rpcErr) || rpcErr.Code != protocol.CodeContentModified {
		t.Errorf("a stale version: %v", err)
	}
	if _, err := regionCall(t, c, map[string]any{"uri": d.u, "version": version, "region": "Mission", "answer": "x"}); err == nil || !strings.Contains(err.Error(), `"Mission" is not a region`) {
		t.Errorf("an unknown region: %v", err)
	}
	if _, err := regionCall(t, c, map[string]any{"uri": d.u, "version": version, "region": "Vision"}); err == nil || !strings.Contains(err.Error(), "already filled") {
		t.Errorf("a filled region: %v", err)
	}
	if _, err := regionCall(t, c, map[string]any{"uri": d.u, "version": version, "answer": "x"}); err == nil || !strings.Contains(err.Error(), "no region") {
		t.Errorf("an answer with no gap left: %v", err)
	}
	if got, _, _ := c.Text(d.u); got != text {
		t.Errorf("a refused call changed the charter")
	}
}

// A scratch-pad charter is not interviewed region by region.
func TestSkeletonInterviewRefusesScratchPad(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, "charter.md", "# Project Charter: x\n\n**Version**: 1.0.0\n\n## Problem & Context\nTBD\n")
	if _, err := regionCall(t, c, map[string]any{"uri": d.u}); err == nil || !strings.Contains(err.Error(), "not an rp1 skeleton charter") {
		t.Errorf("a scratch-pad charter: %v", err)
	}
}

// After the last gap is typed in place, the status action is offered away
// from the status diagnostic.
func TestSkeletonStatusAction(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, ".rp1/context/charter.md", strings.Replace(strings.Replace(ferrylog, "_TBD_", "Every crossing logged once.", 1), "- _TBD_", "- Payroll", 1))
	c.Sync()
	d.action("Set **Status**: Complete (what the gaps call for)")
}

// The editors' "ask the next interview question" (charter.interview.next)
// on a skeleton charter asks for its first gap region, as the region
// command does: the question is shown and the region's _TBD_ selected for
// the answer. No scratch pad is written.
func TestInterviewNextOnSkeletonAsksFirstGap(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, ".rp1/context/charter.md", ferrylog)
	c.Sync()

	raw, _ := json.Marshal(map[string]any{"uri": d.u, "version": 1})
	res, err := c.Server.ExecuteCommand(reqCtx(t), &protocol.ExecuteCommandParams{
		Command: "charter.interview.next", Arguments: []protocol.LSPAny{raw}})
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(res, &out); err != nil {
		t.Fatalf("result %s: %v", res, err)
	}
	if out["asked"] != "Vision" || out["next"] != "Vision" {
		t.Errorf("result: %v", out)
	}
	c.Sync()
	if text, _, _ := c.Text(d.u); strings.Contains(text, "Scratch Pad") {
		t.Errorf("a scratch pad was written into a skeleton charter:\n%s", text)
	}
	asked := false
	for _, m := range c.Messages() {
		asked = asked || strings.HasPrefix(m.Message, "Vision: ")
	}
	shown := c.ShownDocuments()
	if !asked || len(shown) == 0 || shown[len(shown)-1].Selection == nil || shown[len(shown)-1].Selection.Start.Line != 5 {
		t.Errorf("the question is not asked with Vision's _TBD_ selected: messages %v, shown %v", c.Messages(), shown)
	}
}

// quillmark has the shape of a real charter (Jud/mkdn): the scratch-pad
// era's **Version** line beside the skeleton's ## Vision, and ### Will Do /
// ### Won't Do. Its regions make it a skeleton charter (generation-conflict
// says so), so the editors' "ask the next interview question" goes to its
// first gap region, Will, whose heading it asks to rename first, and never
// appends a ## Scratch Pad.
const quillmark = `# Project Charter: quillmark
**Version**: 1.0.0 | **Status**: Draft | **Created**: 2026-02-11

## Vision
A calm, keyboard-first notes app.

## Problem & Context
Writers juggle an editor, a file browser and a sync tool.

## Target Users
People who write every day in plain text.

## Business Rationale
Switching costs nothing.

## Scope Guardrails
### Will Do
- Open any folder of markdown files

### Won't Do
- Cloud sync

## Success Criteria
The author uses it every day.
`

func TestInterviewNextOnVersionedSkeletonWritesNoScratchPad(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, ".rp1/context/charter.md", quillmark)
	c.Sync()
	for _, a := range d.actions(protocol.Range{}, nil) {
		if strings.Contains(a.Title, "interview") || strings.Contains(a.Title, "Scratch") {
			t.Errorf("a scratch-pad interview action is offered on a skeleton charter: %q", a.Title)
		}
	}
	raw, _ := json.Marshal(map[string]any{"uri": d.u, "version": 1})
	_, err := c.Server.ExecuteCommand(reqCtx(t), &protocol.ExecuteCommandParams{
		Command: "charter.interview.next", Arguments: []protocol.LSPAny{raw}})
	if err == nil || !strings.Contains(err.Error(), `the heading "Will Do" is meant for "Scope Guardrails / Will"`) {
		t.Errorf("charter.interview.next: %v, want the region interview's request to rename ### Will Do", err)
	}
	c.Sync()
	if text, _, _ := c.Text(d.u); strings.Contains(text, "Scratch Pad") {
		t.Errorf("a scratch pad was written into a skeleton charter:\n%s", text)
	}
}
