package analysis

import (
	"encoding/json"
	"io/fs"
	"path"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// FuzzParseConfig: any bytes give a configuration or an error, never a
// panic; an accepted configuration is valid and survives a JSON round trip.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"severity":{"scratchpad-pending":"off"},"sourceDirs":["src","lib"],"freshness":"git","questionBudget":3,"debounceMs":0}`,
		"// comment\n{\"severity\": {\"nope\": \"error\"},}\n", `{"freshness":"sometimes"}`, `{"debounceMs":-1}`, `[`, "\xff", `{"$schema":"x","unknown":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, err := ParseConfig(src)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("accepted a configuration that does not validate: %v", err)
		}
		raw, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseConfig(raw)
		if err != nil || !reflect.DeepEqual(normalConfig(cfg), normalConfig(again)) {
			t.Fatalf("round trip: %+v → %s → %+v (%v)", cfg, raw, again, err)
		}
		_ = cfg.Budget()
		_ = cfg.Sources()
		_ = cfg.FreshnessMode()
	})
}

// normalConfig makes empty and nil collections compare equal (omitempty
// drops both).
func normalConfig(c Config) Config {
	if len(c.Severity) == 0 {
		c.Severity = nil
	}
	if len(c.SourceDirs) == 0 {
		c.SourceDirs = nil
	}
	return c
}

// FuzzParseSuppressions: directives parse without panicking, their
// diagnostics lie in the text, and Filter only removes.
func FuzzParseSuppressions(f *testing.F) {
	for _, s := range []string{
		"<!-- charter-lsp-disable -->\nx\n<!-- charter-lsp-enable -->\n",
		"<!-- charter-lsp-disable-line scratchpad-pending, nope -->", "<!-- charter-lsp-disable-next-line\n-->",
		"<!--charter-lsp-disable-file-->", "<!-- <!-- charter-lsp-disable --> -->\r\n", "\xff<!-- charter-lsp-enable x -->\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ix := source.NewIndex(src)
		sup := ParseSuppressions(ix)
		for _, d := range sup.Unknown() {
			if d.Span.Start < 0 || d.Span.End < d.Span.Start || d.Span.End > len(src) {
				t.Fatalf("unknown-code diagnostic at %+v outside [0,%d]", d.Span, len(src))
			}
		}
		// One diagnostic per line, plus one past the end.
		var ds []diag.Diagnostic
		for line := 0; line <= ix.LineCount(); line++ {
			d := diag.New(diag.ScratchpadPending, ix.LineSpan(line), "x")
			d.Range = source.Range{Start: source.Position{Line: line}, End: source.Position{Line: line}}
			ds = append(ds, d)
		}
		n := len(ds)
		kept := sup.Filter(ds)
		if len(kept) > n {
			t.Fatalf("Filter added diagnostics: %d → %d", n, len(kept))
		}
		if !strings.Contains(string(src), suppressPrefix) && len(kept) != n {
			t.Fatalf("no directive, yet %d of %d diagnostics removed", n-len(kept), n)
		}
	})
}

// FuzzCheckFile runs the whole check of an rp1 charter with a project
// configuration file beside it, both from the fuzzer: an invalid
// configuration is an error, anything else gives diagnostics inside the
// charter with codes from the catalogue.
func FuzzCheckFile(f *testing.F) {
	f.Add([]byte("# Charter\n\n## Problem\nTBD\n\n## Scratch Pad\n### Q1: x\n**Asked**: y\n"), []byte(`{"questionBudget":2}`))
	f.Add([]byte("<!-- charter-lsp-disable-file -->\n## Problem\n"), []byte(`{"severity":{"section-empty":"error"}}`))
	f.Add([]byte("\x00\xff## Users\r\n- a\r\n"), []byte(`{`))
	f.Fuzz(func(t *testing.T, charter, config []byte) {
		fsys := memFS{
			"w/charter.md":        {Data: charter, ModTime: time.Unix(1, 0)},
			"w/.charter-lsp.json": {Data: config, ModTime: time.Unix(1, 0)},
		}
		c := Checker{FS: fsys, Now: time.Unix(2e9, 0)}
		ds, err := c.CheckPath("/w/charter.md")
		if err != nil {
			if _, cfgErr := ParseConfig(config); cfgErr == nil {
				t.Fatalf("check failed with a valid configuration: %v", err)
			}
			return
		}
		for _, d := range ds {
			if d.File != "/w/charter.md" {
				t.Fatalf("diagnostic for %q", d.File)
			}
			if d.Span.Start < 0 || d.Span.End < d.Span.Start || d.Span.End > len(charter) || d.Code.Rule() == nil {
				t.Fatalf("diagnostic %s at %+v in %d bytes", d.Code, d.Span, len(charter))
			}
		}
	})
}

// memFS is an in-memory vfs.FS keyed by absolute path without the leading
// slash (as fstest.MapFS wants).
type memFS fstest.MapFS

func (m memFS) name(p string) string {
	if p = strings.TrimPrefix(path.Clean(p), "/"); p == "" {
		return "."
	}
	return p
}
func (m memFS) ReadFile(p string) ([]byte, error)       { return fstest.MapFS(m).ReadFile(m.name(p)) }
func (m memFS) Stat(p string) (fs.FileInfo, error)      { return fstest.MapFS(m).Stat(m.name(p)) }
func (m memFS) ReadDir(p string) ([]fs.DirEntry, error) { return fstest.MapFS(m).ReadDir(m.name(p)) }
