package record

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// charter is what recording needs to know about a charter directory.
type charter struct {
	id         string
	status     string // normalised lifecycle status; "" without state.json
	ids        []string
	criteria   map[string]criterionInfo
	milestones []string // the ## milestone ids of criteria.md, the valid featureIds
}

type criterionInfo struct {
	verifier string
}

// loadCharter reads the register and the lifecycle status of dir.
func loadCharter(fsys vfs.FS, dir string) (*charter, error) {
	fi, err := fsys.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("charter directory: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a charter directory", dir)
	}
	d := pi.LoadDir(fsys, dir)
	for _, err := range d.Errors {
		// A register that cannot be read (a FIFO, a folder, too large)
		// is not an empty one: recording against it would be wrong.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			switch filepath.Base(pe.Path) {
			case "charter.md", "criteria.md", "state.json", "criterion-state.json":
				return nil, fmt.Errorf("%s: %w", filepath.Base(pe.Path), err)
			}
		}
	}
	ch := &charter{id: filepath.Base(dir), criteria: map[string]criterionInfo{}}
	if d.StateFile != nil {
		if d.State == nil {
			return nil, errors.New("state.json is not a JSON object: fix it before recording")
		}
		if d.State.CharterID != "" {
			ch.id = d.State.CharterID
		}
		ch.status = d.State.Status
	}
	for _, m := range d.Criteria.Milestones {
		ch.milestones = append(ch.milestones, m.ID)
	}
	for _, c := range d.Criteria.Criteria {
		if _, dup := ch.criteria[c.ID]; dup {
			continue
		}
		ch.ids = append(ch.ids, c.ID)
		ch.criteria[c.ID] = criterionInfo{verifier: string(c.Verifier.Kind)}
	}
	return ch, nil
}
