package lsp

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/record"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// applyRecord writes evidence planned by record.Plan for the charter
// folder res.Dir through the same locked, atomic path as `charter-lsp
// record` (record.Apply): an agent recording in a terminal at the same
// moment loses nothing, and neither does the editor. An edit computed
// against the file as the server last read it could be applied by the
// editor over a newer one; a write under the lock re-reads the file first.
// It refuses a write outside the workspace folders, and while
// criterion-state.json is open with unsaved changes (the write would not
// be what the editor shows). Then the next snapshot reads what was
// written, and the open documents are checked again. criteriaPath is the
// register, named when the evidence does not fit the saved one.
func (s *Server) applyRecord(ctx context.Context, res *record.Result, criteriaPath string) error {
	for _, op := range res.Ops {
		if !s.InWorkspace(op.Path) {
			return s.refuse(ctx, "charter-lsp: not recording evidence: %s is outside the workspace folders", op.Path)
		}
	}
	if s.unsaved(filepath.Join(res.Dir, "criterion-state.json")) {
		return s.refuse(ctx, "charter-lsp: not recording evidence: criterion-state.json has unsaved changes; save or revert them, then record again")
	}
	if err := record.Apply(ctx, res); err != nil {
		if s.unsaved(criteriaPath) {
			err = fmt.Errorf("%w (evidence is checked against the saved %s: save it first)", err, filepath.Base(criteriaPath))
		}
		return s.refuse(ctx, "charter-lsp: not recording evidence: %v", err)
	}
	written := make([]string, 0, len(res.Ops))
	for _, op := range res.Ops {
		written = append(written, op.Path)
	}
	s.diags.schedule(s.update(workspace.Change{Disk: written}), "")
	return nil
}
