package status

import (
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// parseWarnings lists upstream's parse warnings in upstream's order: each
// VAL's in register order, then the ## Commands ones of charter.md
// (parseCharterMarkdown parses the criteria first:
// src/domain/charter-md.ts@16cab0f:105-120).
func (c *computer) parseWarnings() {
	d := c.d
	f := d.File(d.CriteriaPath)
	for _, cr := range d.Criteria.Criteria {
		for _, w := range cr.Warnings() {
			c.st.ParseWarnings = append(c.st.ParseWarnings, ParseWarning{Reason: w.Reason, File: c.rel(d.CriteriaPath),
				Line: line(f, w.Span.Start), CriterionID: cr.ID, Detail: w.Detail})
		}
	}
	if d.Charter != nil && d.CharterFile != nil {
		for _, l := range d.Charter.Commands {
			switch {
			case l.Malformed:
				c.st.ParseWarnings = append(c.st.ParseWarnings, ParseWarning{Reason: "malformed-command", File: "charter.md",
					Line: line(d.CharterFile, l.LineSpan.Start), Detail: string(d.CharterFile.Src[l.LineSpan.Start:l.LineSpan.End])})
			case l.Duplicate:
				c.st.ParseWarnings = append(c.st.ParseWarnings, ParseWarning{Reason: "duplicate-command", File: "charter.md",
					Line: line(d.CharterFile, l.LineSpan.Start), Detail: l.Key})
			}
		}
	}
}

// blockers lists what keeps charter action=complete from passing.
func (c *computer) blockers() {
	st := c.st
	add := func(b Blocker) { st.Details.BlockingForComplete = append(st.Details.BlockingForComplete, b) }
	if st.RegisterEmpty {
		add(Blocker{Reason: "register-empty", Message: "criteria.md declares no VAL: add ## <milestone> headings with ### VAL-* criteria"})
	}
	for _, v := range st.Criteria {
		switch {
		case v.Outcome != pi.Pass:
			msg := v.CriterionID + " has no recorded evidence"
			if v.Outcome != "" {
				msg = fmt.Sprintf("%s's latest outcome is %s", v.CriterionID, v.Outcome)
			}
			add(Blocker{Reason: "val-not-pass", CriterionID: v.CriterionID, Outcome: v.Outcome, LastEvidencePath: v.LastEvidencePath, Message: msg})
		case v.Source == pi.SourceManual && strings.TrimSpace(v.Because) == "":
			add(Blocker{Reason: "manual", CriterionID: v.CriterionID, Outcome: v.Outcome, LastEvidencePath: v.LastEvidencePath,
				Message: v.CriterionID + " passes on manual evidence without a because"})
		case v.Stale:
			add(Blocker{Reason: "stale-evidence", CriterionID: v.CriterionID, Outcome: v.Outcome, LastEvidencePath: v.LastEvidencePath,
				Message: v.CriterionID + " requires fresh evidence and its pass predates the latest source change"})
		}
	}
	if c.d.ReportFile == nil {
		add(Blocker{Reason: "report-missing", Message: "REPORT.md does not exist yet (charter action=complete scaffolds it); it needs ## Objective, ## Outcome and ## Notes"})
		return
	}
	for _, name := range []string{"Objective", "Outcome", "Notes"} {
		if s := c.d.Report.Section(name); s == nil || !s.HasContent {
			add(Blocker{Reason: "report-empty-section", Section: name, Message: "REPORT.md ## " + name + " needs content"})
		}
	}
}
