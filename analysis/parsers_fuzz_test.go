package analysis

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

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
