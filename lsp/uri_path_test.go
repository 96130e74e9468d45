package lsp

import (
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

// A document URI becomes a path only when it names a local, absolute file
// on the system the server runs on; every other form is refused with a
// reason, so containment never judges a path that means something else
// (relative to the server's folder, another host's, a Windows device or
// data stream). The Windows forms are checked on every system.
func TestFilePathForms(t *testing.T) {
	for _, c := range []struct {
		goos, uri string
		want      string // the path, or "!" and part of the refusal
	}{
		{"linux", "file:///ws/charter.md", "/ws/charter.md"},
		{"linux", "file:///ws/a%20b/charter.md", "/ws/a b/charter.md"},
		{"linux", "file:///ws/../etc/passwd", "/ws/../etc/passwd"}, // cleaned, then outside
		{"linux", "file:charter.md", "/charter.md"},
		{"linux", "file:///C:/ws/charter.md", "!not an absolute path"}, // would be relative to the server's folder
		{"linux", "file://host/ws/charter.md", "!names the host"},
		{"linux", "file://localhost/etc/passwd", "!names the host"},
		{"linux", "file:///ws/%00x", "!NUL"},
		{"linux", "untitled:Untitled-1", "!only file: URIs"},
		{"linux", "https://example.com/charter.md", "!only file: URIs"},
		{"darwin", "file:///Users/a/ws/charter.md", "/Users/a/ws/charter.md"},

		{"windows", "file:///C:/ws/charter.md", `c:\ws\charter.md`},
		{"windows", "file:///c%3A/ws/charter.md", `c:\ws\charter.md`},
		{"windows", "file:C:/ws/charter.md", `c:\ws\charter.md`},
		{"windows", "file://server/share/ws/charter.md", `\\server\share\ws\charter.md`},
		{"windows", "file:///ws/charter.md", "!no drive letter"},
		{"windows", "file:///c:", "!no drive letter"},
		{"windows", "file://C:/ws/charter.md", "!not a valid host name"},
		{"windows", "file://server/", "!no drive letter"},
		{"windows", "file://./c:/ws/charter.md", "!device namespace"},
		{"windows", "file://%3F/c:/ws/charter.md", "!device namespace"},
		{"windows", "file:///c:/ws/CON", "!device name"},
		{"windows", "file:///c:/ws/nul.md", "!device name"},
		{"windows", "file:///c:/ws/Com1/charter.md", "!device name"},
		{"windows", "file:///c:/ws/lpt%C2%B9.txt", "!device name"},
		{"windows", "file:///c:/ws/CONOUT$", "!device name"},
		{"windows", "file:///c:/ws/aux%20.md", "!device name"},
		{"windows", "file:///c:/ws/charter.md:evil", "!alternate data stream"},
		{"windows", "file:///c:/ws/charter.md::$DATA", "!alternate data stream"},
		{"windows", "file:///c:/ws/charter.md.", "!ends in a dot or a space"},
		{"windows", "file:///c:/ws/.git%20/hooks/pre-commit", "!ends in a dot or a space"},
		{"windows", "file:///c:/ws/a%3Eb.md", "!character Windows does not allow"},
		{"windows", "file:///c:/ws/console.md", `c:\ws\console.md`}, // CON is only the whole base name
	} {
		u, err := uri.Parse(c.uri)
		if err != nil {
			t.Fatalf("%s: %v", c.uri, err)
		}
		got, err := filePathFor(u, c.goos)
		if want, refused := strings.CutPrefix(c.want, "!"); refused {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s on %s = %q, %v; want a refusal saying %q", c.uri, c.goos, got, err, want)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s on %s = %q, %v; want %q", c.uri, c.goos, got, err, c.want)
		}
	}
}

// On this system filePath cleans what filePathFor returns: no "..", and
// the workspace containment then judges the clean path.
func TestFilePathIsClean(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX forms")
	}
	p, err := filePath("file:///ws/docs/../../etc/passwd")
	if err != nil || p != "/etc/passwd" {
		t.Fatalf("filePath = %q, %v", p, err)
	}
	if InsideFolders(p, []string{"/ws"}) {
		t.Error("a cleaned path out of the workspace is inside it")
	}
}

// The interview never edits inside a .git folder, however the file system
// spells it.
func TestGitFolderNames(t *testing.T) {
	for _, name := range []string{".git", ".GIT", ".Git", ".g\u200cit", ".git\u200d", "\ufeff.git", ".git.", ".git ", ".git. .", "GIT~1", "git~1"} {
		if !isDotGit(name) {
			t.Errorf("%q is not taken for .git", name)
		}
		if !inGitDir("/ws/" + name + "/hooks/charter.md") {
			t.Errorf("a charter.md under %q is not taken for one in .git", name)
		}
	}
	for _, name := range []string{"git", ".gitignore", ".github", "git~2", ".gît", "x.git"} {
		if isDotGit(name) {
			t.Errorf("%q is taken for .git", name)
		}
	}
}
