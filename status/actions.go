package status

import (
	"fmt"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/internal/shellword"
)

// nextActions suggests what to do next, consistent with the lifecycle:
// active → record, re-verify, fill the report, complete, pause; paused →
// resume; completed or abandoned → nothing but reading the status.
func nextActions(st *Status) []NextAction {
	out := []NextAction{}
	switch lc := pi.Lifecycle(st.Status); {
	case lc == pi.Paused:
		return append(out,
			NextAction{Tool: "charter", Action: "resume", Hint: "The charter is paused: resume it to continue recording evidence."},
			statusAction(st, "Review the status before resuming."))
	case lc.Terminal():
		return append(out, statusAction(st,
			fmt.Sprintf("The charter is %s (terminal): nothing left to do. To continue the work, create a new charter.", st.Status)))
	}
	if st.RegisterEmpty {
		out = append(out, editAction(st, "criteria.md", "Author criteria.md: ## <milestone> headings with ### VAL-* criteria, each with a Verifier: line.",
			"edit criteria.md (completion offers field keys and verifier kinds)"))
	}
	// Each VAL by id, the block upstream reads: a register of 150,000 VALs
	// suggests recording as many, and looking each up by scanning the
	// register took minutes.
	byID := st.byID()
	record := func(id, hint string) NextAction { return recordAction(st, byID[id], id, hint) }
	for _, s := range st.Drift.Stale {
		out = append(out, record(s.CriterionID, "Re-verify "+s.CriterionID+": the source changed after its pass; record fresh evidence."))
	}
	for _, r := range st.Drift.ReadyNext {
		out = append(out, record(r.CriterionID, "Work on "+r.CriterionID+" next and record its evidence."))
	}
	for _, b := range st.Details.BlockingForComplete {
		if b.Reason == "manual" {
			out = append(out, record(b.CriterionID, "Record "+b.CriterionID+" again with a because: manual evidence needs a rationale."))
		}
	}
	valsDone, reportDone := true, true
	for _, b := range st.Details.BlockingForComplete {
		switch b.Reason {
		case "report-missing", "report-empty-section":
			reportDone = false
		default:
			valsDone = false
		}
	}
	switch {
	case valsDone && !reportDone:
		for _, b := range st.Details.BlockingForComplete {
			if b.Reason == "report-empty-section" {
				a := editAction(st, "REPORT.md", "Write the ## "+b.Section+" section of REPORT.md.", "edit REPORT.md at ## "+b.Section)
				a.Metadata["section"] = b.Section
				out = append(out, a)
			}
			if b.Reason == "report-missing" {
				out = append(out, NextAction{Tool: "charter", Action: "complete", Hint: "Every VAL passes: a first complete attempt scaffolds REPORT.md to fill in."})
			}
		}
	case valsDone && reportDone:
		out = append(out, NextAction{Tool: "charter", Action: "complete", Hint: "Every VAL passes and the report is written: complete the charter."})
	}
	return append(out, NextAction{Tool: "charter", Action: "pause", Hint: "Pause the charter if the work has to stop for now."})
}

// recordAction suggests recording evidence for a VAL, with the charter-lsp
// command line and the editor action that do it.
func recordAction(st *Status, v *Criterion, id, hint string) NextAction {
	md := map[string]any{"criterionId": id}
	cli := "charter-lsp record " + shellword.Quote(id) + " --outcome pass --summary '<what you observed>'"
	if v != nil {
		if v.MilestoneID != "" {
			md["milestoneId"] = v.MilestoneID
			cli += " --feature " + shellword.Quote(v.MilestoneID)
		}
		md["verifier"] = v.Verifier
		if v.Command != "" {
			md["command"] = v.Command
		}
		if v.Verify != nil {
			// A command verifies it: run it, and the result is recorded.
			return NextAction{Tool: "charter_record", Action: "evidence", Hint: hint, Metadata: md,
				CLI:    "charter-lsp verify " + shellword.Quote(id) + " --charter " + shellword.Quote(charterArg(st)),
				Editor: "code lens \"▶ Run `" + v.Verify.Command + "`\" over " + id + "'s heading (Neovim :CharterVerify)"}
		}
		if v.Verifier == string(pi.VerifierManual) {
			cli += " --because '<why this outcome is right>'"
		} else {
			cli += " --source verifier"
		}
	}
	return NextAction{Tool: "charter_record", Action: "evidence", Hint: hint, Metadata: md,
		CLI:    cli + " --charter " + shellword.Quote(charterArg(st)),
		Editor: "code action \"Record evidence: pass\" on " + id + "'s heading in criteria.md"}
}

// editAction suggests writing an authored file; `check` then shows what
// is still wrong with it.
func editAction(st *Status, file, hint, editor string) NextAction {
	return NextAction{Tool: "edit", Hint: hint, Metadata: map[string]any{"path": file},
		CLI: "charter-lsp check " + shellword.Quote(charterArg(st)+"/"+file), Editor: editor}
}

func statusAction(st *Status, hint string) NextAction {
	return NextAction{Tool: "charter_status", Hint: hint, CLI: "charter-lsp status " + shellword.Quote(charterArg(st)),
		Editor: "command \"Charter: Show status\" (Neovim :CharterStatus)"}
}

// charterArg names the charter directory from where the suggested
// commands run: the project folder, or the folder From says.
func charterArg(st *Status) string {
	if st.cliDir != "" {
		return st.cliDir
	}
	return ".pi/charters/" + filepath.Base(st.Dir)
}

// From returns st with its command lines (NextActions[].CLI) written to
// run in the folder wd rather than the project folder: the CLI prints
// them where it ran, to be pasted there. st itself is shared, and kept.
func (st *Status) From(wd string) *Status {
	if st.Charters != nil {
		return st // a .charters/ charter's actions carry no command line
	}
	cp := *st
	cp.cliDir = filepath.ToSlash(st.Dir)
	if rel, err := filepath.Rel(wd, st.Dir); err == nil && filepath.IsLocal(rel) {
		cp.cliDir = filepath.ToSlash(rel)
	}
	cp.NextActions = nextActions(&cp)
	return &cp
}
