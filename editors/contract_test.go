// Package editors holds the Go tests that keep the editor clients in step
// with the server: what the VS Code extension declares (its settings, the
// files it activates on) is checked against the server's own definitions.
// The clients' generated files (internal/gendocs) are checked there.
package editors

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis"
)

type vscodeManifest struct {
	ActivationEvents []string `json:"activationEvents"`
	Contributes      struct {
		Configuration struct {
			Properties map[string]map[string]any `json:"properties"`
		} `json:"configuration"`
	} `json:"contributes"`
}

func readManifest(t *testing.T) vscodeManifest {
	t.Helper()
	raw, err := os.ReadFile("vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var m vscodeManifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// VS Code's settings schema offers exactly the values the server accepts:
// a setting the server would clamp or ignore is flagged in the Settings
// editor instead of being sent.
func TestVSCodeSettingsAgreeWithServer(t *testing.T) {
	var server struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(analysis.ConfigSchema(), &server); err != nil {
		t.Fatal(err)
	}
	settings := readManifest(t).Contributes.Configuration.Properties
	for key, want := range server.Properties {
		if key == "$schema" {
			continue
		}
		got, ok := settings["charter."+key]
		if !ok {
			t.Errorf("the server reads %q, but the extension has no charter.%s setting", key, key)
			continue
		}
		for _, facet := range []string{"type", "minimum", "maximum", "enum", "default"} {
			w, inServer := want[facet]
			g, inClient := got[facet]
			switch {
			case inServer && !reflect.DeepEqual(g, w):
				t.Errorf("charter.%s %s = %v, the server's is %v", key, facet, g, w)
			case !inServer && inClient && facet == "default" && isEmpty(g):
				// VS Code wants a default; empty is what the server assumes.
			case !inServer && inClient && facet != "type":
				t.Errorf("charter.%s has a %s (%v) the server does not", key, facet, g)
			}
		}
		if key == "severity" {
			if g, w := got["additionalProperties"].(map[string]any)["enum"], want["additionalProperties"].(map[string]any)["enum"]; !reflect.DeepEqual(g, w) {
				t.Errorf("charter.severity levels = %v, the server's are %v", g, w)
			}
		}
	}
}

// The extension activates in a workspace holding any charter file.
func TestVSCodeActivatesOnCharterFiles(t *testing.T) {
	var globs []string
	for _, e := range readManifest(t).ActivationEvents {
		if g, ok := strings.CutPrefix(e, "workspaceContains:"); ok {
			globs = append(globs, g)
		}
	}
	want := slices.Clone(analysis.FileGlobs)
	slices.Sort(want)
	slices.Sort(globs)
	if !slices.Equal(globs, want) {
		t.Errorf("activationEvents workspaceContains: %q\nwant analysis.FileGlobs: %q", globs, want)
	}
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// Every file editors/README.md names is there: a path to a source file
// (.go, .lua, .ts, .js, .sh, .json, .md) exists from editors/ or from the
// repository's root.
func TestReadmePathsExist(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("`([A-Za-z0-9_./-]+\\.(?:go|lua|ts|js|sh|json|md))`").FindAllStringSubmatch(string(readme), -1) {
		p := m[1]
		if !strings.Contains(p, "/") {
			continue
		}
		_, inEditors := os.Stat(p)
		_, inRepo := os.Stat(filepath.Join("..", p))
		if inEditors != nil && inRepo != nil {
			t.Errorf("editors/README.md names %s, which is neither in editors/ nor in the repository's root", p)
		}
	}
}

// The README names every setting the VS Code extension has, every command
// of its palette and every :Charter command of the Neovim plugin.
func TestReadmeNamesEverySettingAndCommand(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ") // a title may break across lines
	var manifest struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]any `json:"properties"`
			} `json:"configuration"`
			Commands []struct{ Title string } `json:"commands"`
		} `json:"contributes"`
	}
	raw, _ := os.ReadFile("vscode/package.json")
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	for key := range manifest.Contributes.Configuration.Properties {
		if !strings.Contains(text, "`"+strings.TrimPrefix(key, "charter.")+"`") {
			t.Errorf("the README does not name the VS Code setting %s", key)
		}
	}
	for _, c := range manifest.Contributes.Commands {
		if !strings.Contains(text, c.Title) {
			t.Errorf("the README does not name the VS Code command %q", c.Title)
		}
	}
	lua, _ := os.ReadFile("../lua/charter/init.lua")
	for _, m := range regexp.MustCompile(`nvim_buf_create_user_command|cmd\(bufnr, '(Charter\w+)'`).FindAllStringSubmatch(string(lua), -1) {
		if m[1] != "" && !strings.Contains(text, ":"+m[1]) {
			t.Errorf("the README does not name the Neovim command :%s", m[1])
		}
	}
}
