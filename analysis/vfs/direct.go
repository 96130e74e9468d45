package vfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LinkError is a path refused because a symbolic link lies on the way to
// it from its root (or is the path itself), even one that stays inside.
type LinkError struct {
	Path, Link, Target string
}

func (e *LinkError) Error() string {
	if e.Link == e.Path {
		return fmt.Sprintf("%s is a symbolic link (to %s)", e.Path, e.Target)
	}
	return fmt.Sprintf("%s is reached through the symbolic link %s (to %s)", e.Path, e.Link, e.Target)
}

// CheckDirect is CheckWrite, and no symbolic link at all between root and
// path, path included: for edits another program makes on our behalf (the
// editor applies the server's workspace edits), which cannot be bound to an
// os.Root as OpenWrite's are. Links inside root itself (root's own path)
// do not count.
func CheckDirect(root, path string) error {
	root, path, err := absBoth(root, path)
	if err != nil {
		return err
	}
	if err := CheckWrite(root, path); err != nil {
		return err
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return outsideError(root, path)
	}
	p := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil // not there yet: nothing further can be a link
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			return &LinkError{Path: path, Link: p, Target: target}
		}
	}
	return nil
}
