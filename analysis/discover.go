package analysis

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

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
	// Found, when set, is handed each charter as the walk finds it — an
	// rp1 charter file, a pi charter folder or a .charters folder — rather
	// than listing it in the Workspace returned (whose RP1Charters,
	// PiCharters and Charters then stay empty; its other lists are
	// filled): a caller that checks each charter as it comes need not
	// hold the tree's. It is called from the walk's goroutines, several at
	// once, in no particular order.
	Found func(family Family, path string)
	// Done, when set, is called with each folder the walk is finished
	// with, every charter below it handed to Found: each folder walked,
	// and each .pi/charters and .charters folder once its charters are.
	// Like Found, from several goroutines at once.
	Done func(dir string)
}

// Family is which kind of charter the walk found (DiscoverOptions.Found).
type Family string

const (
	FamilyRP1      Family = "rp1"       // an rp1 charter file
	FamilyPi       Family = "pi"        // a .pi/charters/<id> folder
	FamilyCharters Family = ".charters" // a .charters/<id> folder
)

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
	var mu sync.Mutex // ws and seenPi, which the walk's goroutines fill
	add := func(list *[]string, p string) {
		mu.Lock()
		*list = append(*list, p)
		mu.Unlock()
	}
	// found hands a charter to opts.Found, or lists it.
	found := func(family Family, list *[]string, p string) {
		if opts.Found != nil {
			opts.Found(family, p)
			return
		}
		add(list, p)
	}
	done := func(dir string) {
		if opts.Done != nil {
			opts.Done(dir)
		}
	}
	top := newIgnorer(fsys, root, opts.Ignore, opts.Base)
	skip := func(ig *ignorer, p string, isDir bool) bool {
		if ig.ignored(p, isDir) {
			add(&ws.Ignored, p)
			return true
		}
		return false
	}
	seenPi := map[string]bool{}
	addPi := func(ig *ignorer, parent string) {
		subs, _ := fsys.ReadDir(parent)
		ig = ig.enter(parent, subs) // a .gitignore in .pi/charters itself, as git reads it
		for _, s := range subs {
			if p := vfs.Join(parent, s.Name()); s.IsDir() && s.Type()&fs.ModeSymlink == 0 && !skip(ig, p, true) {
				if opts.Found != nil {
					// The walk lists each folder once: no charter comes
					// twice.
					opts.Found(FamilyPi, p)
					continue
				}
				mu.Lock()
				if !seenPi[p] {
					seenPi[p] = true
					ws.PiCharters = append(ws.PiCharters, p)
				}
				mu.Unlock()
			}
		}
	}
	addCharters := func(ig *ignorer, parent string) {
		// Every folder with a charter file in it, as upstream's listing
		// sees every folder (it then skips those without a valid
		// state.json, which checks report).
		subs, _ := fsys.ReadDir(parent)
		ig = ig.enter(parent, subs) // and in .charters
		for _, s := range subs {
			sub := vfs.Join(parent, s.Name())
			if s.IsDir() && s.Type()&fs.ModeSymlink == 0 && ChartersDirAt(sub) == sub &&
				len(charterfile.Files(fsys, sub)) > 0 && !skip(ig, sub, true) {
				found(FamilyCharters, &ws.Charters, sub)
			}
		}
	}
	switch piDir, charters := PiCharterDirAt(root), ChartersDirAt(root); {
	case piDir != "":
		found(FamilyPi, &ws.PiCharters, piDir)
		return ws, nil
	case charters != "":
		found(FamilyCharters, &ws.Charters, charters)
		return ws, nil
	case filepath.Base(root) == ".charters":
		addCharters(top, root)
		done(root)
		return ws, nil
	case pi.IsChartersFolder(root):
		addPi(top, root)
		done(root)
		return ws, nil
	}
	// The folders are walked on as many goroutines as there are
	// processors: a folder's subfolders go to an idle one, or are walked
	// by the goroutine that found them when none is idle. What the walk
	// lists is sorted at the end, so the order they run in does not show
	// (what it hands to opts.Found comes in that order). The goroutines
	// serve the whole walk, not one folder each: a new goroutine would
	// grow its stack again for every folder handed to it.
	pool := newWalkPool(runtime.GOMAXPROCS(0))
	var walk func(dir string, ig *ignorer, w *walking) error
	walk = func(dir string, ig *ignorer, w *walking) error {
		defer w.finish(done)
		if err := ctx.Err(); err != nil {
			return err
		}
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			return err
		}
		ig = ig.enter(dir, entries)
		for _, e := range entries {
			name := e.Name()
			p := vfs.Join(dir, name)
			if e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			if e.IsDir() && skipDirs[name] {
				continue
			}
			if skip(ig, p, e.IsDir()) {
				continue
			}
			if e.IsDir() {
				if pi.IsChartersFolder(p) {
					addPi(ig, p)
					done(p)
					continue
				}
				if name == ".charters" {
					addCharters(ig, p)
					done(p)
					continue
				}
				// An unreadable folder is not a reason to stop; a done
				// ctx is, and is said once the walk is over.
				sub := w.below(p)
				if !pool.try(func() { _ = walk(p, ig, sub) }) {
					_ = walk(p, ig, sub)
				}
				continue
			}
			k, err := classifyName(p, fsys)
			if err != nil && Classify(p, nil) != KindNone {
				add(&ws.Unreadable, p)
				continue
			}
			switch k {
			case KindRP1Charter:
				found(FamilyRP1, &ws.RP1Charters, p)
			case KindOtherCharter:
				add(&ws.OtherCharters, p)
			}
		}
		return nil
	}
	w := &walking{dir: root}
	w.left.Store(1)
	err := walk(root, top, w)
	pool.wait()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
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

// walkPool is the walk's goroutines: up to n of them, each made when a
// folder is handed over and none is idle, then kept for the rest of the
// walk (so each grows its stack once).
type walkPool struct {
	jobs    chan func()
	mu      sync.Mutex
	workers int // made so far
	limit   int
	pending sync.WaitGroup // folders handed over and not yet walked
	exited  sync.WaitGroup // the workers, until jobs is closed
}

func newWalkPool(n int) *walkPool {
	return &walkPool{jobs: make(chan func()), limit: n}
}

// try hands job to an idle worker, or to a new one while there are
// fewer than the limit; it reports false, the job not taken, otherwise.
func (p *walkPool) try(job func()) bool {
	p.pending.Add(1)
	select {
	case p.jobs <- job: // an idle worker took it
		return true
	default:
	}
	p.mu.Lock()
	if p.workers == p.limit {
		p.mu.Unlock()
		p.pending.Done()
		return false
	}
	p.workers++
	p.mu.Unlock()
	p.exited.Add(1)
	go func() {
		defer p.exited.Done()
		for ; job != nil; job = <-p.jobs {
			job()
			p.pending.Done()
		}
	}()
	return true
}

// wait returns once every folder handed over is walked and the workers
// are gone.
func (p *walkPool) wait() {
	p.pending.Wait()
	close(p.jobs)
	p.exited.Wait()
}

// walking is a folder the walk is in: it is done (DiscoverOptions.Done)
// when its own listing is gone through and every folder below it is done.
type walking struct {
	dir    string
	parent *walking
	left   atomic.Int32 // the folder's own walk, and each folder below not done
}

// below is the subfolder dir of w, about to be walked.
func (w *walking) below(dir string) *walking {
	w.left.Add(1)
	sub := &walking{dir: dir, parent: w}
	sub.left.Store(1)
	return sub
}

// finish is one part of w done (its own walk, or a folder below); the
// last says so through done, then finishes a part of w's parent.
func (w *walking) finish(done func(dir string)) {
	for ; w != nil && w.left.Add(-1) == 0; w = w.parent {
		done(w.dir)
	}
}

// FilesOf are the files that checks look at of a charter the walk found
// (DiscoverOptions.Found): an rp1 charter is one, a pi charter folder's
// are PiCharterFiles, a .charters folder's charterfile.Files.
func FilesOf(fsys vfs.FS, family Family, path string) []string {
	switch family {
	case FamilyPi:
		return PiCharterFiles(fsys, path)
	case FamilyCharters:
		return charterfile.Files(fsys, path)
	}
	return []string{path}
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
	listed := vfs.Listed(fsys, dir)
	for _, name := range []string{"charter.md", "criteria.md", "REPORT.md", "state.json", "criterion-state.json"} {
		typ, there := listed.Type(name)
		switch {
		case listed.Read() && !there:
			continue // not there: no need to ask
		case there && typ.IsRegular():
			files = append(files, vfs.Join(dir, name))
			continue
		}
		if _, err := fsys.Stat(vfs.Join(dir, name)); err == nil || vfs.LeadsOut(err) {
			files = append(files, vfs.Join(dir, name))
		}
	}
	var runDirs []string
	work := vfs.Join(dir, "work")
	segs, _ := fsys.ReadDir(work)
	for _, seg := range segs {
		if !seg.IsDir() || seg.Type()&fs.ModeSymlink != 0 {
			continue
		}
		evidence := vfs.Join(vfs.Join(work, seg.Name()), "evidence")
		runs, _ := fsys.ReadDir(evidence)
		for _, run := range runs {
			if run.IsDir() && run.Type()&fs.ModeSymlink == 0 {
				runDirs = append(runDirs, vfs.Join(evidence, run.Name()))
			}
		}
	}
	// Each run's folder is listed rather than its evidence.json stat'ed:
	// the evidence loader lists it anyway (to refuse a link out), and a
	// regular file there needs no more asking. A history's folders are
	// listed on as many goroutines as there are processors.
	has := make([]bool, len(runDirs))
	list := func(from, to int) {
		for i := from; i < to; i++ {
			names, err := fsys.ReadDir(runDirs[i])
			if k := slices.IndexFunc(names, func(e fs.DirEntry) bool { return e.Name() == "evidence.json" }); err == nil && k >= 0 && names[k].Type().IsRegular() {
				has[i] = true
			} else if _, err := fsys.Stat(vfs.Join(runDirs[i], "evidence.json")); err == nil {
				has[i] = true
			}
		}
	}
	if len(runDirs) <= 256 {
		list(0, len(runDirs)) // a few: not worth a goroutine
	} else {
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0))
		for part := 0; part < len(runDirs); part += 256 {
			g.Go(func() error {
				list(part, min(part+256, len(runDirs)))
				return nil
			})
		}
		_ = g.Wait()
	}
	for i, runDir := range runDirs {
		if has[i] {
			files = append(files, vfs.Join(runDir, "evidence.json"))
		}
	}
	return files
}
