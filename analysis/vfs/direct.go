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
	if link := firstLink(root, path, func(string) bool { return true }); link != "" {
		target, _ := os.Readlink(link)
		return &LinkError{Path: path, Link: link, Target: target}
	}
	return nil
}

// firstLink is the first symbolic link on the way from root down to path
// (path included, root not) that counts, or "": the components are looked
// at as written, and the walk stops at the first one that does not exist.
func firstLink(root, path string, counts func(link string) bool) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return ""
	}
	p := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil {
			return ""
		}
		if fi.Mode()&fs.ModeSymlink != 0 && counts(p) {
			return p
		}
	}
	return ""
}
