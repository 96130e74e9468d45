package main

import (
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
)

// projectRoot is the folder the CLI stays in for a PATH it was given, as
// the server stays in its workspace folders: what it reads for PATH
// (projects.fs) and writes (projects.writer) must lie there once symbolic
// links are followed. It is the outermost of
//
//   - PATH itself (a folder) or the folder holding it (a file), as written;
//   - the project of the charter PATH names: the folder holding its .rp1,
//     .pi or .charters (so a .rp1 linked to another tree is not taken for
//     part of the project);
//   - the folder where the configuration lookup from PATH stops (the nearest
//     one holding .charter-lsp.jsonc or .git), so the project file read is
//     the project's.
//
// Links in PATH as written above that folder are the user's; links at or
// below it belong to the repository and are followed only while they stay
// inside it.
func projectRoot(path string, isDir bool) string {
	root := filepath.Clean(path)
	if !isDir {
		root = filepath.Dir(root)
	}
	if p := charterProject(path); p != "" && vfs.Below(p, root) {
		root = p
	}
	if p := analysis.ConfigRoot(vfs.OS, root); p != "" {
		root = p
	}
	return root
}

// charterProject is the folder holding the outermost .rp1, .pi or
// .charters in path, as written; "" when there is none.
func charterProject(path string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	for i, part := range parts {
		switch part {
		case ".rp1", ".pi", ".charters":
			if i == 0 {
				return "."
			}
			return filepath.FromSlash(strings.Join(parts[:i], "/"))
		}
	}
	return ""
}

// projects are the roots of the PATHs one command was given.
type projects []string

// add adds the root of the absolute path abs (a folder when isDir).
func (ps *projects) add(abs string, isDir bool) string {
	root := projectRoot(abs, isDir)
	for _, r := range *ps {
		if r == root {
			return root
		}
	}
	*ps = append(*ps, root)
	return root
}

// fs is the disk the command reads: nothing outside its projects.
func (ps *projects) fs() *vfs.Confined {
	return &vfs.Confined{FS: vfs.OS, Roots: func() []string { return *ps }}
}

// writer is where the command may write file: its outermost project that
// holds file as written (atomicfile.In checks the rest).
func (ps projects) writer(file string) atomicfile.Dir {
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	root := ""
	for _, r := range ps {
		if vfs.Below(r, file) && (root == "" || len(r) < len(root)) {
			root = r
		}
	}
	if root == "" {
		root = filepath.Dir(file) // unreachable for files found from a PATH: still a bound
	}
	return atomicfile.In(root)
}

// projectsOf are the projects of one PATH, and PATH made absolute; err is
// why PATH cannot be looked at (fs.ErrNotExist for a charter the interview
// is to create: its project is still known).
func projectsOf(path string) (ps projects, abs string, err error) {
	if abs, err = filepath.Abs(path); err != nil {
		return nil, "", err
	}
	fi, err := vfs.OS.Stat(abs) // the path as the user named it
	ps.add(abs, err == nil && fi.IsDir())
	return ps, abs, err
}
