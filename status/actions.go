package status

import "fmt"

// nextActions suggests what to do next, consistent with the lifecycle:
// active → record, re-verify, fill the report, complete, pause; paused →
// resume; completed or abandoned → nothing but reading the status.
func nextActions(st *Status) []NextAction {
	out := []NextAction{}
	switch st.Status {
	case "paused":
		return append(out,
			NextAction{Tool: "charter", Action: "resume", Hint: "The charter is paused: resume it to continue recording evidence."},
			NextAction{Tool: "charter_status", Hint: "Review the status before resuming."})
	case "completed", "abandoned":
		return append(out, NextAction{Tool: "charter_status",
			Hint: fmt.Sprintf("The charter is %s (terminal): nothing left to do. To continue the work, create a new charter.", st.Status)})
	}
	if st.RegisterEmpty {
		out = append(out, NextAction{Tool: "edit", Hint: "Author criteria.md: ## <milestone> headings with ### VAL-* criteria, each with a Verifier: line.",
			Metadata: map[string]any{"path": "criteria.md"}})
	}
	for _, s := range st.Drift.Stale {
		out = append(out, recordAction(st, s.CriterionID, "Re-verify "+s.CriterionID+": the source changed after its pass; record fresh evidence."))
	}
	for _, r := range st.Drift.ReadyNext {
		out = append(out, recordAction(st, r.CriterionID, "Work on "+r.CriterionID+" next and record its evidence."))
	}
	for _, b := range st.Details.BlockingForComplete {
		if b.Reason == "manual" {
			out = append(out, recordAction(st, b.CriterionID, "Record "+b.CriterionID+" again with a because: manual evidence needs a rationale."))
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
				out = append(out, NextAction{Tool: "edit", Hint: "Write the ## " + b.Section + " section of REPORT.md.",
					Metadata: map[string]any{"path": "REPORT.md", "section": b.Section}})
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

// recordAction suggests recording evidence for a VAL, with the CLI command
// that does it.
func recordAction(st *Status, id, hint string) NextAction {
	md := map[string]any{"criterionId": id}
	for _, v := range st.Criteria {
		if v.CriterionID != id {
			continue
		}
		if v.MilestoneID != "" {
			md["milestoneId"] = v.MilestoneID
		}
		md["verifier"] = v.Verifier
		if v.Command != "" {
			md["command"] = v.Command
		}
	}
	md["cli"] = fmt.Sprintf("charter-lsp record %s --outcome pass|fail|partial --summary '…' --because '…'", id)
	return NextAction{Tool: "charter_record", Action: "evidence", Hint: hint, Metadata: md}
}
