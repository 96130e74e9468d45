package status

import (
	"fmt"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/termtext"
)

// Markdown renders charters' statuses for a person in an editor: the
// markdown the VS Code status view and Neovim's :CharterStatus buffer show
// as the server sends it. It holds what Text shows in a terminal, in the
// same order. Text from charter files is escaped, so a title cannot turn
// into a link or markup, and no line reads as a CI command (termtext.Lines).
func Markdown(charters []*Status) string {
	var b strings.Builder
	b.WriteString("# Charter status\n")
	if len(charters) == 0 {
		b.WriteString("\nNo charter (`.pi/charters/<id>/`, `.charters/<id>/`) in this workspace.\n")
	}
	for _, st := range charters {
		if st.Charters != nil {
			markdownCharters(&b, st.Charters)
			continue
		}
		markdownCharter(&b, st)
	}
	return termtext.Lines(b.String())
}

func markdownCharter(b *strings.Builder, st *Status) {
	title := mdText(st.CharterID)
	if st.Name != "" {
		title += " — " + mdText(st.Name)
	}
	fmt.Fprintf(b, "\n## %s\n\n", title)
	lifecycle := st.Status
	if lifecycle == "" {
		lifecycle = "unknown (no state.json)"
	}
	fmt.Fprintf(b, "**%s** · %d/%d VALs pass\n", mdText(lifecycle), st.ValPass, st.ValTotal)
	if st.Objective != "" {
		fmt.Fprintf(b, "\n%s\n", mdText(st.Objective))
	}

	byID := st.byID() // a repeated id shows the block upstream reads
	listed := map[string]bool{}
	for _, m := range st.Milestones {
		name := mdText(m.Title)
		if m.MilestoneID == "" && m.Title == "" {
			name = "All VALs"
		}
		fmt.Fprintf(b, "\n### %s — %d/%d pass\n\n", name, m.ValPassCount, m.ValCount)
		var vals []Criterion
		for _, id := range m.CriterionIDs {
			listed[id] = true
			if v := byID[id]; v != nil {
				vals = append(vals, *v)
			}
		}
		markdownVALs(b, vals)
	}
	var ungrouped []Criterion
	for _, v := range st.Criteria {
		if !listed[v.CriterionID] {
			ungrouped = append(ungrouped, *byID[v.CriterionID])
		}
	}
	if len(ungrouped) > 0 {
		b.WriteString("\n### Ungrouped\n\n")
		markdownVALs(b, ungrouped)
	}
	if st.ValTotal == 0 {
		b.WriteString("\nNo VAL in criteria.md yet.\n")
	}

	bs := st.Details.BlockingForComplete
	fmt.Fprintf(b, "\n### Completion blockers (%d)\n\n", len(bs))
	if len(bs) == 0 {
		b.WriteString("None.\n")
	}
	for _, x := range bs {
		fmt.Fprintf(b, "- **%s**", mdText(x.Reason))
		if x.CriterionID != "" {
			fmt.Fprintf(b, " %s", mdCode(x.CriterionID))
		}
		fmt.Fprintf(b, ": %s\n", mdText(x.Message))
	}

	if ds := st.Drift.SidecarDrift; len(ds) > 0 {
		b.WriteString("\n### Edited by hand since the tool wrote them\n\n")
		for _, x := range ds {
			fmt.Fprintf(b, "- %s (the tool wrote it %s)\n", mdCode(x.Path), mdText(x.LastToolWriteAt))
		}
	}
	if as := st.Drift.MilestoneArtifacts; len(as) > 0 {
		b.WriteString("\n### Milestones without captured artifacts\n\n")
		for _, x := range as {
			fmt.Fprintf(b, "- %s passes but has no %s folder\n", mdCode(x.MilestoneID), mdCode("work/"+x.MilestoneID+"/evidence"))
		}
	}
	if ws := st.ParseWarnings; len(ws) > 0 {
		fmt.Fprintf(b, "\n### Parse warnings (%d)\n\n", len(ws))
		for _, x := range ws {
			subject := x.Detail
			if x.CriterionID != "" {
				subject = x.CriterionID
			}
			fmt.Fprintf(b, "- %s **%s** %s\n", mdCode(fmt.Sprintf("%s:%d", x.File, x.Line)), mdText(x.Reason), mdText(subject))
		}
	}
	if ps := st.FileProblems; len(ps) > 0 {
		fmt.Fprintf(b, "\n### File problems (%d)\n\n", len(ps))
		for _, x := range ps {
			where := x.File
			if x.Line > 0 {
				where = fmt.Sprintf("%s:%d", x.File, x.Line)
			}
			if where != "" {
				where = mdCode(where) + " "
			}
			fmt.Fprintf(b, "- %s**%s** %s\n", where, mdText(x.Code.String()), mdText(x.Message))
		}
	}
	if len(st.NextActions) > 0 {
		b.WriteString("\n### Next actions\n\n")
		for _, a := range st.NextActions {
			tool := a.Tool
			if a.Action != "" {
				tool += " " + a.Action
			}
			fmt.Fprintf(b, "- %s: %s\n", mdCode(tool), mdText(a.Hint))
		}
	}
}

// markdownVALs writes a table of VALs: mark, id, outcome, age, title.
func markdownVALs(b *strings.Builder, vals []Criterion) {
	b.WriteString("| | VAL | Outcome | Recorded | Title |\n| --- | --- | --- | --- | --- |\n")
	for _, v := range vals {
		outcome := string(v.Outcome)
		if outcome == "" {
			outcome = "no evidence"
		}
		outcome = mdText(outcome)
		if v.Stale {
			outcome += ", **stale**"
		}
		age := ""
		if v.AgeMs != nil {
			age = humanAge(time.Duration(*v.AgeMs)*time.Millisecond) + " ago"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", v.Outcome.Mark(), mdCellCode(v.CriterionID), outcome, age, mdText(v.Title))
	}
}

// mdText is text from a charter made inert on one markdown line (a table
// cell included): line breaks flattened, the characters that make inline
// markup escaped (emphasis, code, links, HTML, entities, strikethrough,
// table cells), and a leading block marker escaped (a heading, list or
// quote). Other punctuation stays as written, to keep the text readable
// where the markdown is shown as text (Neovim's :CharterStatus). Control
// and bidirectional characters show escaped (termtext.Inline).
func mdText(s string) string {
	s = termtext.Inline(strings.Join(strings.Fields(s), " "))
	var b strings.Builder
	lead := len(s) - len(strings.TrimLeft(s, "0123456789"))
	for i, r := range s {
		switch {
		case strings.ContainsRune("\\`*_[]<>|~&", r),
			i == 0 && strings.ContainsRune("#+-=", r),
			i == lead && i > 0 && (r == '.' || r == ')'): // "1. " would start a list
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCode is s as an inline code span: fenced with more backticks than any
// run inside it, and padded when it starts or ends with one; escaped as
// mdText escapes.
func mdCode(s string) string {
	s = termtext.Inline(strings.Join(strings.Fields(s), " "))
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdCellCode is mdCode in a table cell, where a pipe must be escaped even
// inside a code span (GFM splits the row first).
func mdCellCode(s string) string { return strings.ReplaceAll(mdCode(s), "|", `\|`) }

// markdownCharters renders a .charters/<id> charter: its generation and
// progress, then its criteria (file interface), phases, or the Objective's
// sections, and what blocks completion.
func markdownCharters(b *strings.Builder, v *Charter) {
	fmt.Fprintf(b, "\n## %s\n\n", mdText(v.CharterID))
	lifecycle := v.Status
	if lifecycle == "" {
		lifecycle = "not listed: state.json unusable"
	}
	fmt.Fprintf(b, "**%s** · %s", mdText(lifecycle), mdText(generationName(v.Generation)))
	if p := v.progress(); p != "" {
		fmt.Fprintf(b, " · %s", mdText(p))
	}
	if v.Legacy {
		b.WriteString(" · read-only for current pi-charter")
	}
	b.WriteString("\n")
	if v.Objective != "" {
		fmt.Fprintf(b, "\n%s\n", mdText(v.Objective))
	}
	if len(v.Criteria) > 0 {
		b.WriteString("\n### Criteria\n\n")
		for _, c := range v.Criteria {
			fmt.Fprintf(b, "- %s **%s** %s — %s", charterStatusMark(c.Status), mdText(c.ID), mdText(c.Title), mdText(c.Status))
			if c.Note != "" {
				fmt.Fprintf(b, ": %s", mdText(c.Note))
			}
			if c.Stale {
				b.WriteString(" (**stale**)")
			}
			b.WriteString("\n")
		}
	}
	if len(v.Phases) > 0 {
		b.WriteString("\n### Phases\n\n")
		for _, p := range v.Phases {
			fmt.Fprintf(b, "- %s %s. %s — %s\n", charterPhaseMark(p.Status), phaseNumberText(p.Number), mdText(p.Title), mdText(p.Status))
		}
	}
	if len(v.Blockers) > 0 {
		fmt.Fprintf(b, "\n### Completion blockers (%d)\n\n", len(v.Blockers))
		for _, x := range v.Blockers {
			fmt.Fprintf(b, "- %s\n", mdText(x))
		}
	}
	if len(v.NextActions) > 0 {
		b.WriteString("\n### Next actions\n\n")
		for _, a := range v.NextActions {
			fmt.Fprintf(b, "- %s\n", mdText(a.Hint))
		}
	}
}
