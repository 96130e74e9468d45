package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cloned repository may name its folders with terminal escape
// sequences (git allows any byte but NUL and '/'): check's text output
// shows them escaped, as its messages already quote charter text.
func TestCheckTextEscapesFileNames(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a\x1b]0;pwned\x07\x1b[2J\rb", ".rp1", "context")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "charter.md"), []byte("# Charter\n\nfoo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := cli(t, root, "", "check", "--color", "never", ".")
	if code == 2 || !strings.Contains(out, "section-missing") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if i := strings.IndexAny(out+errOut, "\x1b\x07\r"); i >= 0 {
		t.Errorf("check passes a control character to the terminal: %q", out)
	}
	if !strings.Contains(out, `a\x1b]0;pwned\x07\x1b[2J\x0db/.rp1/context/charter.md:1:1 `) {
		t.Errorf("the file name is not shown escaped:\n%s", out)
	}
}
