package workspace

import (
	"context"
	"fmt"
	"time"

	"github.com/charter-lsp/charter-lsp/status"
)

// Status is the status of the charter folder dir as of now: a
// .pi/charters/<id> register's (its View's), or, for a .charters/<id>
// folder, the status view of its generation.
func (s *Snapshot) Status(ctx context.Context, dir string, now time.Time) (*status.Status, error) {
	if status.IsChartersDir(dir) {
		fi, err := s.FS().Stat(dir)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s is not a charter folder", dir)
		}
		v, err := s.ChartersView(ctx, dir)
		if err != nil {
			return nil, err
		}
		return status.Charters(v)
	}
	v, err := s.PiView(ctx, dir)
	if err != nil {
		return nil, err
	}
	if err := status.Loaded(v.Dir); err != nil {
		return nil, err
	}
	return status.Of(v, now), nil
}
