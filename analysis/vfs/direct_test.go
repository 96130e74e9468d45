package vfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheckDirect(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "real", "sub"), 0o755))
	must(os.WriteFile(filepath.Join(root, "real", "sub", "f.md"), nil, 0o644))
	must(os.Symlink("real", filepath.Join(root, "link")))                     // a folder link that stays inside
	must(os.Symlink("sub/f.md", filepath.Join(root, "real", "file-link.md"))) // a file link that stays inside
	must(os.Symlink(outside, filepath.Join(root, "out")))                     // a link out
	for _, tc := range []struct {
		path string
		want string // "" ok, "link", "outside"
	}{
		{"real/sub/f.md", ""},
		{"real/sub/new.md", ""}, // not there yet
		{"link/sub/f.md", "link"},
		{"real/file-link.md", "link"},
		{"out/x.md", "outside"},
		{"../elsewhere.md", "outside"},
	} {
		err := CheckDirect(root, filepath.Join(root, filepath.FromSlash(tc.path)))
		var le *LinkError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want ok", tc.path, err)
		case tc.want == "link" && !errors.As(err, &le):
			t.Errorf("%s: %v, want a LinkError", tc.path, err)
		case tc.want == "outside" && !errors.Is(err, ErrOutside):
			t.Errorf("%s: %v, want outside", tc.path, err)
		}
	}
}
