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
