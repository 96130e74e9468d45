package record

// Stop-gaps for pieces analysis/pi does not offer yet (LoadDir, state.json
// and evidence schema); each should move there and be called from here.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// normalizeStatus maps legacy persisted statuses onto the four-state FSM.
func normalizeStatus(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "active", "planning", "review", "awaiting-clarification":
		return "active"
	case "paused", "budget_limited", "budget-limited":
		return "paused"
	case "completed", "complete", "done":
		return "completed"
	case "abandoned", "cancelled", "canceled":
		return "abandoned"
	case "":
		return ""
	}
	return strings.ToLower(strings.TrimSpace(s))
}

// registerOf resolves the VAL register as upstream does: criteria.md, or the
// legacy charter.md ## Criteria when criteria.md is missing or the scaffold.
func registerOf(fsys vfs.FS, dir string) (*pi.Criteria, error) {
	var crit *pi.Criteria
	src, err := fsys.ReadFile(filepath.Join(dir, "criteria.md"))
	switch {
	case err == nil:
		crit = pi.ParseCriteria(src)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if crit == nil || crit.Scaffold() {
		if src, err := fsys.ReadFile(filepath.Join(dir, "charter.md")); err == nil {
			if legacy := pi.ParseCharter(src).Criteria; legacy != nil && len(legacy.Criteria) > 0 {
				return legacy, nil
			}
		}
	}
	if crit == nil {
		crit = &pi.Criteria{}
	}
	return crit, nil
}

// validateRow checks one evidence row against upstream's schema: required
// fields, allowed values, and no property outside the schema.
func validateRow(content []byte) error {
	var row map[string]json.RawMessage
	if err := json.Unmarshal(content, &row); err != nil {
		return err
	}
	allowed := map[string]bool{
		"criterionId": true, "outcome": true, "summary": true, "ts": true, "charterId": true, "featureId": true,
		"because": true, "artifacts": true, "details": true, "source": true, "recordedBy": true,
		"narrativePath": true, "verifier": true,
	}
	for k := range row {
		if !allowed[k] {
			return fmt.Errorf("property %q is not allowed", k)
		}
	}
	for _, k := range []string{"criterionId", "outcome", "summary", "ts"} {
		if _, ok := row[k]; !ok {
			return fmt.Errorf("%s is required", k)
		}
	}
	return nil
}
