package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// tally counts what a session asks of the disk, per path.
type tally struct {
	vfs.FS
	mu                 sync.Mutex
	reads, lists       map[string]int
	missingInListedDir []string // stats of a name its folder's listing (already made) lacks
	listed             map[string]map[string]bool
}

func newTally() *tally {
	return &tally{FS: vfs.OS, reads: map[string]int{}, lists: map[string]int{}, listed: map[string]map[string]bool{}}
}

func (t *tally) ReadFile(name string) ([]byte, error) {
	t.mu.Lock()
	t.reads[name]++
	t.mu.Unlock()
	return t.FS.ReadFile(name)
}

func (t *tally) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := t.FS.ReadDir(name)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lists[name]++
	names := map[string]bool{}
	for _, e := range es {
		names[e.Name()] = true
	}
	t.listed[name] = names
	return es, err
}

func (t *tally) Stat(name string) (fs.FileInfo, error) {
	fi, err := t.FS.Stat(name)
	t.mu.Lock()
	defer t.mu.Unlock()
	if names, ok := t.listed[filepath.Dir(name)]; ok && !names[filepath.Base(name)] && errors.Is(err, fs.ErrNotExist) {
		t.missingInListedDir = append(t.missingInListedDir, name)
	}
	return fi, err
}

// readOnce checks that each file was read once and each folder listed
// once; placed are the files a diagnostic is on or points at.
func (t *tally) readOnce(tb testing.TB, placed map[string]bool) {
	tb.Helper()
	for p, n := range t.reads {
		// A run is not kept: one a diagnostic is on or points at is read
		// again to place it.
		if n > 1 && !(n == 2 && placed[p] && isEvidenceRun(p)) {
			tb.Errorf("%s read %d times", p, n)
		}
	}
	for p, n := range t.lists {
		if n > 1 {
			tb.Errorf("%s listed %d times", p, n)
		}
	}
}

// monorepo writes n packages of bench/gen's monorepo and lists their
// charter files as check does, through snap.
func monorepo(t *testing.T, n int, snap *Snapshot) (root string, files []string) {
	t.Helper()
	root = t.TempDir()
	if err := (gen.Monorepo{Packages: n}).Write(root); err != nil {
		t.Fatal(err)
	}
	files = charterFiles(t, snap, root)
	if len(files) != n*10 {
		t.Fatalf("%d files found in %d packages, want %d", len(files), n, n*10)
	}
	return root, files
}

// charterFiles lists the charter files under root as check does, through
// snap.
func charterFiles(t *testing.T, snap *Snapshot, root string) (files []string) {
	t.Helper()
	ws, err := analysis.Discover(context.Background(), snap.FS(), root)
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, ws.RP1Charters...)
	for _, dir := range ws.PiCharters {
		files = append(files, analysis.PiCharterFiles(snap.FS(), dir)...)
	}
	for _, dir := range ws.Charters {
		files = append(files, charterfile.Files(snap.FS(), dir)...)
	}
	return files
}

// The walk and the checks share what the session read: each file is read
// once (an evidence run a diagnostic is on or points at twice: runs are
// not kept, and are read again to place it), each
// folder listed once, and a name a listed folder lacks (the
// project configuration looked up in every folder above a file) is not
// asked of the disk at all.
func TestMonorepoReadOnce(t *testing.T) {
	disk := newTally()
	sess := NewSession(Options{Disk: disk})
	snap := sess.Update(Change{Settings: &Settings{}})
	_, files := monorepo(t, 12, snap)
	placed := map[string]bool{} // files a diagnostic is on or points at
	var mu sync.Mutex
	err := snap.DiagnosticsOf(context.Background(), files, false, func(i int, ds []diag.Diagnostic) {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range ds {
			placed[d.File] = true
			for _, r := range d.Related {
				placed[r.File] = true
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	disk.readOnce(t, placed)
	if len(disk.missingInListedDir) > 0 {
		t.Errorf("stat'ed %d names their listed folder lacks, such as %s", len(disk.missingInListedDir), disk.missingInListedDir[0])
	}
}

// DiagnosticsOf answers what Diagnostics answers file by file, released
// or not; released, the session holds nothing of the tree afterwards.
func TestDiagnosticsOfAgreesAndReleases(t *testing.T) {
	ctx := context.Background()
	one := NewSession(Options{})
	snap1 := one.Update(Change{Settings: &Settings{}})
	root, files := monorepo(t, 15, snap1)
	want := fileByFile(t, snap1, files)
	for _, release := range []bool{false, true} {
		sess := NewSession(Options{})
		snap := sess.Update(Change{Settings: &Settings{}})
		_, _ = analysis.Discover(ctx, snap.FS(), root)
		if got := diagnosticsOf(t, snap, files, release); !reflect.DeepEqual(got, want) {
			t.Errorf("release %v: DiagnosticsOf differs from Diagnostics file by file", release)
		}
		if !release {
			continue
		}
		sess.Wait()
		under := func(p string) bool { return strings.HasPrefix(p, root+string(filepath.Separator)) }
		kept := map[string]bool{}
		sess.disk.held.walk("", func(p string, _ held) { kept[p] = true })
		snap.read.walk("", func(p string, _ *File) { kept[p] = true })
		for _, m := range []map[string]bool{kept,
			keys(snap.charters), keys(snap.folders), keys(snap.single), keys(snap.configs), keys(snap.lookups), keys(snap.clocks)} {
			for p := range m {
				if under(p) {
					t.Errorf("still held after release: %s", p)
				}
			}
		}
	}
}

// fileByFile is Diagnostics of each of files.
func fileByFile(t *testing.T, snap *Snapshot, files []string) [][]diag.Diagnostic {
	t.Helper()
	var out [][]diag.Diagnostic
	for _, f := range files {
		ds, err := snap.Diagnostics(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ds)
	}
	return out
}

// diagnosticsOf is DiagnosticsOf files, in their order.
func diagnosticsOf(t *testing.T, snap *Snapshot, files []string, release bool) [][]diag.Diagnostic {
	t.Helper()
	out := make([][]diag.Diagnostic, len(files))
	var mu sync.Mutex
	err := snap.DiagnosticsOf(context.Background(), files, release, func(i int, ds []diag.Diagnostic) {
		mu.Lock()
		out[i] = ds
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keys[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// A long history's register is first checked with the runs
// criterion-state.json names; when it names each VAL's latest run, that is
// the answer reading every run gives.
func TestPreviewIsTheFullAnswer(t *testing.T) {
	defer func(n int) { PreviewRuns = n }(PreviewRuns)
	PreviewRuns = 500
	root := t.TempDir()
	criteria, err := gen.Project{Milestones: 2, VALs: 5, Runs: 600, Sources: 3, State: true}.Write(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sess := NewSession(Options{})
	snap := sess.Update(Change{Settings: &Settings{}})
	preview, ok, err := snap.Preview(ctx, criteria)
	if err != nil || !ok {
		t.Fatalf("Preview = %v, %v", ok, err)
	}
	if _, _, loading := snap.Loading(filepath.Dir(criteria)); loading {
		t.Error("the preview started the full load")
	}
	full, err := snap.Diagnostics(ctx, criteria)
	if err != nil {
		t.Fatal(err)
	}
	if len(full) == 0 || !reflect.DeepEqual(preview, full) {
		t.Errorf("preview differs from the full answer:\n%v\n%v", preview, full)
	}
	if _, ok, _ := snap.Preview(ctx, criteria); ok {
		t.Error("a preview once every run is read")
	}
	// A short history is not previewed.
	PreviewRuns = 1000
	other := NewSession(Options{}).Update(Change{Settings: &Settings{}})
	if _, ok, _ := other.Preview(ctx, criteria); ok {
		t.Error("a history shorter than PreviewRuns previewed")
	}
}

// check's walk of a folder hands each charter to a Stream as it finds it
// (analysis.DiscoverOptions.Found) and says when it is done with each
// folder (Done → Stream.Walked): the files are checked as they would be
// from a list, each read once and each folder listed once although the
// charters are released as they go, and what the session holds of the
// tree at any moment is the packages in flight, not the tree.
func TestStreamedWalkReadsOnceHoldsInFlight(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	const n = 60
	ctx := context.Background()
	one := NewSession(Options{})
	root, files := monorepo(t, n, one.Update(Change{Settings: &Settings{}}))
	want := map[string][]diag.Diagnostic{}
	var mu sync.Mutex
	err := one.Update(Change{Settings: &Settings{}}).DiagnosticsOf(ctx, files, false, func(i int, ds []diag.Diagnostic) {
		mu.Lock()
		want[files[i]] = ds
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}

	disk := newTally()
	sess := NewSession(Options{Disk: disk})
	snap := sess.Update(Change{Settings: &Settings{}})
	packages := filepath.Join(root, "packages")
	got := map[string][]diag.Diagnostic{}
	placed := map[string]bool{}
	maxHeld := 0
	st := snap.Stream(ctx, true, func(i int, path string, ds []diag.Diagnostic) {
		sess.disk.mu.Lock()
		held := 0
		if node := sess.disk.held.find(packages, false); node != nil {
			held = node.numKids()
		}
		sess.disk.mu.Unlock()
		mu.Lock()
		defer mu.Unlock()
		got[path] = ds
		maxHeld = max(maxHeld, held)
		for _, d := range ds {
			placed[d.File] = true
			for _, r := range d.Related {
				placed[r.File] = true
			}
		}
	})
	_, err = analysis.DiscoverWith(st.Context(), snap.FS(), root, analysis.DiscoverOptions{
		Found: func(family analysis.Family, path string) { st.Add(analysis.FilesOf(snap.FS(), family, path)...) },
		Done:  st.Walked,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Wait(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the streamed walk's diagnostics differ from DiagnosticsOf's (%d files, want %d)", len(got), len(want))
	}
	disk.readOnce(t, placed)
	// The walk's goroutines and the checks' (two each, and the caller's)
	// each hold a package or two at a time.
	if maxHeld > 12 {
		t.Errorf("%d of %d packages held at once during the walk", maxHeld, n)
	}
	t.Logf("at most %d of %d packages held at once", maxHeld, n)
	sess.Wait()
	sess.disk.held.walk("", func(p string, _ held) {
		if strings.HasPrefix(p, root+string(filepath.Separator)) {
			t.Errorf("still held after the walk: %s", p)
		}
	})
}

// howRead wraps a disk that can read a listed file at once
// (vfs.ListedReader, vfs.StatReader) and counts, per path, how each file
// was read.
type howRead struct {
	*vfs.Confined
	mu              sync.Mutex
	listed, stated  map[string]int // read by ReadListed, by ReadStat
	plain, notTaken map[string]int // read by ReadFile; ReadListed declined
}

func (h *howRead) count(m map[string]int, name string) {
	h.mu.Lock()
	m[name]++
	h.mu.Unlock()
}

func (h *howRead) ReadListed(name string) ([]byte, fs.FileInfo, bool) {
	data, info, ok := h.Confined.ReadListed(name)
	if ok {
		h.count(h.listed, name)
	} else {
		h.count(h.notTaken, name)
	}
	return data, info, ok
}

func (h *howRead) ReadStat(name string) ([]byte, fs.FileInfo, bool) {
	h.count(h.stated, name)
	return h.Confined.ReadStat(name)
}

func (h *howRead) ReadFile(name string) ([]byte, error) {
	h.count(h.plain, name)
	return h.Confined.ReadFile(name)
}

// Check's walk lists every folder before it reads the files there, so each
// file is read at once from its listing (vfs.ListedReader: one openat2,
// fstat, read, close on Linux), with the diagnostics a disk without that
// gives; a listed file swapped for a FIFO since is refused by the general
// path, without waiting.
func TestListedFilesReadAtOnce(t *testing.T) {
	plain := NewSession(Options{ReadOnce: true}).Update(Change{Settings: &Settings{}})
	root, files := monorepo(t, 4, plain)
	want := fileByFile(t, plain, files)
	disk := &howRead{Confined: &vfs.Confined{FS: vfs.OS, Roots: func() []string { return []string{root} }},
		listed: map[string]int{}, stated: map[string]int{}, plain: map[string]int{}, notTaken: map[string]int{}}
	snap := NewSession(Options{Disk: disk, ReadOnce: true}).Update(Change{Settings: &Settings{}})
	if found := charterFiles(t, snap, root); !reflect.DeepEqual(found, files) {
		t.Fatalf("found %v, want %v", found, files)
	}
	if got := diagnosticsOf(t, snap, files, true); !reflect.DeepEqual(got, want) {
		t.Error("the diagnostics differ from those of a disk that reads each file by path")
	}
	if _, _, ok := disk.Confined.ReadListed(files[0]); !ok {
		t.Skip("no openat2 here: every read took the general path")
	}
	for _, f := range files {
		if disk.listed[f] != 1 && !(isEvidenceRun(f) && disk.listed[f] == 2) {
			t.Errorf("%s read %d times from its listing", f, disk.listed[f])
		}
	}
	if len(disk.stated)+len(disk.plain)+len(disk.notTaken) > 0 {
		t.Errorf("read otherwise: ReadStat %v, ReadFile %v, ReadListed declined %v", disk.stated, disk.plain, disk.notTaken)
	}

	// A file swapped for a FIFO after its folder was listed.
	snap = NewSession(Options{Disk: disk}).Update(Change{Settings: &Settings{}})
	p := files[0]
	if _, err := snap.FS().ReadDir(filepath.Dir(p)); err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	read := make(chan *File, 1)
	go func() { read <- snap.File(p) }()
	select {
	case f := <-read:
		if !errors.Is(f.Err, vfs.ErrNotRegular) {
			t.Errorf("the FIFO read: %q, %v; want ErrNotRegular", f.Text, f.Err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the read of a FIFO swapped in waits")
	}
}
