package charterfile

import "github.com/charter-lsp/charter-lsp/analysis/feature"

// Lens puts the charter's progress over the section that holds it: "3/5
// pass" over ## Criteria, "phase 2 of 4" over ## Phases. The lenses are
// labels.
func Lens(v *View) []feature.Lens {
	c := v.Charter
	switch {
	case c == nil:
	case c.Generation.FileInterface() && c.CriteriaHeading != nil:
		return []feature.Lens{feature.Label(c.CriteriaHeading.Start, c.CriteriaSummary())}
	case c.Generation == PH && c.PhasesSection.Found:
		return []feature.Lens{feature.Label(c.PhasesSection.HeadingSpan.Start, c.PhasesSummary())}
	}
	return nil
}
