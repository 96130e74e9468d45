package charterfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// The files of a .charters/<id> folder that charter-lsp reads.
const (
	CharterFile = "charter.md"
	StateFile   = "state.json"
	EventsFile  = "events.jsonl"
)

// MaxFileSize is the largest file read (analysis.MaxFileSize is this limit):
// a larger one is not read, and reported as an error of the folder.
const MaxFileSize = vfs.MaxFileSize

// Dir is a .charters/<id> folder: its files as read, and the charter as
// upstream reads it.
type Dir struct {
	Path string // absolute, cleaned
	ID   string // the folder name

	CharterPath string
	CharterSrc  []byte // nil when charter.md is missing or unreadable
	StatePath   string
	StateSrc    []byte
	State       *State // nil without state.json
	EventsPath  string
	EventsSrc   []byte
	Events      *Events // nil without events.jsonl

	// Era is the generation charter.md is read as, and why (Decide).
	Era     Era
	Charter *Charter // nil without charter.md

	// Errors are files that exist but could not be read (or were too large
	// to read); Unread names them.
	Errors []error
	Unread map[string]bool
}

// Declared is state.json's schemaVersion when upstream accepts the file.
func (d *Dir) Declared() string {
	if d.State != nil && d.State.Valid {
		return d.State.SchemaVersion
	}
	return ""
}

// Listed reports whether upstream's charter list shows the charter: only
// folders with a valid state.json are listed.
func (d *Dir) Listed() bool { return d.State != nil && d.State.Valid }

// LoadDir reads the charter folder dir through fsys. A file that is a
// symbolic link is read only when it resolves inside dir.
func LoadDir(fsys vfs.FS, dir string) *Dir {
	d, _ := LoadDirContext(context.Background(), fsys, dir)
	return d
}

// LoadDirContext is LoadDir that stops, returning ctx's error, when ctx is
// done before charter.md is parsed.
func LoadDirContext(ctx context.Context, fsys vfs.FS, dir string) (*Dir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	d := &Dir{Path: abs, ID: filepath.Base(abs),
		CharterPath: vfs.Join(abs, CharterFile), StatePath: vfs.Join(abs, StateFile), EventsPath: vfs.Join(abs, EventsFile)}
	entries := map[string]fs.DirEntry{}
	if es, err := fsys.ReadDir(abs); err == nil {
		for _, e := range es {
			entries[e.Name()] = e
		}
	}
	d.Unread = map[string]bool{}
	fail := func(name string, err error) []byte {
		d.Errors = append(d.Errors, err)
		d.Unread[name] = true
		return nil
	}
	read := func(name string) []byte {
		p := vfs.Join(abs, name)
		if e, ok := entries[name]; ok && e.Type()&fs.ModeSymlink != 0 && !insideAfterLinks(fsys, abs, p) {
			return fail(name, &fs.PathError{Op: "read", Path: p, Err: errors.New("symlink leaves the charter folder; not read")})
		}
		// A file over the limit is not read (vfs.FS.ReadFile): no stat
		// before, which the workspace's disk cache would make besides
		// the read.
		src, err := fsys.ReadFile(p)
		if size, tooLarge := vfs.IsTooLarge(err); tooLarge {
			return fail(name, &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("%d MB, over the %d MB limit; not read", size>>20, MaxFileSize>>20)})
		}
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return fail(name, err)
			}
			return nil
		}
		if src == nil {
			src = []byte{}
		}
		return src
	}
	d.CharterSrc, d.StateSrc, d.EventsSrc = read(CharterFile), read(StateFile), read(EventsFile)
	if d.StateSrc != nil {
		d.State = ParseState(d.StateSrc)
	}
	if d.EventsSrc != nil {
		d.Events = ParseEvents(d.EventsSrc)
	}
	if d.CharterSrc != nil {
		c, era, err := ReadContext(ctx, Evidence{Text: d.CharterSrc, State: d.State, Events: d.Events})
		if err != nil {
			return nil, err
		}
		d.Charter, d.Era = c, era
	}
	return d, nil
}

// insideAfterLinks reports whether p, symbolic links resolved, lies in dir
// (vfs.Within, the one containment rule). Only the real file system
// resolves links; elsewhere a link is refused.
func insideAfterLinks(fsys vfs.FS, dir, p string) bool {
	return fsys == vfs.OS && vfs.Within(dir, p)
}

// Files lists the files of the charter folder dir that checks look at.
func Files(fsys vfs.FS, dir string) []string {
	var out []string
	listed := vfs.Listed(fsys, dir)
	for _, name := range []string{CharterFile, StateFile, EventsFile} {
		typ, there := listed.Type(name)
		switch {
		case listed.Read() && !there:
			continue // not there: no need to ask
		case there && typ.IsRegular():
			out = append(out, vfs.Join(dir, name))
			continue
		}
		p := vfs.Join(dir, name)
		if fi, err := fsys.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}
