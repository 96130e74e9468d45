package migrate

import (
	"fmt"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// ActionTitle is the title of the migration's code action (Action), which
// an editor offers before the plan is made.
const ActionTitle = "Migrate to the current format: a new .charters/ charter (the old one stays)"

// Action is the plan as a code action the editor previews: the new
// folder's files created (never over existing ones) with their text; the
// old folder is left alone, so undoing it is deleting the new folder.
func Action(p *Plan) feature.Action {
	a := feature.Action{Title: ActionTitle, Kind: feature.KindMigrate,
		Confirm: &feature.Confirm{Label: fmt.Sprintf("Create %s/ (%s → the current grammar)", filepath.ToSlash(filepath.Join(".charters", p.ID)), p.Kind), Notes: p.Notes}}
	for _, f := range p.Files {
		a.Create = append(a.Create, feature.NewFile{Path: filepath.Join(p.Dir(), f.Name), Content: f.Content})
	}
	return a
}
