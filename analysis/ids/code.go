package ids

import (
	"context"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Which files of a project are its code and tests, the files searched for
// the VAL ids they cite. A file counts when it is a source file (by its
// extension, codeExts) and
//
//   - lies under one of the project's source folders (the sourceDirs
//     setting, default src/: the folders freshness watches), or
//   - lies in a test folder (testDirs: test/, tests/, __tests__/, spec/,
//     e2e/, at any depth), or
//   - is named as a test file is (*_test.go, *.test.ts, *.spec.js,
//     test_*.py, *_test.py, *_spec.rb, *Test.java, …; IsTestFile).
//
// The walk starts at the project (the folder holding .pi/), skips folders
// that hold no code of the project (hidden ones such as .git, .pi and
// .charters, and skipDirs: node_modules, vendor, dist, build, …), never
// follows a symbolic link, lists at most MaxCodeEntries entries and reads
// no file over MaxCodeFileSize. .gitignore is not read: the freshness walk
// does not read it either, and the skipped folders are where ignored code
// lives.
const (
	MaxCodeEntries  = 50_000
	MaxCodeFileSize = 1 << 20
	maxCodeDepth    = 32
)

var (
	codeExts = set("go", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue", "svelte",
		"py", "rb", "rs", "java", "kt", "kts", "scala", "swift", "c", "h", "cc", "cpp", "hpp", "cs",
		"php", "ex", "exs", "dart", "zig", "lua", "sh", "bash", "zsh", "feature")
	testDirs = set("test", "tests", "__tests__", "spec", "e2e")
	skipDirs = set("node_modules", "vendor", "dist", "build", "target", "out", "coverage",
		"__pycache__", "venv", "bower_components")
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// IsCodeFile reports whether the file name has a source file's extension.
func IsCodeFile(name string) bool {
	ext := strings.TrimPrefix(filepath.Ext(name), ".")
	return codeExts[strings.ToLower(ext)]
}

// IsTestFile reports whether the file name is a test file's, by the naming
// rules of the common test runners.
func IsTestFile(name string) bool {
	if !IsCodeFile(name) {
		return false
	}
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	switch strings.ToLower(ext) {
	case ".go":
		return strings.HasSuffix(stem, "_test")
	case ".py":
		return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test")
	case ".rb":
		return strings.HasSuffix(stem, "_spec") || strings.HasSuffix(stem, "_test")
	case ".java", ".kt", ".scala", ".cs", ".swift":
		return strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "Spec")
	case ".exs", ".rs", ".dart", ".php":
		return strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "Test")
	case ".feature":
		return true
	}
	// JavaScript and TypeScript: x.test.ts, x.spec.jsx, x.e2e.js.
	for _, mark := range []string{".test", ".spec", ".e2e"} {
		if strings.HasSuffix(stem, mark) {
			return true
		}
	}
	return false
}

// TestGlobs are glob patterns for the test folders and test files
// outside the source folders (which the server watches already): what a
// file watcher must watch to keep the cites of tests current.
func TestGlobs() []string {
	var out []string
	for d := range testDirs {
		out = append(out, "**/"+d+"/**")
	}
	sort.Strings(out)
	return append(out, "**/*_test.*", "**/test_*.py", "**/*_spec.rb", "**/*.test.*", "**/*.spec.*", "**/*.e2e.*",
		"**/*Test.*", "**/*Tests.*", "**/*Spec.*", "**/*.feature")
}

// WalkCode calls visit for every code and test file of project (the rule
// above), with the files under sourceDirs (relative to the project) and
// the rest alike. It stops with ctx's error when ctx is done.
func WalkCode(ctx context.Context, fsys vfs.FS, project string, sourceDirs []string, visit func(path string)) error {
	var sources []string
	for _, d := range sourceDirs {
		root := filepath.Join(project, filepath.FromSlash(d))
		if vfs.Below(project, root) {
			sources = append(sources, root)
		}
	}
	budget := MaxCodeEntries
	var walk func(dir string, depth int, inSource, inTests bool) error
	walk = func(dir string, depth int, inSource, inTests bool) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if depth > maxCodeDepth || budget <= 0 {
			return nil
		}
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			return nil
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				return nil
			}
			name := e.Name()
			p := filepath.Join(dir, name)
			switch {
			case e.Type()&fs.ModeSymlink != 0:
			case e.IsDir():
				if strings.HasPrefix(name, ".") || skipDirs[name] {
					continue
				}
				src := inSource || containsPath(sources, p)
				if err := walk(p, depth+1, src, inTests || testDirs[name]); err != nil {
					return err
				}
			case e.Type().IsRegular():
				if (inSource || inTests) && IsCodeFile(name) || IsTestFile(name) {
					visit(p)
				}
			}
		}
		return nil
	}
	return walk(project, 0, containsPath(sources, project), false)
}

func containsPath(list []string, p string) bool {
	for _, x := range list {
		if x == p {
			return true
		}
	}
	return false
}

// Cite is a VAL id cited in a code or test file.
type Cite struct {
	ID string
	Ref
}

// CitesIn lists the VAL ids the code file at path, whose text is src,
// cites (EachVAL's reading), with role RoleCite.
func CitesIn(path string, src []byte) []Cite {
	var out []Cite
	var ix *source.Index
	EachVAL(src, func(id string, sp source.Span) {
		if ix == nil {
			ix = source.NewIndex(src)
		}
		out = append(out, Cite{ID: id, Ref: Ref{Path: path, Span: sp, Range: ix.Range(sp), Role: RoleCite}})
	})
	return out
}
