package analysis

import (
	"context"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Workspace lists the charters found under a folder.
type Workspace struct {
	RP1Charters   []string // rp1 charter.md files
	OtherCharters []string // charter.md files that are not rp1-style
	PiCharters    []string // .pi/charters/<id> directories
}

// skipDirs are never searched: dependencies and VCS data hold no charters of
// the project, and walking them costs seconds in large repositories.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".hg": true, ".svn": true}

// Discover finds every charter under root. Symbolic links are not followed,
// so discovery stays inside root. It stops with ctx's error when ctx is done
// (checked per folder).
func Discover(ctx context.Context, fsys vfs.FS, root string) (Workspace, error) {
	var ws Workspace
	seenPi := map[string]bool{}
	var walk func(dir string) error
	walk = func(dir string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := e.Name()
			p := filepath.Join(dir, name)
			if e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			if e.IsDir() {
				if skipDirs[name] {
					continue
				}
				if name == "charters" && filepath.Base(dir) == ".pi" {
					subs, err := fsys.ReadDir(p)
					if err != nil {
						continue
					}
					for _, s := range subs {
						if s.IsDir() && s.Type()&fs.ModeSymlink == 0 && !seenPi[filepath.Join(p, s.Name())] {
							seenPi[filepath.Join(p, s.Name())] = true
							ws.PiCharters = append(ws.PiCharters, filepath.Join(p, s.Name()))
						}
					}
					continue
				}
				if err := walk(p); err != nil {
					if ctx.Err() != nil {
						return err
					}
					continue // an unreadable folder is not a reason to stop
				}
				continue
			}
			switch k := classifyName(p, fsys); k {
			case KindRP1Charter:
				ws.RP1Charters = append(ws.RP1Charters, p)
			case KindOtherCharter:
				ws.OtherCharters = append(ws.OtherCharters, p)
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return ws, err
	}
	sort.Strings(ws.RP1Charters)
	sort.Strings(ws.OtherCharters)
	sort.Strings(ws.PiCharters)
	return ws, nil
}

// classifyName reads a file only when its name could make it a charter.
func classifyName(path string, fsys vfs.FS) Kind {
	if k := Classify(path, nil); k != KindOtherCharter && k != KindRP1Charter && !strings.HasSuffix(strings.ToLower(path), ".md") {
		return k
	}
	content, err := fsys.ReadFile(path)
	if err != nil {
		return KindNone
	}
	return Classify(path, content)
}

// PiCharterFiles lists the files of a pi charter directory that checks look
// at: the markdown files, the JSON sidecars and every evidence run.
func PiCharterFiles(fsys vfs.FS, dir string) []string {
	var files []string
	for _, name := range []string{"charter.md", "criteria.md", "REPORT.md", "state.json", "criterion-state.json"} {
		if fi, err := fsys.Stat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() {
			files = append(files, filepath.Join(dir, name))
		}
	}
	segs, _ := fsys.ReadDir(filepath.Join(dir, "work"))
	for _, seg := range segs {
		if !seg.IsDir() || seg.Type()&fs.ModeSymlink != 0 {
			continue
		}
		runs, _ := fsys.ReadDir(filepath.Join(dir, "work", seg.Name(), "evidence"))
		for _, run := range runs {
			if !run.IsDir() || run.Type()&fs.ModeSymlink != 0 {
				continue
			}
			p := filepath.Join(dir, "work", seg.Name(), "evidence", run.Name(), "evidence.json")
			if fi, err := fsys.Stat(p); err == nil && fi.Mode().IsRegular() {
				files = append(files, p)
			}
		}
	}
	return files
}
