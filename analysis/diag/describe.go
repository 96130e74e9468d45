package diag

// Description is one code as the catalogue describes it, for people and
// tools: what `charter-lsp rules` and `charter-lsp explain` print, in text
// or JSON. docs/diagnostics.md is rendered from the same fields.
type Description struct {
	Code     string `json:"code"`
	Severity string `json:"defaultSeverity"`
	Family   string `json:"family"`
	Fix      string `json:"fix"` // FixSafety: none, safe, unsafe, or "safe or unsafe"
	Upstream bool   `json:"upstream"`
	Summary  string `json:"summary"`
	Example  string `json:"example"`
	HowToFix string `json:"howToFix"`
	URL      string `json:"url"`
}

// Describe describes c from Rules and Docs.
func Describe(c Code) Description {
	r := c.Rule()
	if r == nil {
		return Description{}
	}
	d := Docs[c]
	return Description{Code: r.Name, Severity: r.Severity.String(), Family: FamilyTitle(r.Family), Fix: c.FixSafety().String(),
		Upstream: r.Upstream, Summary: r.Summary, Example: d.Example, HowToFix: d.Fix, URL: c.DocURL()}
}

// Descriptions describes every code, in the catalogue's order by family.
func Descriptions() []Description {
	var out []Description
	for _, ft := range familyTitles {
		for _, r := range Rules {
			if r.Family == ft.family {
				out = append(out, Describe(r.Code))
			}
		}
	}
	return out
}

// FamilyTitle is the heading docs/diagnostics.md gives a family.
func FamilyTitle(family string) string {
	for _, ft := range familyTitles {
		if ft.family == family {
			return ft.title
		}
	}
	return family
}
