package migrate

import (
	"fmt"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// Action is the plan as a code action the editor previews: the new
// folder's files created (never over existing ones) with their text; the
// old folder is left alone, so undoing it is deleting the new folder.
func Action(p *Plan) feature.Action {
	a := feature.Action{Title: "Migrate to the current format: a new .charters/ charter (the old one stays)", Kind: feature.KindMigrate,
		Confirm: &feature.Confirm{Label: fmt.Sprintf("Create %s/ (%s → the current grammar)", filepath.ToSlash(filepath.Join(".charters", p.ID)), p.Kind), Notes: p.Notes}}
	for _, f := range p.Files {
		a.Create = append(a.Create, feature.NewFile{Path: filepath.Join(p.Dir(), f.Name), Content: f.Content})
	}
	return a
}
