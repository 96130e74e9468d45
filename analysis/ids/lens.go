package ids

import (
	"fmt"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// CitesLens says over each VAL heading of a register how many places of
// the project's code and tests cite the VAL ("cited in 2 places (2
// files)"), from cites: the project's cites by VAL id (WalkCode, CitesIn;
// the workspace memoizes them). Nothing over a VAL no code cites.
func CitesLens(reg *pi.Criteria, cites map[string][]Ref) []feature.Lens {
	if reg == nil {
		return nil
	}
	var out []feature.Lens
	for _, c := range reg.Criteria {
		refs := cites[c.ID]
		if len(refs) == 0 {
			continue
		}
		files := map[string]bool{}
		for _, r := range refs {
			files[r.Path] = true
		}
		title := "cited in " + feature.Count(len(refs), "place")
		if len(files) > 1 {
			title += fmt.Sprintf(" (%d files)", len(files))
		}
		out = append(out, feature.Lens{Span: c.HeadingSpan(), Command: feature.Command{Title: title}})
	}
	return out
}
