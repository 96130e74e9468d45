package vfs

import (
	"os"
	"path/filepath"
	"strings"
)

// Within reports whether path is root or lies below it once the symbolic
// links of both are resolved. It is the one containment rule of the code
// base: the server bounds its reads and writes by the workspace folders
// with it, record bounds its writes by the charter folder, the CLI bounds
// --charter by the project, and the freshness clock bounds its source
// folders by the project. A path that does not exist yet (a file about to
// be created) is judged by its nearest existing ancestor; a link that
// cannot be resolved (dangling, looping) is outside everything.
func Within(root, path string) bool {
	if !filepath.IsAbs(root) || !filepath.IsAbs(path) {
		return false
	}
	real, ok := Resolve(path)
	if !ok {
		return false
	}
	realRoot, ok := Resolve(root)
	if !ok {
		return false
	}
	return Below(realRoot, real)
}

// WithinAny reports whether path is Within one of roots.
func WithinAny(path string, roots []string) bool {
	for _, r := range roots {
		if Within(r, path) {
			return true
		}
	}
	return false
}

// Below reports whether the clean path p is dir or lies below it, as
// written (no links resolved).
func Below(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// Resolve evaluates the symbolic links of the absolute path; for a path
// that does not exist it resolves the longest existing prefix and appends
// the rest. ok is false when an existing part cannot be resolved.
func Resolve(path string) (string, bool) {
	path = filepath.Clean(path)
	var rest []string
	for p := path; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{real}, rest...)...), true
		}
		if _, err := os.Lstat(p); err == nil {
			// Exists but cannot be resolved (a dangling or looping link):
			// refuse to guess where it points.
			return "", false
		}
		parent := filepath.Dir(p)
		if parent == p {
			return path, true
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}
