package analysis

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// MaxFileSize is the largest file analysed; larger ones get file-too-large.
const MaxFileSize = 16 << 20

var errTooLarge = errors.New("file too large")

// CheckFile returns the diagnostics of one file, read through fsys (so the
// server's unsaved documents count). Files that are not charter files get
// none. Diagnostics that concern other files of the same charter (an
// evidence row, criterion-state.json) are returned by CheckFile of those
// files, so a caller re-checks every open file of a charter after a change.
func CheckFile(fsys vfs.FS, path string, cfg Config) ([]diag.Diagnostic, error) {
	c := Checker{FS: fsys, Config: &cfg}
	return c.file(path)
}

// Checker checks files and folders. It caches the analysis of each pi
// charter directory for the duration of one run.
type Checker struct {
	FS vfs.FS
	// Config, when set, is used for every file; otherwise each file uses the
	// project configuration file found above it.
	Config *Config
	// Now is the clock for time-dependent checks; zero means time.Now.
	Now time.Time
	// Clock, when set, tells when each project's sources last changed (the
	// server passes a cache refreshed on file-watch events); nil builds one
	// per run from the configuration.
	Clock pi.SourceClock
	// Cache, when set, carries parses and indexes over from earlier checks.
	Cache *Cache

	piCache  map[string]map[string][]diag.Diagnostic
	cfgCache map[string]configResult
}

type configResult struct {
	cfg Config
	err error
}

// CheckPath checks a file or, for a folder, every charter under it.
func (c *Checker) CheckPath(path string) ([]diag.Diagnostic, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	fi, err := c.FS.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return c.file(path)
	}
	ws, err := Discover(context.Background(), c.FS, path)
	if err != nil {
		return nil, err
	}
	var out []diag.Diagnostic
	files := append([]string{}, ws.RP1Charters...)
	for _, dir := range ws.PiCharters {
		files = append(files, PiCharterFiles(c.FS, dir)...)
	}
	for _, f := range files {
		ds, err := c.file(f)
		if err != nil {
			return out, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

// ConfigFor returns the configuration that applies to path.
func (c *Checker) ConfigFor(path string) (Config, error) {
	if c.Config != nil {
		return *c.Config, nil
	}
	if c.cfgCache == nil {
		c.cfgCache = map[string]configResult{}
	}
	file := FindConfigFile(c.FS, filepath.Dir(path))
	if r, ok := c.cfgCache[file]; ok {
		return r.cfg, r.err
	}
	var r configResult
	if file != "" {
		src, err := c.FS.ReadFile(file)
		if err == nil {
			r.cfg, err = ParseConfig(src)
		}
		if err != nil {
			r.err = fmt.Errorf("%s: %w", file, err)
		}
	}
	c.cfgCache[file] = r
	return r.cfg, r.err
}

func (c *Checker) file(path string) ([]diag.Diagnostic, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // charter directories key their files by absolute path
	}
	cfg, err := c.ConfigFor(path)
	if err != nil {
		return nil, err
	}
	fi, err := c.FS.Stat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	if fi.Size() > MaxFileSize {
		if Classify(path, []byte("x")) == KindNone {
			return nil, nil
		}
		ds := CheckUnreadable(path, fi.Size(), errTooLarge)
		diag.Locate(ds, path, source.NewIndex(nil))
		return ds, nil
	}
	content, err := c.FS.ReadFile(path)
	if err != nil {
		return nil, err
	}
	kind := Classify(path, content)
	var ds []diag.Diagnostic
	switch kind {
	case KindNone, KindOtherCharter:
		return nil, nil
	case KindConfig:
		ds = CheckConfigFile(content)
	case KindRP1Charter:
		ds = CheckRP1(rp1.Parse(content), cfg)
	default:
		dir := PiCharterDir(path)
		if c.piCache == nil {
			c.piCache = map[string]map[string][]diag.Diagnostic{}
		}
		byFile, ok := c.piCache[dir]
		if !ok {
			byFile = checkPiDir(c.FS, dir, cfg, c.now(), c.Clock, c.Cache.loadOptions())
			c.piCache[dir] = byFile
		}
		ds = append(ds, byFile[path]...)
	}
	return Finish(ds, path, c.index(path, content), cfg), nil
}

func (c *Checker) index(path string, content []byte) *source.Index {
	if c.Cache != nil {
		return c.Cache.Index(path, content)
	}
	return source.NewIndex(content)
}

func (c *Checker) now() time.Time {
	if c.Now.IsZero() {
		return time.Now()
	}
	return c.Now
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.SeverityError {
			return true
		}
	}
	return false
}
