package lsp_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// TestKeystrokePublishMatchesFreshOpen is the differential test of a
// keystroke's reuse through the protocol: after each of a seeded sequence
// of edits of a pi criteria.md (typing in a line, lines added and removed,
// an id made a duplicate and back, a milestone heading broken and
// restored), the diagnostics the server publishes for that version are
// exactly those a new server publishes when it opens the same text. The
// large register's versions are written in the memory made for them after
// each publish (workspace.Document.PrepareEdit, from 64 KB).
func TestKeystrokePublishMatchesFreshOpen(t *testing.T) {
	t.Run("small", func(t *testing.T) {
		keystrokesMatchFreshOpen(t, gen.Project{Milestones: 8, VALs: 9, Runs: 40, Sources: 2})
	})
	t.Run("large", func(t *testing.T) {
		keystrokesMatchFreshOpen(t, gen.Project{Milestones: 25, VALs: 9, Runs: 40, Sources: 2})
	})
}

func keystrokesMatchFreshOpen(t *testing.T, p gen.Project) {
	root := t.TempDir()
	path, err := p.Write(root)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("criteria.md: %d bytes", len(text))
	cfg := lsptest.Config{Root: root, InitializationOptions: map[string]any{"debounceMs": 0}}
	c := lsptest.Start(t, cfg)
	u := c.Open(filepath.ToSlash(rel), string(text))
	c.WaitDiagnostics(u, 1)

	rng := rand.New(rand.NewPCG(26, 4))
	var undo *lsptest.Edit
	for version := int32(2); version <= 40; version++ {
		cur, _, _ := c.Text(u)
		lines := strings.Split(cur, "\n")
		l := rng.IntN(len(lines) - 1)
		// with finds a random line starting with prefix (the generator
		// writes them all), and the edit that writes s over it.
		with := func(prefix string) int {
			for {
				if i := rng.IntN(len(lines)); strings.HasPrefix(lines[i], prefix) {
					return i
				}
			}
		}
		over := func(i int, s string) lsptest.Edit {
			return lsptest.Edit{StartLine: uint32(i), EndLine: uint32(i), EndChar: uint32(len(lines[i])), Text: s}
		}
		var e lsptest.Edit
		switch k := rng.IntN(7); {
		case undo != nil && rng.IntN(4) == 0:
			e = *undo
		case k == 0: // type in a line
			ch := uint32(rng.IntN(len(lines[l]) + 1))
			e = lsptest.Edit{StartLine: uint32(l), StartChar: ch, EndLine: uint32(l), EndChar: ch, Text: "x"}
		case k == 1: // add a line
			e = lsptest.Edit{StartLine: uint32(l), EndLine: uint32(l), Text: "Verifier: comand\n"}
		case k == 2: // remove a line
			e = lsptest.Edit{StartLine: uint32(l), EndLine: uint32(l + 1)}
		case k == 3: // a VAL's id made another's
			h, o := with("### VAL-"), with("### VAL-")
			id, _, _ := strings.Cut(strings.TrimPrefix(lines[o], "### "), " ")
			_, title, _ := strings.Cut(strings.TrimPrefix(lines[h], "### "), " ")
			e = over(h, "### "+id+" "+title)
		case k == 4: // a milestone heading broken
			h := with("## ")
			e = over(h, strings.TrimPrefix(lines[h], "#"))
		case k == 5: // a verifier line
			e = over(with("Verifier:"), []string{"Verifier: manual", "Verifier: command", "Verifier:"}[rng.IntN(3)])
		default: // a span across lines
			e = lsptest.Edit{StartLine: uint32(l), StartChar: uint32(min(3, len(lines[l]))), EndLine: uint32(min(l+3, len(lines)-1)), Text: "## m9-merged\n"}
		}
		c.Change(u, version, e)
		got := c.WaitDiagnostics(u, version).Params.Diagnostics
		after, _, _ := c.Text(u)
		undo = inverseEdit(cur, after, e)

		fresh := lsptest.Start(t, cfg)
		want := fresh.WaitDiagnostics(fresh.Open(filepath.ToSlash(rel), after), 1).Params.Diagnostics
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("version %d (%+v): %d diagnostics published, a fresh open publishes %d, or they differ:\n got %+v\nwant %+v",
				version, e, len(got), len(want), got, want)
		}
	}
}

// inverseEdit is the edit that takes after back to before, e having made
// it (the texts are ASCII: a character is a byte).
func inverseEdit(before, after string, e lsptest.Edit) *lsptest.Edit {
	off := func(text string, line, char uint32) int {
		o := 0
		for range line {
			o += strings.IndexByte(text[o:], '\n') + 1
		}
		return o + int(char)
	}
	start, end := off(before, e.StartLine, e.StartChar), off(before, e.EndLine, e.EndChar)
	newEnd := start + len(e.Text)
	line := strings.Count(after[:newEnd], "\n")
	char := newEnd - (strings.LastIndexByte(after[:newEnd], '\n') + 1)
	return &lsptest.Edit{StartLine: e.StartLine, StartChar: e.StartChar, EndLine: uint32(line), EndChar: uint32(char), Text: before[start:end]}
}
