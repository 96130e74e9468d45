package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// charter is what recording needs to know about a charter directory.
type charter struct {
	id       string
	status   string // normalised lifecycle status; "" without state.json
	ids      []string
	criteria map[string]criterionInfo
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
	ch := &charter{id: filepath.Base(dir), criteria: map[string]criterionInfo{}}
	if raw, err := fsys.ReadFile(filepath.Join(dir, "state.json")); err == nil {
		var st struct {
			CharterID string `json:"charterId"`
			Status    string `json:"status"`
		}
		if err := json.Unmarshal(raw, &st); err != nil {
			return nil, fmt.Errorf("state.json: %v", err)
		}
		if st.CharterID != "" {
			ch.id = st.CharterID
		}
		ch.status = normalizeStatus(st.Status)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	crit, err := registerOf(fsys, dir)
	if err != nil {
		return nil, err
	}
	for _, c := range crit.Criteria {
		if _, dup := ch.criteria[c.ID]; dup {
			continue
		}
		ch.ids = append(ch.ids, c.ID)
		ch.criteria[c.ID] = criterionInfo{verifier: string(c.Verifier.Kind)}
	}
	return ch, nil
}
