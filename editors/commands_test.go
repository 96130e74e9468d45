package editors

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// The clients take the server's command names and action kinds from the files
// generated from feature.Commands and feature.ActionKinds
// (vscode/src/generated/commands.ts, lua/charter/commands.lua):
// a name typed again in a client's source is a second copy that a rename
// would miss. Tests may spell the names: they check the wire.
func TestClientsNeverRetypeCommandNames(t *testing.T) {
	sources := map[string]bool{}
	for _, root := range []string{"vscode/src", "../lua", "../lsp/charter.lua"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "generated" {
				return filepath.SkipDir
			}
			if ext := filepath.Ext(p); !d.IsDir() && (ext == ".ts" || ext == ".lua") && p != filepath.FromSlash("../lua/charter/commands.lua") {
				sources[p] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(sources) < 5 {
		t.Fatalf("found only %d client sources: the walk is wrong", len(sources))
	}
	for p := range sources {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]string{}
		for _, c := range feature.Commands {
			names[string(c.Name)] = "the command " + c.Key
		}
		for _, k := range feature.ActionKinds {
			names[string(k.Kind)] = "the action kind " + k.Key
		}
		for name, what := range names {
			for _, q := range []string{"'", `"`, "`"} {
				// A Lua module may share a command's name: require('charter.verify').
				text := strings.ReplaceAll(string(src), "require("+q+name+q+")", "")
				if strings.Contains(text, q+name+q) {
					t.Errorf("%s spells %s (%s): take it from the generated commands", p, what, name)
				}
			}
		}
	}
}
