package status

import (
	"fmt"
	"io"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
)

// chartersText writes a .charters/ charter's status for a terminal: the
// header with the generation and its progress, then criteria (file
// interface), phases, or the Objective's sections, escaped as Text escapes.
func chartersText(w io.Writer, v *Charter) error {
	var b strings.Builder
	status := v.Status
	if status == "" {
		status = "not listed: state.json unusable"
	}
	termtext.Fprintf(&b, "%s  [%s]  %s", v.CharterID, status, generationName(v.Generation))
	if p := v.progress(); p != "" {
		termtext.Fprintf(&b, "  %s", p)
	}
	if v.Legacy {
		b.WriteString("  (read-only for current pi-charter)")
	}
	b.WriteString("\n")
	if v.Objective != "" {
		termtext.Fprintf(&b, "  %s\n", oneLine(v.Objective, 100))
	}
	if r := v.ReadAs; r != nil {
		b.WriteString("\nRead as this generation because\n")
		for _, x := range r.Reasons {
			fmt.Fprintf(&b, "  - %s\n", oneLine(x, 140))
		}
		for _, x := range r.Conflicts {
			fmt.Fprintf(&b, "  despite %s\n", oneLine(x, 140))
		}
		fmt.Fprintf(&b, "  Otherwise: %s\n", oneLine(r.Otherwise, 140))
	}
	if len(v.Criteria) > 0 {
		b.WriteString("\n")
		for _, c := range v.Criteria {
			mark := charterStatusMark(c.Status)
			termtext.Fprintf(&b, "  %s %-5s %-12s %s", mark, c.ID, c.Status, oneLine(c.Title, 60))
			if c.Note != "" {
				termtext.Fprintf(&b, " — %s", oneLine(c.Note, 50))
			}
			if c.Stale {
				b.WriteString("  STALE")
			}
			b.WriteString("\n")
		}
		if len(v.ReadyNext) > 0 {
			termtext.Fprintf(&b, "\nReady next: %s\n", strings.Join(v.ReadyNext, ", "))
		}
	}
	if len(v.Phases) > 0 {
		b.WriteString("\n")
		for _, p := range v.Phases {
			mark := charterPhaseMark(p.Status)
			termtext.Fprintf(&b, "  %s %s. %-40s %s\n", mark, phaseNumberText(p.Number), oneLine(p.Title, 40), p.Status)
		}
	}
	for _, s := range []struct{ name, text string }{{"References", v.References}, {"Scope", v.Scope}, {"Notes", v.Notes}} {
		if s.text != "" {
			termtext.Fprintf(&b, "\n%s: %s\n", s.name, oneLine(s.text, 100))
		}
	}
	if len(v.Blockers) > 0 {
		termtext.Fprintf(&b, "\nBlocking completion (%d)\n", len(v.Blockers))
		for _, x := range v.Blockers {
			termtext.Fprintf(&b, "  - %s\n", x)
		}
	}
	if len(v.Warnings) > 0 {
		termtext.Fprintf(&b, "\nParse warnings (%d)\n", len(v.Warnings))
		for _, x := range v.Warnings {
			termtext.Fprintf(&b, "  - %s\n", oneLine(x, 110))
		}
	}
	if len(v.FileProblems) > 0 {
		termtext.Fprintf(&b, "\nFile problems (%d)\n", len(v.FileProblems))
		for _, x := range v.FileProblems {
			termtext.Fprintf(&b, "  - %s:%d %s %s\n", x.File, x.Line, x.Code, oneLine(x.Message, 90))
		}
	}
	if len(v.NextActions) > 0 {
		b.WriteString("\nNext\n")
		for _, a := range v.NextActions {
			tool := a.Tool
			if a.Action != "" {
				tool += " " + a.Action
			}
			termtext.Fprintf(&b, "  → %s: %s\n", tool, a.Hint)
		}
	}
	_, err := io.WriteString(w, termtext.Lines(b.String()))
	return err
}

// progress is the one-line progress of the generation: "3/5 pass" for
// criteria, "phase 2 of 4" (or "4/4 done") for phases.
func (v *Charter) progress() string {
	switch {
	case v.Progress != nil:
		return fmt.Sprintf("%d/%d pass", v.Progress.Pass, v.Progress.Total)
	case len(v.Phases) > 0:
		for i, p := range v.Phases {
			if charterfile.PhaseStatus(p.Status) == charterfile.PhaseCurrent {
				return fmt.Sprintf("phase %d of %d", i+1, len(v.Phases))
			}
		}
		return fmt.Sprintf("%d/%d done", v.PhaseCounts[string(charterfile.PhaseDone)], len(v.Phases))
	}
	return ""
}

func generationName(g string) string {
	if g == "" {
		return "no charter.md"
	}
	return charterfile.Generation(g).Title()
}

func phaseNumberText(n float64) string {
	if n == float64(int64(n)) {
		return fmt.Sprintf("%d", int64(n))
	}
	return fmt.Sprintf("%g", n)
}

// charterStatusMark is a criterion status's mark.
func charterStatusMark(status string) string {
	marks := map[charterfile.Status]string{charterfile.StatusPass: "✓", charterfile.StatusFail: "✗", charterfile.StatusInProgress: "▸", charterfile.StatusBlocked: "■"}
	if m, ok := marks[charterfile.Status(status)]; ok {
		return m
	}
	return "·"
}

// charterPhaseMark is a phase state's mark.
func charterPhaseMark(state string) string {
	if m, ok := map[charterfile.PhaseStatus]string{charterfile.PhaseDone: "✓", charterfile.PhaseCurrent: "▸"}[charterfile.PhaseStatus(state)]; ok {
		return m
	}
	return "·"
}
