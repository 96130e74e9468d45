package migrate

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// FromCharters plans a current charter for the .charters/<id> folder d.
// A file-interface charter (ADR-0014/0015) is carried over; a phases or
// objective-only one returns ErrNothingToDo, with the reason.
func FromCharters(d *charterfile.Dir, opts Options) (*Plan, error) {
	if d.Charter == nil {
		return nil, fmt.Errorf("%s has no readable charter.md", d.Path)
	}
	switch d.Era.Generation {
	case charterfile.PH:
		return nil, fmt.Errorf("%w: %s is a phases charter (ADR-0016/0017); the current parser reads it as it is, its phases as notes", ErrNothingToDo, d.ID)
	case charterfile.OBJ:
		return nil, fmt.Errorf("%w: %s is already in the current grammar (ADR-0018)", ErrNothingToDo, d.ID)
	}
	c := d.Charter
	// ADR-0014 read no References or Scope, but its template had a Scope
	// section: carry both over as ADR-0015 reads them.
	sections := c
	if c.Generation == charterfile.FI14 {
		sections = charterfile.ParseFI15(d.CharterSrc)
	}
	dr := &draft{
		objective:     c.Objective.Text,
		references:    sections.References.Text,
		scope:         sections.Scope.Text,
		statusHeading: "Criterion statuses when this charter was migrated (nothing reads them now):",
		reference:     fmt.Sprintf("- `.charters/%s/` — the file-interface charter this one continues (criteria, statuses, journal)", d.ID),
		migratedFrom:  fmt.Sprintf("Migrated by charter-lsp from `.charters/%s/` (%s).", d.ID, c.Generation.Title()),
	}
	state := d.State
	objective := ""
	if state != nil && state.Valid {
		objective = state.Objective
	}
	if dr.objective == "" {
		dr.objective = objective
	}
	if dr.objective == "" {
		dr.objective = "_The previous charter stated no Objective: write it here._"
	}
	for _, cr := range c.Criteria {
		body := cr.Body
		if len(cr.Ignored) > 0 {
			// Lines upstream read as nothing still carry the author's words.
			body = strings.TrimSpace(body + "\n\nLines pi-charter ignored:\n\n" + quote(strings.Join(cr.Ignored, "\n")))
		}
		dr.items = append(dr.items, item{id: cr.ID, title: cr.Title, depends: strings.Join(cr.Depends, ", "), body: body,
			done: cr.Status == charterfile.StatusPass, status: string(cr.Status), note: cr.Note})
	}
	dr.leftovers = leftovers(c, sections)
	notes := []string{
		fmt.Sprintf("%d criteria become the ## Acceptance list inside the Objective, their statuses a checklist under ## Notes", len(c.Criteria)),
		fmt.Sprintf("the old folder .charters/%s/ is left as it is; upstream keeps it as read-only history", d.ID),
	}
	if len(dr.leftovers) > 0 {
		notes = append(notes, "text outside the sections and criteria is quoted under ## Notes")
	}
	if state != nil && state.Valid && pi.Lifecycle(state.Status).Terminal() {
		notes = append(notes, fmt.Sprintf("the old charter is %s; the new one starts active", state.Status))
	}
	return plan(dr, filepath.Dir(d.Path), d.Path, c.Generation.Title(), objective, opts, notes)
}

// leftovers are the runs of text the file-interface parsers claim for no
// section and no criterion: a "# Charter:" title, grouping headings,
// prose between sections, criteria upstream ignored (a duplicate id).
func leftovers(c, sections *charterfile.Charter) []string {
	claimed := c.Claimed()
	for _, s := range []charterfile.Section{sections.References, sections.Scope} {
		for _, l := range s.Lines() {
			claimed[l] = true
		}
	}
	var blocks []string
	var cur []string
	flush := func() {
		if text := strings.TrimSpace(strings.Join(cur, "\n")); text != "" {
			blocks = append(blocks, text)
		}
		cur = nil
	}
	lines := c.Lines()
	for i, l := range lines {
		if claimed[i] || isCriteriaHeading(l) {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRight(l, "\r"))
	}
	flush()
	return blocks
}

func isCriteriaHeading(l string) bool {
	l = strings.TrimSpace(l)
	return strings.EqualFold(l, "## criteria")
}
