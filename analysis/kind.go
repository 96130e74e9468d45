// Package analysis turns charter files into models and diagnostics. It is a
// pure layer: no protocol types, usable from the CLI, the server and tests.
package analysis

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
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
	p := filepath.ToSlash(filepath.Clean(path))
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
	return filepath.FromSlash(p[:i+skip] + id)
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

// rp1Headings are the headings that make a charter.md rp1-style (SPEC §1).
var rp1Headings = [][]byte{
	[]byte("## problem & context"), []byte("## problem and context"), []byte("## problem"),
	[]byte("## target users"), []byte("## users"),
	[]byte("## business rationale"), []byte("## value proposition"),
	[]byte("## scope guardrails"), []byte("## scope"),
	[]byte("## success criteria"),
	[]byte("## scratch pad"),
}

// LooksLikeRP1Charter: the first heading is rp1's "# Project Charter" title,
// or the file holds a "## Scratch Pad" heading.
func LooksLikeRP1Charter(content []byte) bool {
	firstHeading := true
	for len(content) > 0 {
		var line []byte
		line, content, _ = bytes.Cut(content, []byte("\n"))
		line = bytes.TrimRight(line, " \t\r")
		if !bytes.HasPrefix(line, []byte("#")) {
			continue
		}
		if firstHeading && bytes.HasPrefix(bytes.ToLower(line), []byte("# project charter")) {
			return true
		}
		firstHeading = false
		if bytes.EqualFold(line, []byte("## scratch pad")) {
			return true
		}
	}
	return false
}

// IsRP1Style: under .rp1/, empty, or holding one of the five section headings
// or a scratch pad.
func IsRP1Style(path string, content []byte) bool {
	p := "/" + filepath.ToSlash(path)
	if strings.Contains(p, "/.rp1/") || len(bytes.TrimSpace(content)) == 0 {
		return true
	}
	for _, line := range bytes.Split(content, []byte("\n")) {
		line = bytes.ToLower(bytes.TrimRight(line, " \t\r"))
		if !bytes.HasPrefix(line, []byte("## ")) {
			continue
		}
		for _, h := range rp1Headings {
			if bytes.Equal(line, h) {
				return true
			}
		}
	}
	return false
}
