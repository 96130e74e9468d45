package workspace

import (
	"context"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// ChartersView returns the view of the .charters/<id> folder dir: its
// charter read in the generation the folder's evidence decides, state.json,
// events.jsonl, staleness and the journal's failures, and its diagnostics on
// demand. The folder is read once per change of it (and of the settings or
// workspace folders); every feature of the family reads this one view.
func (s *Snapshot) ChartersView(ctx context.Context, dir string) (*charterfile.View, error) {
	dir = vfs.Clean(dir)
	s.mu.Lock()
	pr := s.folders[dir]
	if pr == nil {
		pr = newPromise(s.sess.busy, func(ctx context.Context) (*charterfile.View, error) {
			return charterfile.NewViewContext(ctx, s.FS(), dir)
		})
		s.folders[dir] = pr
	}
	s.mu.Unlock()
	return pr.get(ctx)
}
