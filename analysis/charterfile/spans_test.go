package charterfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/hostile"
)

// TestSpansPointAtTheirText: in comment-free corpus files, each span of
// the model holds the text the model reports.
func TestSpansPointAtTheirText(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*.txt"))
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		c := parseCase(string(raw))
		var src string
		for _, n := range c.names {
			if strings.HasPrefix(n, CharterFile) {
				src = c.sections[n]
			}
		}
		if strings.Contains(src, "<!--") {
			continue
		}
		for _, g := range []Generation{FI14, FI15, PH, OBJ} {
			ch := Parse(g, []byte(src))
			at := func(sp source.Span) string { return src[sp.Start:sp.End] }
			for _, cr := range ch.Criteria {
				if at(cr.IDSpan) != cr.ID || at(cr.TitleSpan) != cr.Title || !strings.HasPrefix(at(cr.HeadingSpan), "###") {
					t.Errorf("%s %s: spans %q %q %q", file, g, at(cr.IDSpan), at(cr.TitleSpan), at(cr.HeadingSpan))
				}
				if cr.StatusLine != nil && !strings.HasPrefix(strings.ToLower(at(cr.StatusLine.LineSpan)), strings.ToLower(cr.StatusLine.Label)) {
					t.Errorf("%s %s: status line span %q", file, g, at(cr.StatusLine.LineSpan))
				}
				for k, d := range cr.Depends {
					if at(cr.DependsSpans[k]) != d {
						t.Errorf("%s %s: depends span %q, want %q", file, g, at(cr.DependsSpans[k]), d)
					}
				}
			}
			for _, p := range ch.Phases {
				if at(p.TitleSpan) != p.Title {
					t.Errorf("%s %s: phase title span %q, want %q", file, g, at(p.TitleSpan), p.Title)
				}
			}
			if ch.Objective.Found && !strings.Contains(at(ch.Objective.BodySpan), ch.Objective.Text) {
				t.Errorf("%s %s: objective body span %q lacks %q", file, g, at(ch.Objective.BodySpan), ch.Objective.Text)
			}
		}
	}
}

// FuzzParse: any text parses under every generation without a panic; every
// span lies in the file; every quick fix applies.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*.txt"))
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		for n, s := range parseCase(string(raw)).sections {
			if strings.HasPrefix(n, CharterFile) {
				f.Add([]byte(s))
			}
		}
	}
	f.Add([]byte("<!--\n-->### C1. <!-- x --> T <!--\nStatus: pass —"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, g := range []Generation{FI14, FI15, PH, OBJ} {
			c := Parse(g, src)
			in := func(sp source.Span) {
				if sp.Start < 0 || sp.End > len(src) || sp.Start > sp.End {
					t.Fatalf("%s: span %v outside a %d-byte file", g, sp, len(src))
				}
			}
			for _, cr := range append(append([]*Criterion(nil), c.Criteria...), c.Dropped...) {
				in(cr.HeadingSpan)
				in(cr.IDSpan)
				in(cr.TitleSpan)
				in(cr.BlockSpan)
			}
			for _, p := range c.Phases {
				in(p.ItemSpan)
				in(p.TitleSpan)
				in(p.BodySpan)
			}
			for _, d := range CheckCharter(c) {
				in(d.Span)
				if d.Fix != nil {
					for _, e := range d.Fix.Edits {
						in(e.Span)
					}
					if _, err := diag.ApplyEdits(src, d.Fix.Edits); err != nil {
						t.Fatalf("%s: fix of %s: %v", g, d.Code, err)
					}
				}
			}
		}
		ParseState(src)
		ParseEvents(src)
	})
}

// TestLargeSidecarNotRead: a state.json or events.jsonl over the size limit
// is not read; it is reported as unreadable, and never as missing.
func TestLargeSidecarNotRead(t *testing.T) {
	dir := obj("# Objective\nShip it.\n").write(t)
	for _, name := range []string{StateFile, EventsFile} {
		if err := os.Truncate(filepath.Join(dir, name), MaxFileSize+1); err != nil {
			if os.IsNotExist(err) {
				os.WriteFile(filepath.Join(dir, name), nil, 0o644)
				err = os.Truncate(filepath.Join(dir, name), MaxFileSize+1)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	d := LoadDir(vfs.OS, dir)
	if d.StateSrc != nil || d.EventsSrc != nil || !d.Unread[StateFile] || !d.Unread[EventsFile] {
		t.Fatalf("large files read: state %d bytes, events %d bytes", len(d.StateSrc), len(d.EventsSrc))
	}
	// Listed as regular files, they are read without a stat first: the
	// read says they are over the limit, in the words the stat gave.
	for i, name := range []string{StateFile, EventsFile} {
		if want := "read " + filepath.Join(dir, name) + ": 16 MB, over the 16 MB limit; not read"; len(d.Errors) != 2 || d.Errors[i].Error() != want {
			t.Errorf("errors %v, want %q", d.Errors, want)
		}
	}
	byFile := Check(d)
	for _, dg := range byFile[d.CharterPath] {
		if dg.Code == diag.StateInvalid {
			t.Errorf("a state.json too large to read was reported missing: %s", dg.Message)
		}
	}
	if len(only(byFile[d.StatePath], diag.FileUnreadable)) != 1 {
		t.Errorf("state.json: %v", byFile[d.StatePath])
	}
}

// FuzzRuns lays a unit out many times (on one line, as lines, or nested)
// in the Objective, a criterion's heading, body, Depends and Status lines
// and a phase, and parses and checks the charter under every generation:
// spans stay in the file, no code is reported more than diag.MaxPerCode
// times, and the work allocates in proportion to the text.
func FuzzRuns(f *testing.F) {
	hostile.FuzzRuns(f, func(t *testing.T, run string) {
		src := []byte("# Objective\n\n" + run + "\n\n## Criteria\n\n### C1. " + run + "\n" + run + "\nDepends: " + run +
			"\nStatus: pass — " + run + "\n\n## Phases\n\n1. " + run + " — done\n   " + run + "\n")
		for _, g := range []Generation{FI14, FI15, PH, OBJ} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			ds := CheckCharter(Parse(g, src))
			runtime.ReadMemStats(&after)
			counts := map[diag.Code]int{}
			for _, d := range ds {
				if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
					t.Fatalf("%s: %s at %v in %d bytes", g, d.Code, d.Span, len(src))
				}
				if counts[d.Code]++; counts[d.Code] > diag.MaxPerCode {
					t.Fatalf("%s: more than %d %s diagnostics", g, diag.MaxPerCode, d.Code)
				}
			}
			if bound, ok := hostile.AllocBound(len(src)); ok && after.TotalAlloc-before.TotalAlloc > bound {
				alloc := after.TotalAlloc - before.TotalAlloc
				t.Fatalf("%s: %d MB allocated for %d KB of text", g, alloc>>20, len(src)>>10)
			}
		}
	})
}
