package interview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// The steps offered follow where the interview stands: an empty file
// starts it (or becomes rp1's skeleton charter), a pending question can be
// skipped, otherwise the next question is asked (by the agent, when one
// decides), and a scratch pad with enough answers can be finished.
func TestActionsFollowTheInterview(t *testing.T) {
	const pending = "# Project Charter: X\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: \n\n<!-- End scratch pad -->\n"
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	titles := func(text, agent string) string {
		var out []string
		for _, a := range Actions(rp1.Parse([]byte(text)), []byte(text), false, Options{Path: "/p/charter.md"}, agent, now) {
			if a.Kind != feature.KindInterview || (a.Command == nil) == (a.Fix == nil) || a.Command != nil && !a.Command.OnVersion {
				t.Errorf("%q: %+v", a.Title, a)
			}
			name := "fix"
			if a.Command != nil {
				name = string(a.Command.Name)
			}
			out = append(out, fmt.Sprintf("%s=%s", a.Title, name))
		}
		return strings.Join(out, "; ")
	}
	if got := titles("", ""); got != "Start charter interview=charter.interview.start; Start rp1's skeleton charter (seven regions, no scratch pad)=fix" {
		t.Errorf("empty file: %s", got)
	}
	if got := titles(pending, ""); got != "Skip pending question Q1 (Brain Dump)=charter.interview.skip" {
		t.Errorf("pending question: %s", got)
	}
	answered := strings.Replace(pending, "**Answer**: \n", "**Answer**: A tool that syncs notes between devices for people who travel.\n", 1)
	if got := titles(answered, ""); !strings.HasPrefix(got, "Ask next interview question (Q2 ") || !strings.HasSuffix(got, "=charter.interview.next") {
		t.Errorf("answered: %s", got)
	}
	if got := titles(answered, "rp1-interviewer"); got != "Ask next interview question (the interview agent, rp1-interviewer, decides)=charter.interview.next" {
		t.Errorf("with an agent: %s", got)
	}
}

// A skeleton charter's prompts go gap by gap, skipping the regions passed
// over in the conversation, and end saying what is left for later.
func TestRegionPromptPassesOver(t *testing.T) {
	text := NewSkeleton("Radar", time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
	p, st := RegionPrompt(text, nil)
	if p.Title != "Region 1 of 7 · Vision" || p.Answer == nil || p.Answer.Region != rp1.RegionVision || len(st.Gaps) != 7 {
		t.Fatalf("first prompt %+v", p)
	}
	p, _ = RegionPrompt(text, []rp1.RegionID{rp1.RegionVision})
	if p.Title != "Region 2 of 7 · Problem & Context" || len(p.Buttons) != 1 || p.Buttons[0].Do != DoSkip || len(p.Buttons[0].Passed) != 1 {
		t.Errorf("after passing over Vision: %+v", p)
	}
	p, _ = RegionPrompt(text, rp1.Regions)
	if !p.Done || !strings.HasPrefix(p.Message, "Left for later: Vision, Problem & Context,") {
		t.Errorf("every region passed over: %+v", p)
	}
}

// A scratch pad's prompt: the question numbered against the budget, the
// answer and skip choices, and no finish before the interview could end.
func TestPadPrompt(t *testing.T) {
	r := Next(nil, false, Options{Budget: 4})
	p := PadPrompt(r, nil, "/p/charter.md", "rp1-interviewer")
	if p.Title != "Q1 of 4 · Brain Dump (asked by rp1-interviewer)" || p.Answer.Do != DoAnswer || p.Answer.Question != 1 {
		t.Errorf("prompt %+v", p)
	}
	if len(p.Buttons) != 1 || p.Buttons[0].Do != DoSkip {
		t.Errorf("buttons %+v: skip only before anything is answered", p.Buttons)
	}
}
