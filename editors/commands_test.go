package editors

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// The clients take the server's command names from the files generated from
// feature.Commands (vscode/src/generated/commands.ts, lua/charter/commands.lua):
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
		for _, c := range feature.Commands {
			for _, q := range []string{"'", `"`, "`"} {
				// A Lua module may share a command's name: require('charter.verify').
				text := strings.ReplaceAll(string(src), "require("+q+string(c.Name)+q+")", "")
				if strings.Contains(text, q+string(c.Name)+q) {
					t.Errorf("%s spells the command %s: take it from the generated commands (%s)", p, c.Name, c.Key)
				}
			}
		}
	}
}
