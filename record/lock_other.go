//go:build !unix

package record

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// lockName is the lock file in the charter directory while a record runs
// (systems without flock on directories).
const lockName = ".charter-lsp.lock"

// lockDir without flock: an exclusively created lock file, retried for a
// while. A crashed holder leaves the file behind; the error says so.
func lockDir(ctx context.Context, dir string) (unlock func(), err error) {
	p := filepath.Join(dir, lockName)
	deadline := time.Now().Add(30 * time.Second)
	for {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(p) }, nil
		}
		if !errors.Is(err, fs.ErrExist) || time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("lock %s (remove it if no charter-lsp is running): %w", p, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
