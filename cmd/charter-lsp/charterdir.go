package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// piCharterDirs resolves a status/record argument to pi charter directories:
// a charter directory (or a path inside one) is itself; any other folder
// yields every charter under it.
func piCharterDirs(fsys vfs.FS, arg string) ([]string, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, err
	}
	if dir := analysis.PiCharterDirAt(abs); dir != "" {
		if _, err := fsys.Stat(dir); err != nil {
			return nil, err
		}
		return []string{dir}, nil
	}
	fi, err := fsys.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is neither a folder nor inside a pi charter", arg)
	}
	// .pi/charters itself, named, lists its charters less those git
	// ignores, as its parent's walk does (Discover).
	ws, err := analysis.Discover(context.Background(), fsys, abs)
	if err != nil {
		return nil, err
	}
	return ws.PiCharters, nil
}

// onePiCharter resolves arg to exactly one charter directory.
func onePiCharter(arg string) (string, error) {
	dirs, err := piCharterDirs(vfs.OS, arg)
	if err != nil {
		return "", err
	}
	switch len(dirs) {
	case 0:
		return "", fmt.Errorf("no pi charter (.pi/charters/<id>/) under %s", arg)
	case 1:
		return dirs[0], nil
	}
	return "", fmt.Errorf("%d charters under %s; pick one with --charter:\n  %s", len(dirs), arg, strings.Join(dirs, "\n  "))
}

// statusDirs resolves a status argument like piCharterDirs, counting
// .charters/<id> folders (pi-charter since ADR-0014) as charters too.
func statusDirs(fsys vfs.FS, arg string) ([]string, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, err
	}
	if dir := analysis.ChartersDirAt(abs); dir != "" {
		if _, err := fsys.Stat(dir); err != nil {
			return nil, err
		}
		return []string{dir}, nil
	}
	if analysis.PiCharterDirAt(abs) != "" {
		return piCharterDirs(fsys, arg)
	}
	fi, err := fsys.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is neither a folder nor inside a charter folder", arg)
	}
	ws, err := analysis.Discover(context.Background(), fsys, abs)
	if err != nil {
		return nil, err
	}
	return append(ws.PiCharters, ws.Charters...), nil
}
