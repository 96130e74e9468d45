package record

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
)

// writeState replaces criterion-state.json; tests swap it to fail half-way.
var writeState = defaultWriteState

func defaultWriteState(path string, data []byte, perm os.FileMode) error {
	return atomicfile.Write(path, data, perm)
}

// Record plans and applies entries in one step: what the CLI does, and what
// the language server's record action does too (one locked, atomic path
// for every writer).
// ctx bounds the wait for another writer's lock.
func Record(ctx context.Context, dir string, entries []Entry, opts Options) (*Result, error) {
	if err := CheckContained(dir); err != nil {
		return nil, err
	}
	res, err := Plan(vfs.OS, dir, entries, opts)
	if err != nil {
		return nil, err
	}
	if err := Apply(ctx, res); err != nil {
		return nil, err
	}
	return res, nil
}

// Apply performs res's writes under an exclusive lock on the charter
// directory. Under the lock it plans again from the disk, so concurrent
// recorders neither lose an entry of criterion-state.json nor collide on a
// run directory; res is updated to what was written. Evidence files are
// created exclusively; criterion-state.json is replaced atomically last, so
// a failure leaves the old one intact (and removes the new evidence).
func Apply(ctx context.Context, res *Result) error {
	if res == nil {
		return errors.New("nothing to apply")
	}
	if err := CheckContained(res.Dir); err != nil {
		return err
	}
	unlock, err := lockDir(ctx, res.Dir)
	if err != nil {
		return err
	}
	defer unlock()
	if res.entries != nil {
		fresh, err := Plan(vfs.OS, res.Dir, res.entries, res.opts)
		if err != nil {
			return err
		}
		*res = *fresh
	}
	return perform(res.Dir, res.Ops)
}

// perform writes ops in order, undoing created files and folders when one fails.
func perform(dir string, ops []FileOp) (err error) {
	var created []string // files and folders to remove on failure, in creation order
	defer func() {
		if err != nil {
			for i := len(created) - 1; i >= 0; i-- {
				os.Remove(created[i])
			}
		}
	}()
	for _, op := range ops {
		if err := checkInside(dir, op.Path); err != nil {
			return err
		}
		if !op.Create {
			if err := writeState(op.Path, op.Content, 0o644); err != nil {
				return err
			}
			if err := stamp(op); err != nil {
				return err
			}
			continue
		}
		dirs, err := mkdirAll(filepath.Dir(op.Path))
		created = append(created, dirs...)
		if err != nil {
			return err
		}
		// A new file (an evidence.json, a first criterion-state.json) is
		// complete before its name appears: a kill mid-write leaves no
		// empty or partial file.
		if err := atomicfile.Create(op.Path, op.Content, 0o644); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s appeared while recording; try again", op.Path)
			}
			return err
		}
		created = append(created, op.Path)
		if err := stamp(op); err != nil {
			return err
		}
	}
	return nil
}

// stamp sets the written file's modification time when op asks for one.
func stamp(op FileOp) error {
	if op.ModTime.IsZero() {
		return nil
	}
	return os.Chtimes(op.Path, op.ModTime, op.ModTime)
}

// mkdirAll creates p and its missing parents, returning those it created.
func mkdirAll(p string) ([]string, error) {
	var missing []string
	for q := p; ; q = filepath.Dir(q) {
		if _, err := os.Lstat(q); err == nil {
			break
		}
		missing = append(missing, q)
		if filepath.Dir(q) == q {
			break
		}
	}
	var created []string
	for i := len(missing) - 1; i >= 0; i-- {
		err := os.Mkdir(missing[i], 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue // made meanwhile by someone else: not ours to remove
		}
		if err != nil {
			return created, err
		}
		created = append(created, missing[i])
	}
	return created, nil
}
