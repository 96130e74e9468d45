package analysis

import "strings"

// FileGlobs are the charter files by path, as globs in VS Code's syntax
// ("**" any number of folders, "*" within one name, "{a,b}" alternatives),
// for the editors' document selectors: internal/gendocs writes them into
// the VS Code extension and the Neovim plugin, and a test checks them
// against Classify on sample paths, so a kind of file Classify learns
// cannot be missing from the editors. Every charter.md is selected (the
// server tells rp1 charters from others by their content). Classify also
// recognises a markdown file of another name by its content alone (rp1's
// title or a scratch pad), which no glob can say: editors attach to those
// only under a charter's name.
var FileGlobs = []string{
	"**/{charter,Charter,CHARTER}.md",
	"**/.pi/charters/*/criteria.md",
	"**/.pi/charters/*/REPORT.md",
	"**/.pi/charters/*/state.json",
	"**/.pi/charters/*/criterion-state.json",
	"**/.pi/charters/*/work/**/evidence/**/evidence.json",
	// pi-charter since ADR-0014 (FORMATS.md): .charters/<id>/, whose
	// charter.md the first glob selects.
	"**/.charters/*/state.json",
	"**/.charters/*/events.jsonl",
	"**/{" + strings.Join(ConfigFileNames, ",") + "}",
}
