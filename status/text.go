package status

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/termtext"
)

// Text writes st as a dashboard for a terminal: header, milestones with
// their VALs, what blocks completion, warnings and next actions. Text from
// the charter's files (and its folder's name) is one escaped piece of a
// line (termtext.Fprintf), so a repository can send the terminal no escape
// sequence and the CI log no line of its own.
func Text(w io.Writer, st *Status) error {
	if st.Charters != nil {
		return chartersText(w, st.Charters)
	}
	var b strings.Builder
	name := st.CharterID
	if st.Name != "" {
		name += " — " + st.Name
	}
	status := st.Status
	if status == "" {
		status = "unknown (no state.json)"
	}
	termtext.Fprintf(&b, "%s  [%s]  %d/%d pass\n", name, status, st.ValPass, st.ValTotal)
	if st.Objective != "" {
		termtext.Fprintf(&b, "  %s\n", oneLine(st.Objective, 100))
	}
	byID := st.byID() // a repeated id shows the block upstream reads
	listed := map[string]bool{}
	for _, m := range st.Milestones {
		title := m.Title
		if m.MilestoneID == "" && title == "" {
			title = "All VALs (no milestones)"
		}
		termtext.Fprintf(&b, "\n%s  %d/%d pass\n", title, m.ValPassCount, m.ValCount)
		for _, id := range m.CriterionIDs {
			listed[id] = true
			if v := byID[id]; v != nil {
				writeVAL(&b, *v)
			} else {
				writeVAL(&b, Criterion{})
			}
		}
	}
	first := true
	for _, v := range st.Criteria {
		if listed[v.CriterionID] {
			continue
		}
		if first {
			b.WriteString("\nUngrouped\n")
			first = false
		}
		writeVAL(&b, *byID[v.CriterionID])
	}
	if st.ValTotal == 0 {
		b.WriteString("\n(no VAL in criteria.md)\n")
	}
	if bs := st.Details.BlockingForComplete; len(bs) > 0 {
		termtext.Fprintf(&b, "\nBlocking completion (%d)\n", len(bs))
		for _, x := range bs {
			termtext.Fprintf(&b, "  - %-20s %s\n", x.Reason, x.Message)
		}
	}
	if ds := st.Drift.SidecarDrift; len(ds) > 0 {
		b.WriteString("\nEdited by hand since the tool wrote them\n")
		for _, x := range ds {
			termtext.Fprintf(&b, "  - %s: %s (tool wrote %s)\n", x.Path, oneLine(x.Reason, 90), x.LastToolWriteAt)
		}
	}
	for _, x := range st.Drift.MilestoneArtifacts {
		termtext.Fprintf(&b, "\nMilestone %s passes but has no work/%s/evidence capture\n", x.MilestoneID, x.MilestoneID)
	}
	if ws := st.ParseWarnings; len(ws) > 0 {
		termtext.Fprintf(&b, "\nParse warnings (%d)\n", len(ws))
		for _, x := range ws {
			subject := x.Detail
			if x.CriterionID != "" {
				subject = x.CriterionID
			}
			termtext.Fprintf(&b, "  - %s:%d %s %s\n", x.File, x.Line, x.Reason, oneLine(subject, 60))
		}
	}
	if ps := st.FileProblems; len(ps) > 0 {
		termtext.Fprintf(&b, "\nFile problems (%d)\n", len(ps))
		for _, x := range ps {
			termtext.Fprintf(&b, "  - %s:%d %s %s\n", x.File, x.Line, x.Code, oneLine(x.Message, 90))
		}
	}
	if len(st.NextActions) > 0 {
		b.WriteString("\nNext\n")
		for _, a := range st.NextActions {
			tool := a.Tool
			if a.Action != "" {
				tool += " " + a.Action
			}
			termtext.Fprintf(&b, "  → %s: %s\n", tool, a.Hint)
			if a.CLI != "" {
				termtext.Fprintf(&b, "      run:    %s\n", a.CLI)
			}
			if a.Editor != "" {
				termtext.Fprintf(&b, "      editor: %s\n", a.Editor)
			}
		}
	}
	_, err := io.WriteString(w, termtext.Lines(b.String()))
	return err
}

func writeVAL(b *strings.Builder, v Criterion) {
	outcome := v.Outcome
	if outcome == "" {
		outcome = "none"
	}
	termtext.Fprintf(b, "  %s %-14s %-8s", v.Outcome.Mark(), v.CriterionID, outcome)
	if v.AgeMs != nil {
		termtext.Fprintf(b, " %-8s", humanAge(time.Duration(*v.AgeMs)*time.Millisecond)+" ago")
	} else {
		termtext.Fprintf(b, " %-8s", "")
	}
	if v.Stale {
		b.WriteString(" STALE")
	}
	termtext.Fprintf(b, "  %s\n", oneLine(v.Title, 70))
}

// humanAge rounds d to its largest unit: 45s, 12m, 5h, 3d.
func humanAge(d time.Duration) string {
	switch {
	case d < 0:
		return "future"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// oneLine flattens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
