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

func defaultWriteState(dir atomicfile.Dir, path string, data []byte, perm os.FileMode) error {
	return dir.Write(path, data, perm)
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

// perform writes ops in order, undoing created files and folders when one
// fails. Every write stays in the charter directory (atomicfile.In: no
// ".." out of it, no symbolic link on the way that leads out).
func perform(dir string, ops []FileOp) (err error) {
	in := atomicfile.In(dir)
	var created []string // files and folders to remove on failure, in creation order
	defer func() {
		if err != nil {
			for i := len(created) - 1; i >= 0; i-- {
				in.Remove(created[i])
			}
		}
	}()
	for _, op := range ops {
		if !op.Create {
			if err := writeState(in, op.Path, op.Content, 0o644); err != nil {
				return err
			}
			if err := stamp(in, op); err != nil {
				return err
			}
			continue
		}
		dirs, err := in.MkdirAll(filepath.Dir(op.Path), 0o755)
		created = append(created, dirs...)
		if err != nil {
			return err
		}
		// A new file (an evidence.json, a first criterion-state.json) is
		// complete before its name appears: a kill mid-write leaves no
		// empty or partial file.
		if err := in.Create(op.Path, op.Content, 0o644); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s appeared while recording; try again", op.Path)
			}
			return err
		}
		created = append(created, op.Path)
		if err := stamp(in, op); err != nil {
			return err
		}
	}
	return nil
}

// stamp sets the written file's modification time when op asks for one.
func stamp(in atomicfile.Dir, op FileOp) error {
	if op.ModTime.IsZero() {
		return nil
	}
	return in.Chtimes(op.Path, op.ModTime)
}
