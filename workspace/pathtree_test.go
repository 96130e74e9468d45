package workspace

import (
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// A path tree finds what was set by the path it was set at, and walks
// give back those paths as they were set, below any folder.
func TestPathTreePaths(t *testing.T) {
	root := filepath.FromSlash("/")
	if v := filepath.VolumeName(t.TempDir()); v != "" {
		root = v + root
	}
	paths := []string{"a", "a/b", "a/b/c.md", "a/bb/c", "x/.pi/charters/one/criteria.md", "x/y"}
	var tree pathTree[int]
	for i, p := range paths {
		paths[i] = filepath.Join(root, filepath.FromSlash(p))
		tree.set(paths[i], i+1)
	}
	for i, p := range paths {
		if v, ok := tree.get(p); !ok || v != i+1 {
			t.Errorf("get(%q) = %d, %v; want %d", p, v, ok, i+1)
		}
		if n := tree.find(p, false); n == nil || n.path() != p {
			t.Errorf("find(%q).path() is not its path", p)
		}
	}
	if _, ok := tree.get(filepath.Join(root, "a", "c")); ok {
		t.Error("a path never set was found")
	}
	for _, none := range []string{filepath.Join(root, "a", "c"), filepath.Join(root, "x", ".pi", "charters", "two")} {
		if got := tree.paths(none); got != nil {
			t.Errorf("paths(%q) = %q, want none", none, got)
		}
	}
	for _, under := range []string{"", paths[0], paths[1], filepath.Join(root, "x")} {
		var got, want []string
		tree.walk(under, func(p string, _ int) { got = append(got, p) })
		if listed := tree.paths(under); !slices.Equal(listed, got) || len(listed) != cap(listed) {
			t.Errorf("paths(%q) = %q (room for %d), walk gives %q", under, listed, cap(listed), got)
		}
		for _, p := range paths {
			if under == "" || p == under || vfs.Below(under, p) {
				want = append(want, p)
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if len(got) != len(want) {
			t.Fatalf("walk(%q) = %q, want %q", under, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("walk(%q) = %q, want %q", under, got, want)
			}
		}
	}
}
