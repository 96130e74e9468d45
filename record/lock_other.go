//go:build !unix

package record

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
)

// lockName is the lock file in the charter directory while a record runs
// (systems without flock on directories).
const lockName = ".charter-lsp.lock"

// lockDir without flock: an exclusively created lock file, retried for a
// while. A crashed holder leaves the file behind; the error says so.
func lockDir(ctx context.Context, dir string) (unlock func(), err error) {
	p := filepath.Join(dir, lockName)
	in := atomicfile.In(dir)
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := in.Create(p, nil, 0o644)
		if err == nil {
			return func() { in.Remove(p) }, nil
		}
		if !errors.Is(err, fs.ErrExist) || time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("lock %s (remove it if no charter-lsp is running): %w", p, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
