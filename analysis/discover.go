package analysis

import (
	"context"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Workspace lists the charters found under a folder.
type Workspace struct {
	RP1Charters   []string // rp1 charter.md files
	OtherCharters []string // charter.md files that are not rp1-style
	PiCharters    []string // .pi/charters/<id> directories
	Charters      []string // .charters/<id> directories (pi-charter since ADR-0014)
	// Unreadable are files named as charters (charter.md) that could not
	// be read to classify them: a FIFO, a device, no permission. Checking
	// them reports why.
	Unreadable []string
	// Ignored are the files and folders the walk skipped because git
	// ignores them or an --ignore pattern names them.
	Ignored []string
}

// DiscoverOptions tune Discover.
type DiscoverOptions struct {
	// Ignore are gitignore-style patterns of paths to skip besides what
	// git ignores, relative to Base (check --ignore, from the working
	// folder).
	Ignore []string
	Base   string
}

// skipDirs are never searched, ignored by git or not: dependencies and VCS
// data hold no charters of the project, and walking them costs seconds in
// large repositories.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".hg": true, ".svn": true}

// Discover finds every charter under root that git does not ignore
// (DiscoverWith). Symbolic links are not followed, so discovery stays
// inside root. A root that is a charter folder, or a .charters or
// .pi/charters folder, yields its charters too. It stops with ctx's error
// when ctx is done (checked per folder).
func Discover(ctx context.Context, fsys vfs.FS, root string) (Workspace, error) {
	return DiscoverWith(ctx, fsys, root, DiscoverOptions{})
}

// DiscoverWith is Discover skipping, below root, what the .gitignore files
// of the repository root is in ignore, and what opts.Ignore names. root itself is walked even when ignored: it was named.
func DiscoverWith(ctx context.Context, fsys vfs.FS, root string, opts DiscoverOptions) (Workspace, error) {
	var ws Workspace
	ig := newIgnorer(fsys, root, opts.Ignore, opts.Base)
	skip := func(p string, isDir bool) bool {
		if ig.ignored(p, isDir) {
			ws.Ignored = append(ws.Ignored, p)
			return true
		}
		return false
	}
	seenPi := map[string]bool{}
	addPi := func(parent string) {
		subs, _ := fsys.ReadDir(parent)
		for _, s := range subs {
			if p := filepath.Join(parent, s.Name()); s.IsDir() && s.Type()&fs.ModeSymlink == 0 && !seenPi[p] && !skip(p, true) {
				seenPi[p] = true
				ws.PiCharters = append(ws.PiCharters, p)
			}
		}
	}
	addCharters := func(parent string) {
		// Every folder with a charter file in it, as upstream's listing
		// sees every folder (it then skips those without a valid
		// state.json, which checks report).
		subs, _ := fsys.ReadDir(parent)
		for _, s := range subs {
			sub := filepath.Join(parent, s.Name())
			if s.IsDir() && s.Type()&fs.ModeSymlink == 0 && ChartersDirAt(sub) == sub &&
				len(charterfile.Files(fsys, sub)) > 0 && !skip(sub, true) {
				ws.Charters = append(ws.Charters, sub)
			}
		}
	}
	switch piDir, charters := PiCharterDirAt(root), ChartersDirAt(root); {
	case piDir != "":
		ws.PiCharters = []string{piDir}
		return ws, nil
	case charters != "":
		ws.Charters = []string{charters}
		return ws, nil
	case filepath.Base(root) == ".charters":
		addCharters(root)
		return ws, nil
	case pi.IsChartersFolder(root):
		addPi(root)
		return ws, nil
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			return err
		}
		ig.enter(dir)
		for _, e := range entries {
			name := e.Name()
			p := filepath.Join(dir, name)
			if e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			if e.IsDir() && skipDirs[name] {
				continue
			}
			if skip(p, e.IsDir()) {
				continue
			}
			if e.IsDir() {
				if pi.IsChartersFolder(p) {
					addPi(p)
					continue
				}
				if name == ".charters" {
					addCharters(p)
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
			k, err := classifyName(p, fsys)
			if err != nil && Classify(p, nil) != KindNone {
				ws.Unreadable = append(ws.Unreadable, p)
				continue
			}
			switch k {
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
	sort.Strings(ws.Charters)
	sort.Strings(ws.Unreadable)
	sort.Strings(ws.Ignored)
	return ws, nil
}

// classifyName reads a file only when its name could make it a charter.
func classifyName(path string, fsys vfs.FS) (Kind, error) {
	if k := Classify(path, nil); k != KindOtherCharter && k != KindRP1Charter && !strings.HasSuffix(strings.ToLower(path), ".md") {
		return k, nil
	}
	content, err := fsys.ReadFile(path)
	if err != nil {
		return KindNone, err
	}
	return Classify(path, content), nil
}

// PiCharterFiles lists the files of a pi charter directory that checks look
// at: the markdown files, the JSON sidecars and every evidence run. Whatever
// stands at one of those names is listed, a folder, a FIFO or a link out of
// the workspace too: checking it reports that it is not read.
func PiCharterFiles(fsys vfs.FS, dir string) []string {
	var files []string
	for _, name := range []string{"charter.md", "criteria.md", "REPORT.md", "state.json", "criterion-state.json"} {
		if _, err := fsys.Stat(filepath.Join(dir, name)); err == nil || vfs.LeadsOut(err) {
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
			if _, err := fsys.Stat(p); err == nil {
				files = append(files, p)
			}
		}
	}
	return files
}
