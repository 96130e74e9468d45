// Package analysis turns charter files into models and diagnostics. It is a
// pure layer: no protocol types, usable from the CLI, the server and tests.
package analysis

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Kind says which charter file a path is.
type Kind string

const (
	KindNone           Kind = ""                // not a charter file
	KindRP1Charter     Kind = "rp1-charter"     // rp1 charter.md
	KindOtherCharter   Kind = "other-charter"   // a charter.md that is not rp1-style: only the interview is offered
	KindPiCharter      Kind = "pi-charter"      // .pi/charters/<id>/charter.md
	KindCriteria       Kind = "criteria"        // .pi/charters/<id>/criteria.md
	KindReport         Kind = "report"          // .pi/charters/<id>/REPORT.md
	KindState          Kind = "state"           // .pi/charters/<id>/state.json
	KindCriterionState Kind = "criterion-state" // .pi/charters/<id>/criterion-state.json
	KindEvidence       Kind = "evidence"        // .pi/charters/<id>/work/<seg>/evidence/<stamp>/evidence.json
	KindConfig         Kind = "config"          // .charter-lsp.jsonc

	// pi-charter since ADR-0014: .charters/<YYYYMMDD-HHMMSS-slug>/.
	KindChartersCharter Kind = "charters-charter" // .charters/<id>/charter.md
	KindChartersState   Kind = "charters-state"   // .charters/<id>/state.json
	KindChartersEvents  Kind = "charters-events"  // .charters/<id>/events.jsonl
)

// ConfigFileNames are the project configuration files, in lookup order.
var ConfigFileNames = []string{".charter-lsp.jsonc", ".charter-lsp.json"}

// PiCharterDir returns the .pi/charters/<id> directory holding path, or "".
func PiCharterDir(path string) string {
	p := filepath.ToSlash(vfs.Clean(path))
	i := strings.LastIndex(p, "/.pi/charters/")
	skip := len("/.pi/charters/")
	if i < 0 {
		if !strings.HasPrefix(p, ".pi/charters/") {
			return ""
		}
		i, skip = 0, len(".pi/charters/")
	}
	rest := p[i+skip:]
	id, _, found := strings.Cut(rest, "/")
	if id == "" || !found {
		return ""
	}
	return filepath.FromSlash(p[:i+skip+len(id)]) // a part of path: no copy
}

// CharterFolder returns the charter folder holding path: its
// .pi/charters/<id> or .charters/<id> directory, or "". The files of one
// folder are checked together, so a change to one re-checks the others.
func CharterFolder(path string) string {
	if dir := PiCharterDir(path); dir != "" {
		return dir
	}
	return charterfile.DirOf(path)
}

// PiCharterDirAt is the .pi/charters/<id> directory path is or lies in, or
// "": a command names a charter by its folder or by any file in it.
func PiCharterDirAt(path string) string { return PiCharterDir(inFolder(path)) }

// ChartersDirAt is the .charters/<id> folder path is or lies in, or "".
func ChartersDirAt(path string) string { return charterfile.DirOf(inFolder(path)) }

// CharterFolderAt is the charter folder path is or lies in, of either
// family, or "".
func CharterFolderAt(path string) string { return CharterFolder(inFolder(path)) }

// inFolder is a path inside path, so that a folder counts as lying in
// itself; a file's folders are the same from below it.
func inFolder(path string) string { return filepath.Join(path, "x") }

// Classify says which kind of charter file path is; content (may be nil for a
// file that does not exist yet) decides whether a charter.md is rp1-style.
func Classify(path string, content []byte) Kind {
	base := filepath.Base(path)
	lower := strings.ToLower(base)
	for _, c := range ConfigFileNames {
		if base == c {
			return KindConfig
		}
	}
	if dir := PiCharterDir(path); dir != "" {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return KindNone
		}
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "charter.md":
			return KindPiCharter
		case rel == "criteria.md":
			return KindCriteria
		case rel == "REPORT.md":
			return KindReport
		case rel == "state.json":
			return KindState
		case rel == "criterion-state.json":
			return KindCriterionState
		case strings.HasPrefix(rel, "work/") && strings.HasSuffix(rel, "/evidence.json") && strings.Contains(rel, "/evidence/"):
			return KindEvidence
		}
		return KindNone
	}
	if dir := charterfile.DirOf(path); dir != "" {
		// Upstream reads these three names exactly; a current-format
		// charter.md is never an rp1 charter.
		switch rel, _ := filepath.Rel(dir, path); filepath.ToSlash(rel) {
		case charterfile.CharterFile:
			return KindChartersCharter
		case charterfile.StateFile:
			return KindChartersState
		case charterfile.EventsFile:
			return KindChartersEvents
		}
		return KindNone
	}
	if lower != "charter.md" {
		// Another markdown file is an rp1 charter only when its content says
		// so unmistakably: rp1's title or an interview scratch pad.
		if strings.HasSuffix(lower, ".md") && LooksLikeRP1Charter(content) {
			return KindRP1Charter
		}
		return KindNone
	}
	if IsRP1Style(path, content) {
		return KindRP1Charter
	}
	return KindOtherCharter
}

// rp1Headings are the headings that make a charter.md rp1-style (SPEC §1:
// the five section headings, and the older "Value Proposition"), at "##" or
// "###" (real charters put the five sections under "# Project Charter: …"
// as ###), lower-cased. Bare "Scope", "Problem" or "Users" do not count:
// team and working-group charters named charter.md use them too, and rp1
// never reads such a file (its charter lives in {kbRoot}/charter.md).
var rp1Headings = map[string]bool{
	"problem & context": true, "problem and context": true,
	"target users":       true,
	"business rationale": true, "value proposition": true,
	"scope guardrails": true,
	"success criteria": true,
}

// LooksLikeRP1Charter: the first heading is rp1's "# Project Charter" title,
// or the file holds a "## Scratch Pad" heading. Headings are those rp1's
// parser reads (rp1.Headings: a leading YAML front matter block, where rp1
// writes rp1_doc_id, is skipped; fenced code and HTML comment blocks hold
// none), so a document that shows a charter in a code block is not one.
func LooksLikeRP1Charter(content []byte) bool {
	firstHeading := true
	found := false
	rp1.Headings(content, func(h rp1.Heading) bool {
		if firstHeading && h.Level == 1 && hasPrefixFold(h.Text, "project charter") {
			found = true
			return false
		}
		firstHeading = false
		if h.Level == 2 && rp1.IsScratchPadHeading(h.Text) {
			found = true
			return false
		}
		return true
	})
	return found
}

// IsRP1Style: under .rp1/, empty, or holding rp1's title, one of the five
// section headings (at ## or ###) or a scratch pad, as rp1's parser reads
// headings (rp1.Headings). A charter.md of a pi-charter .charters/<id>/
// folder is never rp1-style.
func IsRP1Style(path string, content []byte) bool {
	p := "/" + filepath.ToSlash(path)
	if charterfile.DirOf(path) != "" {
		return false
	}
	if strings.Contains(p, "/.rp1/") || len(bytes.TrimSpace(content)) == 0 {
		return true
	}
	found := false
	rp1.Headings(content, func(h rp1.Heading) bool {
		switch {
		case h.Level == 1 && hasPrefixFold(h.Text, "project charter"),
			(h.Level == 2 || h.Level == 3) && rp1Headings[strings.ToLower(h.Text)],
			h.Level == 2 && rp1.IsScratchPadHeading(h.Text):
			found = true
			return false
		}
		return true
	})
	return found
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
