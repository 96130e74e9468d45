package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
)

// maxFixPasses bounds --fix: a fix can make another applicable (or two
// fixes wait for each other), so fixing runs pass after pass; fixes that
// kept undoing each other would otherwise never stop.
const maxFixPasses = 10

// fixAll applies every applicable fix, pass after pass, to the run's files
// held in memory, then writes the changed files (--fix) or prints them as a
// unified diff (--diff). It returns the diagnostics that remain.
func (c *checkRun) fixAll() ([]diag.Diagnostic, error) {
	original := map[string][]byte{}      // each changed file as first read
	history := map[string]*lineHistory{} // its lines through the passes, for --diff
	var order []string                   // changed files, in the order first changed
	var fixed int
	verb := "fixed"
	if c.opts.diff {
		verb = "would fix"
	}
	var remaining []diag.Diagnostic
	var changedNow []string // files the last pass changed
	for pass := 1; ; pass++ {
		all, err := c.check(changedNow...)
		if err != nil {
			return nil, err
		}
		remaining = all
		byFile := map[string][]diag.Diagnostic{}
		var files []string
		for _, d := range all {
			if c.applies(d) {
				if byFile[d.File] == nil {
					files = append(files, d.File)
				}
				byFile[d.File] = append(byFile[d.File], d)
			}
		}
		if len(files) == 0 {
			break
		}
		if pass > maxFixPasses {
			termtext.Fprintf(c.e.stderr, "charter-lsp check: fixes still apply after %d passes; stopped (their fixes undo each other: please report it)\n", maxFixPasses)
			break
		}
		slices.Sort(files)
		changedNow = changedNow[:0]
		for _, file := range files {
			src, err := c.fsys.ReadFile(file)
			if err != nil {
				return nil, err
			}
			ds := byFile[file]
			fixes := make([]*diag.Fix, len(ds))
			of := map[*diag.Fix]diag.Diagnostic{}
			for i, d := range ds {
				fixes[i] = d.Fix
				of[d.Fix] = d
			}
			out, applied := diag.ApplyFixes(src, fixes)
			if len(applied) == 0 {
				continue
			}
			if _, ok := original[file]; !ok {
				original[file] = src
				history[file] = newLineHistory(src)
				order = append(order, file)
			}
			var edits []diag.Edit
			for _, f := range applied {
				edits = append(edits, f.Edits...)
			}
			history[file].apply(src, out, edits)
			c.fsys.files[file] = out
			changedNow = append(changedNow, file)
			for _, f := range applied {
				d := of[f]
				fixed++
				unsafe := ""
				if f.Unsafe {
					unsafe = " (unsafe)"
				}
				termtext.Fprintf(c.e.stderr, "%s %s:%d:%d %s: %s%s\n", verb, c.display(file), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, f.Title, unsafe)
			}
		}
		if len(changedNow) == 0 {
			break
		}
	}
	for _, file := range order {
		if bytes.Equal(original[file], c.fsys.files[file]) {
			continue // later fixes undid earlier ones
		}
		if c.opts.diff {
			name := c.display(file)
			d, err := history[file].unified("a/"+name, "b/"+name, c.fsys.files[file])
			if err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			io.WriteString(c.e.stdout, termtext.Lines(d)) // a diff for patch: see shown
			continue
		}
		if err := writeFixed(c.disk, c.projects.writer(file), file, original[file], c.fsys.files[file]); err != nil {
			return nil, err
		}
	}
	if fixed > 0 {
		termtext.Fprintf(c.e.stderr, "%s %s in %s\n", verb, count(fixed, "problem", "problems"), count(len(order), "file", "files"))
	}
	if !c.opts.unsafeFixes {
		left := 0
		for _, d := range remaining {
			if d.Fix.Applicable() && d.Fix.Unsafe && d.Severity != diag.SeverityOff {
				left++
			}
		}
		switch {
		case left == 1:
			fmt.Fprintln(c.e.stderr, "1 unsafe fix not applied (--unsafe-fixes applies it)")
		case left > 1:
			fmt.Fprintf(c.e.stderr, "%d unsafe fixes not applied (--unsafe-fixes applies them)\n", left)
		}
	}
	return remaining, nil
}

// applies reports whether --fix (or --diff) applies d's fix: one that needs
// no input, safe unless --unsafe-fixes.
func (c *checkRun) applies(d diag.Diagnostic) bool {
	return d.Fix.Applicable() && (!d.Fix.Unsafe || c.opts.unsafeFixes) && d.Severity != diag.SeverityOff
}

// writeFixed replaces file with fixed, atomically, in the folder in,
// unless the file changed on disk since it was read (an editor saved it
// meanwhile). A symbolic link is neither followed nor replaced, and
// nothing is written outside in (atomicfile).
func writeFixed(disk vfs.FS, in atomicfile.Dir, file string, read, fixed []byte) error {
	now, err := disk.ReadFile(file)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, read) {
		return fmt.Errorf("%s changed while it was being fixed: not written; run check --fix again", displayPath(file))
	}
	return in.Write(file, fixed, 0o644)
}

// overlay lays texts held in memory (fixed files, stdin) over a file
// system, as the server lays its open documents over the disk.
type overlay struct {
	vfs.FS
	files map[string][]byte // absolute, clean path → content
}

func (o overlay) get(name string) ([]byte, bool) {
	if abs, err := filepath.Abs(name); err == nil {
		b, ok := o.files[abs]
		return b, ok
	}
	return nil, false
}

func (o overlay) ReadFile(name string) ([]byte, error) {
	if b, ok := o.get(name); ok {
		return bytes.Clone(b), nil
	}
	return o.FS.ReadFile(name)
}

// ReadStat reads a file of the disk with its stat, in one go when the disk
// can (vfs.StatReader); a file held in memory is asked as Stat and ReadFile.
func (o overlay) ReadStat(name string) ([]byte, fs.FileInfo, bool) {
	return readDisk(o, name, vfs.StatReader.ReadStat)
}

// ReadListed reads a file of the disk its caller saw listed as a regular
// file (vfs.ListedReader); a file held in memory is asked as Stat and
// ReadFile.
func (o overlay) ReadListed(name string) ([]byte, fs.FileInfo, bool) {
	return readDisk(o, name, vfs.ListedReader.ReadListed)
}

// readDisk reads name with read, the disk's cheaper way of reading (R),
// when the disk has it and name is not held in memory; ok false leaves the
// reading to Stat and ReadFile.
func readDisk[R any](o overlay, name string, read func(R, string) ([]byte, fs.FileInfo, bool)) ([]byte, fs.FileInfo, bool) {
	if _, held := o.get(name); held {
		return nil, nil, false
	}
	if r, ok := o.FS.(R); ok {
		return read(r, name)
	}
	return nil, nil, false
}

func (o overlay) Stat(name string) (fs.FileInfo, error) {
	b, ok := o.get(name)
	if !ok {
		return o.FS.Stat(name)
	}
	mod := time.Now()
	if fi, err := o.FS.Stat(name); err == nil {
		mod = fi.ModTime()
	}
	return memInfo{name: filepath.Base(name), size: int64(len(b)), mod: mod}, nil
}

// ReadDir lists the disk's entries and the files held in memory that the
// disk does not have (stdin's --stdin-filename), as Stat sees them: the
// workspace takes a name its folder's listing lacks to be absent.
func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := o.FS.ReadDir(name)
	if len(o.files) == 0 || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return entries, err
	}
	dir, aerr := filepath.Abs(name)
	if aerr != nil {
		return entries, err
	}
	var extra []fs.DirEntry
	for p, b := range o.files {
		if filepath.Dir(p) != dir {
			continue
		}
		base := filepath.Base(p)
		if _, found := slices.BinarySearchFunc(entries, base, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) }); !found {
			extra = append(extra, fs.FileInfoToDirEntry(memInfo{name: base, size: int64(len(b))}))
		}
	}
	if len(extra) == 0 {
		return entries, err
	}
	out := append(slices.Clone(entries), extra...)
	vfs.SortByName(out)
	return out, nil
}

// memInfo describes a file held in memory.
type memInfo struct {
	name string
	size int64
	mod  time.Time
}

func (m memInfo) Name() string       { return m.name }
func (m memInfo) Size() int64        { return m.size }
func (m memInfo) Mode() fs.FileMode  { return 0o644 }
func (m memInfo) ModTime() time.Time { return m.mod }
func (m memInfo) IsDir() bool        { return false }
func (m memInfo) Sys() any           { return nil }
