package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// init writes a configuration whose every key is at its default and that
// reads back as the defaults; it overwrites nothing.
func TestInitConfig(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := cli(t, dir, "", "init")
	if code != 0 || !strings.Contains(out, "wrote .charter-lsp.jsonc") {
		t.Fatalf("init: exit %d %s %s", code, out, errOut)
	}
	src, _ := os.ReadFile(filepath.Join(dir, ".charter-lsp.jsonc"))
	cfg, err := analysis.ParseConfig(src)
	if err != nil {
		t.Fatalf("the written configuration does not parse: %v\n%s", err, src)
	}
	got, _ := json.Marshal(cfg.Effective())
	want, _ := json.Marshal(analysis.Config{}.Effective())
	if string(got) != string(want) || cfg.Schema != analysis.SchemaURL {
		t.Errorf("init's configuration reads as %s (schema %q), want the defaults %s", got, cfg.Schema, want)
	}
	os.WriteFile(filepath.Join(dir, ".charter-lsp.jsonc"), []byte(`{"questionBudget": 9}`), 0o644)
	out, _, code = cli(t, dir, "", "init")
	if b, _ := os.ReadFile(filepath.Join(dir, ".charter-lsp.jsonc")); code != 1 || string(b) != `{"questionBudget": 9}` || !strings.Contains(out, "kept .charter-lsp.jsonc") {
		t.Errorf("a second init: exit %d, %q, file %s", code, out, b)
	}
}

// init --charter writes a new charter of each current family, which check
// reads in that family's current format, with no error; the pi and
// .charters ones need an objective; nothing is overwritten.
func TestInitCharters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plantcare")
	os.Mkdir(dir, 0o755)
	const now = "2026-11-20T10:00:00Z"
	for _, c := range []struct {
		args  []string
		files []string
	}{
		{[]string{"--charter", "rp1"}, []string{".rp1/context/charter.md"}},
		{[]string{"--charter", "charters", "--objective", "Ship watering reminders"}, []string{
			".charters/20261120-100000-ship-watering-reminders/charter.md", ".charters/20261120-100000-ship-watering-reminders/state.json",
			".charters/20261120-100000-ship-watering-reminders/events.jsonl"}},
		{[]string{"--charter", "pi", "--objective", "Ship watering reminders"}, []string{
			".pi/charters/ship-watering-reminders/charter.md", ".pi/charters/ship-watering-reminders/criteria.md", ".pi/charters/ship-watering-reminders/state.json"}},
	} {
		out, errOut, code := cli(t, dir, "", append([]string{"init", "--now", now}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", c.args, code, errOut)
		}
		for _, f := range c.files {
			if !strings.Contains(out, "wrote "+f+"\n") {
				t.Errorf("%v: does not say it wrote %s:\n%s", c.args, f, out)
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
				t.Errorf("%v: %v", c.args, err)
			}
		}
	}
	// Each reads as its family's current format, and checks without an error.
	out, errOut, code := cli(t, dir, "", "check", "-f", "json", "--verbose")
	if code != 0 {
		t.Errorf("check of the new charters: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{".rp1/context/charter.md: read as rp1's skeleton charter", "charter.md: read as Objective only (ADR-0018)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("check --verbose lacks %q:\n%s", want, errOut)
		}
	}
	skeleton, _ := os.ReadFile(filepath.Join(dir, ".rp1", "context", "charter.md"))
	if !strings.HasPrefix(string(skeleton), "# Project Charter: plantcare\n") || strings.Contains(string(skeleton), "Scratch Pad") {
		t.Errorf("the rp1 charter:\n%s", skeleton)
	}
	d := charterfile.LoadDir(vfs.OS, filepath.Join(dir, ".charters", "20261120-100000-ship-watering-reminders"))
	if d.State == nil || !d.State.Valid || d.State.Objective != "Ship watering reminders" || d.Era.Generation != charterfile.OBJ {
		t.Errorf("the .charters charter: state %+v, generation %v", d.State, d.Era.Generation)
	}
	// Nothing is overwritten.
	if _, errOut, code := cli(t, dir, "", "init", "--charter", "rp1"); code != 2 || !strings.Contains(errOut, ".rp1/context/charter.md exists: not overwritten") {
		t.Errorf("a second init --charter rp1: exit %d %s", code, errOut)
	}
	if _, errOut, code := cli(t, dir, "", "init", "--charter", "pi"); code != 2 || !strings.Contains(errOut, "needs --objective") {
		t.Errorf("init --charter pi without an objective: exit %d %s", code, errOut)
	}
}

// A new rp1 charter starts in the generation the user picks: init writes
// rp1's skeleton, the interview's CREATE mode the seed's scratch pad.
func TestNewRP1CharterEitherGeneration(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, code := cli(t, dir, "", "init", "--charter", "rp1"); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	skeleton, _ := os.ReadFile(filepath.Join(dir, ".rp1", "context", "charter.md"))
	pad := filepath.Join(t.TempDir(), ".rp1", "context", "charter.md")
	if _, errOut, code := cli(t, dir, "", "interview", pad, "--mode", "CREATE", "--apply"); code != 0 {
		t.Fatalf("interview --mode CREATE: %s", errOut)
	}
	scratch, _ := os.ReadFile(pad)
	if !strings.Contains(string(skeleton), "## Vision\n") || strings.Contains(string(skeleton), "## Scratch Pad") {
		t.Errorf("init --charter rp1 did not write the skeleton:\n%s", skeleton)
	}
	if !strings.Contains(string(scratch), "## Scratch Pad\n") || !strings.Contains(string(scratch), "<!-- Mode: CREATE -->") {
		t.Errorf("interview --mode CREATE did not start the scratch pad:\n%s", scratch)
	}
}
