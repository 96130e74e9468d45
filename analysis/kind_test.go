package analysis

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		path    string
		content string
		want    Kind
	}{
		{"/p/.pi/charters/auth/charter.md", "# Charter", KindPiCharter},
		{"/p/.pi/charters/auth/criteria.md", "", KindCriteria},
		{"/p/.pi/charters/auth/REPORT.md", "", KindReport},
		{"/p/.pi/charters/auth/state.json", "", KindState},
		{"/p/.pi/charters/auth/criterion-state.json", "", KindCriterionState},
		{"/p/.pi/charters/auth/work/_charter/evidence/2026-11-10T08-00-00-000Z/evidence.json", "", KindEvidence},
		{"/p/.pi/charters/auth/work/_charter/notes.json", "", KindNone},
		{".pi/charters/auth/criteria.md", "", KindCriteria},
		{"/p/.rp1/context/charter.md", "# Anything", KindRP1Charter},
		{"/p/docs/CHARTER.md", "", KindRP1Charter}, // empty: an interview can start here
		{"/p/docs/charter.md", "# T\n\n## Target Users\n", KindRP1Charter},
		{"/p/docs/charter.md", "# T\r\n\r\n## Scratch Pad\r\n", KindRP1Charter},
		{"/p/docs/charter.md", "# Team charter\n\n## Working agreements\n", KindOtherCharter},
		{"/p/README.md", "## Target Users", KindNone},
		{"/p/notes/resume.md", "# Project Charter: X\n", KindRP1Charter},
		{"/p/notes/resume.md", "# Notes\n\n## Scratch Pad\n", KindRP1Charter},
		{"/p/notes/resume.md", "# Notes\n\n# Project Charter: X\n", KindNone},
		{"/p/.charter-lsp.jsonc", "{}", KindConfig},
		// Real charters put the five sections under the title as ###.
		{"/p/docs/charter.md", "# Project Charter: X\n\n### Problem & Context\n", KindRP1Charter},
		{"/p/docs/charter.md", "# Project Charter: X\n", KindRP1Charter},
		// rp1 writes front matter before the title.
		{"/p/notes/c.md", "---\nrp1_doc_id: 6326034d\n---\n# Project Charter: X\n", KindRP1Charter},
		// A document that shows a charter in a code block is not one (issue 16).
		{"/p/docs/diagnostics.md", "# Diagnostics\n\n```markdown\n## Scratch Pad\n### Q1: Brain Dump\n```\n", KindNone},
		{"/p/docs/charter.md", "# Team\n\n~~~\n## Target Users\n~~~\n", KindOtherCharter},
		{"/p/notes/resume.md", "# Notes\n\n    ## Scratch Pad\n", KindNone}, // indented code
		// pi-charter since ADR-0014. A current charter.md has "## Scope",
		// one of rp1's headings: it must not be taken for an rp1 charter.
		{"/p/.charters/20260702-101500-ship/charter.md", "# Objective\nShip it.\n## Scope\nCore.\n", KindChartersCharter},
		{"/p/.charters/20260702-101500-ship/state.json", "{}", KindChartersState},
		{"/p/.charters/20260702-101500-ship/events.jsonl", "", KindChartersEvents},
		{".charters/x/charter.md", "", KindChartersCharter},
		{"/p/.charters/20260702-101500-ship/REPORT.md", "", KindNone},
		{"/p/.charters/20260702-101500-ship/work/charter.md", "## Scope\n", KindNone},
		{"/p/.charters/.mutation.lock/charter.md", "lock notes", KindOtherCharter}, // the SQLite lock folder is no charter
		{"/p/.charters/charter.md", "## Target Users\n", KindRP1Charter},           // not in a charter folder
		// A generic heading is not rp1's: a working-group charter with
		// "## Scope" got five section-missing warnings.
		{"/p/charters/x/charter.md", "## Scope\n", KindOtherCharter},
		{"/p/docs/charter.md", "# Working Group Charter\n\n## Mission\nx\n\n## Scope\ny\n", KindOtherCharter},
		{"/p/docs/charter.md", "# Charter\n\n## Problem\nx\n\n## Users\ny\n", KindOtherCharter},
		{"/p/.rp1/context/charter.md", "# Charter\n\n## Scope\ny\n", KindRP1Charter}, // under .rp1/
		{"/p/docs/charter.md", "# T\n\n### Scope Guardrails\n", KindRP1Charter},
		// What is a heading is rp1's parser's reading (rp1.Headings): a pad
		// heading with two spaces is a pad there, so the file is rp1's; a
		// heading inside an HTML comment block is none; a closing run of #
		// needs a space before it.
		{"/p/notes/resume.md", "# Notes\n\n## Scratch  Pad\n", KindRP1Charter},
		{"/p/docs/charter.md", "# T\n\n## scratch pad ##\n", KindRP1Charter},
		{"/p/docs/charter.md", "# Team\n\n<!--\n## Target Users\n-->\n", KindOtherCharter},
		{"/p/notes/resume.md", "# Notes\n\n<!--\n## Scratch Pad\n-->\n", KindNone},
	}
	for _, c := range cases {
		if got := Classify(c.path, []byte(c.content)); got != c.want {
			t.Errorf("Classify(%q, %q) = %q, want %q", c.path, c.content, got, c.want)
		}
	}
}

// TestClassifyAgreesWithParser: a markdown file the kind says holds a
// scratch pad is one the rp1 parser finds a scratch pad in, and the other
// way round (both read headings through rp1.Headings).
func TestClassifyAgreesWithParser(t *testing.T) {
	for _, text := range []string{
		"# Notes\n\n## Scratch Pad\n", "# Notes\n\n## Scratch  Pad\n", "# Notes\n\n##  scratch\tpad  \n",
		"# Notes\n\n```\n## Scratch Pad\n```\n", "# Notes\n\n<!--\n## Scratch Pad\n-->\n", "# Notes\n\n    ## Scratch Pad\n",
		"---\nx: 1\n---\n## Scratch Pad\n", "# Notes\n\n### Scratch Pad\n", "# Notes\n\n## Scratch Pads\n",
	} {
		kind := Classify("/p/notes/resume.md", []byte(text)) == KindRP1Charter
		parsed := rp1.Parse([]byte(text)).ScratchPad != nil
		if kind != parsed {
			t.Errorf("%q: kind says rp1 %v, the parser finds a scratch pad %v", text, kind, parsed)
		}
	}
}

func TestPiCharterDir(t *testing.T) {
	for path, want := range map[string]string{
		"/p/.pi/charters/auth/criteria.md":              "/p/.pi/charters/auth",
		"/p/.pi/charters/auth/work/x/evidence/s/e.json": "/p/.pi/charters/auth",
		"/p/.pi/charters/auth":                          "",
		"/p/.pi/other/auth/criteria.md":                 "",
	} {
		if got := PiCharterDir(path); got != want {
			t.Errorf("PiCharterDir(%q) = %q, want %q", path, got, want)
		}
	}
}

// A command names a charter by its folder or any file in it; the folder
// of charters and the folders around it name none.
func TestCharterFolderAt(t *testing.T) {
	for path, want := range map[string][3]string{ // PiCharterDirAt, ChartersDirAt, CharterFolderAt
		"/p/.pi/charters/auth":                  {"/p/.pi/charters/auth", "", "/p/.pi/charters/auth"},
		"/p/.pi/charters/auth/criteria.md":      {"/p/.pi/charters/auth", "", "/p/.pi/charters/auth"},
		"/p/.pi/charters/auth/work/m1":          {"/p/.pi/charters/auth", "", "/p/.pi/charters/auth"},
		"/p/.charters/20260101-000000-x":        {"", "/p/.charters/20260101-000000-x", "/p/.charters/20260101-000000-x"},
		"/p/.charters/20260101-000000-x/a.json": {"", "/p/.charters/20260101-000000-x", "/p/.charters/20260101-000000-x"},
		"/p/.charters/.mutation.lock":           {"", "", ""},
		"/p/.pi/charters":                       {"", "", ""},
		"/p/.charters":                          {"", "", ""},
		"/p":                                    {"", "", ""},
	} {
		got := [3]string{PiCharterDirAt(path), ChartersDirAt(path), CharterFolderAt(path)}
		for i := range got {
			got[i] = filepath.ToSlash(got[i])
		}
		if got != want {
			t.Errorf("%s: PiCharterDirAt, ChartersDirAt, CharterFolderAt = %q, want %q", path, got, want)
		}
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".rp1/context/charter.md", "# C\n")
	write("teams/charter.md", "# Team rules\n")
	write(".pi/charters/a/criteria.md", "")
	write(".pi/charters/b/charter.md", "")
	write("node_modules/x/.rp1/context/charter.md", "")
	write(".pi/charters/a/work/_charter/evidence/s1/evidence.json", "{}")
	write(".charters/20260702-101500-ship/charter.md", "# Objective\nShip it.\n## Scope\nCore.\n")
	write(".charters/20260702-101500-ship/state.json", "{}")
	write(".charters/ship-it/state.json", "{}")
	write(".charters/20260703-000000-empty/notes.txt", "")
	os.MkdirAll(filepath.Join(root, ".charters/.mutation.lock"), 0o755)
	write("sub/.charters/20260704-000000-nested/events.jsonl", "")
	os.Symlink("/", filepath.Join(root, "escape"))

	ws, err := Discover(context.Background(), vfs.OS, root)
	if err != nil {
		t.Fatal(err)
	}
	want := Workspace{
		RP1Charters:   []string{filepath.Join(root, ".rp1/context/charter.md")},
		OtherCharters: []string{filepath.Join(root, "teams/charter.md")},
		PiCharters:    []string{filepath.Join(root, ".pi/charters/a"), filepath.Join(root, ".pi/charters/b")},
		Charters: []string{filepath.Join(root, ".charters/20260702-101500-ship"), filepath.Join(root, ".charters/ship-it"),
			filepath.Join(root, "sub/.charters/20260704-000000-nested")},
	}
	if !reflect.DeepEqual(ws, want) {
		t.Fatalf("Discover = %+v\nwant %+v", ws, want)
	}
	files := PiCharterFiles(vfs.OS, filepath.Join(root, ".pi/charters/a"))
	wantFiles := []string{
		filepath.Join(root, ".pi/charters/a/criteria.md"),
		filepath.Join(root, ".pi/charters/a/work/_charter/evidence/s1/evidence.json"),
	}
	if !reflect.DeepEqual(files, wantFiles) {
		t.Fatalf("PiCharterFiles = %v, want %v", files, wantFiles)
	}
}

// TestDocsAreNotCharters: our own documentation shows charters in code
// blocks; none of it is taken for an rp1 charter (issue 16: docs/diagnostics.md
// got five section-missing warnings).
func TestDocsAreNotCharters(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md", "../interview/README.md")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if k := Classify(f, b); k != KindNone {
			t.Errorf("%s is classified %q", f, k)
		}
	}
}

// TestDiscoverFromCharterFolders: `check` given a charter folder, or the
// .charters / .pi/charters folder itself, finds its charters (it used to
// find nothing and pass silently).
func TestDiscoverFromCharterFolders(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{".charters/20260702-101500-a/charter.md", ".charters/20260703-101500-b/state.json", ".pi/charters/v3/criteria.md"} {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	for arg, want := range map[string]Workspace{
		".charters/20260702-101500-a":      {Charters: []string{filepath.Join(root, ".charters/20260702-101500-a")}},
		".charters/20260702-101500-a/work": {Charters: []string{filepath.Join(root, ".charters/20260702-101500-a")}},
		".charters":                        {Charters: []string{filepath.Join(root, ".charters/20260702-101500-a"), filepath.Join(root, ".charters/20260703-101500-b")}},
		".pi/charters":                     {PiCharters: []string{filepath.Join(root, ".pi/charters/v3")}},
		".pi/charters/v3":                  {PiCharters: []string{filepath.Join(root, ".pi/charters/v3")}},
	} {
		ws, err := Discover(context.Background(), vfs.OS, filepath.Join(root, arg))
		if err != nil || !reflect.DeepEqual(ws, want) {
			t.Errorf("Discover(%s) = %+v, %v\nwant %+v", arg, ws, err, want)
		}
	}
}

func TestDiscoverStopsWhenCancelled(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".pi", "charters", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ws, err := Discover(ctx, vfs.OS, root); !errors.Is(err, context.Canceled) || len(ws.PiCharters) != 0 {
		t.Errorf("cancelled discovery = %+v, %v", ws, err)
	}
}

// BenchmarkClassifyMarkdown: deciding that a large markdown file is no rp1
// charter reads every heading of it (the whole file).
func BenchmarkClassifyMarkdown(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("## A heading\n\nSome prose about the design, with `code` and a [link](x.md).\n\n```go\nfunc f() {}\n```\n\n- a list item\n- another\n\n")
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if Classify("/p/docs/design.md", src) != KindNone {
			b.Fatal("classified as a charter")
		}
	}
}
