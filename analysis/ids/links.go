package ids

import (
	"bytes"
	"path"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// LinkBase says what a link's path is relative to.
type LinkBase string

const (
	// FromEvidence: an evidence path (lastEvidencePath, narrativePath, an
	// artifact), relative to the charter directory or to the file's own
	// folder, and leading nowhere outside the charter directory (the rule
	// go to definition follows).
	FromEvidence LinkBase = "evidence"
	// FromProject: a path of the project (a References entry, a path in a
	// Command: line), relative to the folder holding .pi/ or .charters/.
	FromProject LinkBase = "project"
)

// Link is a path written in a charter file. Whether it leads to a file is
// for the caller to find out, through its file system and its workspace.
type Link struct {
	Span  source.Span
	Range source.Range
	Path  string // as written, cleaned: relative and slash-separated
	Base  LinkBase
}

// LinksPi are the paths written in the file at path, a file of the pi
// charter directory d whose text is src: criterion-state.json's
// lastEvidencePath, an evidence row's narrativePath and artifacts, the
// paths in the Command: lines of criteria.md (and of a legacy register in
// charter.md).
func LinksPi(d *pi.Dir, path string, src []byte, ix *source.Index) []Link {
	var out []Link
	add := func(sp source.Span, p string, base LinkBase) {
		if clean, ok := localPath(p); ok {
			out = append(out, Link{Span: sp, Range: ix.Range(sp), Path: clean, Base: base})
		}
	}
	switch {
	case filepath.Base(path) == "criterion-state.json":
		eachJSONString(src, func(s jsonString) {
			if !s.key && s.at("criteria", "*", "lastEvidencePath") {
				add(plainInner(src, s), s.value, FromEvidence)
			}
		})
	case filepath.Base(path) == "evidence.json":
		eachJSONString(src, func(s jsonString) {
			if s.key {
				return
			}
			if s.at("narrativePath") || s.at("[]", "narrativePath") || s.at("artifacts", "[]") || s.at("[]", "artifacts", "[]") {
				add(plainInner(src, s), s.value, FromEvidence)
			}
		})
	default:
		for _, f := range []*pi.File{d.CriteriaFile, d.CharterFile} {
			if f == nil || f.Path != path {
				continue
			}
			for _, reg := range registersIn(d, f) {
				for _, c := range reg.Criteria {
					if fl := c.Field("command"); fl != nil {
						for _, t := range commandPaths(src, fl.ValueSpan) {
							add(t.span, t.text, FromProject)
						}
					}
				}
			}
		}
	}
	return out
}

// LinksCharters are the paths a .charters/<id>/charter.md lists under
// ## References: `code spans`, [link](targets), or an entry's first word.
func LinksCharters(c *charterfile.Charter, src []byte, ix *source.Index) []Link {
	if !c.References.Found {
		return nil
	}
	var out []Link
	body := c.References.BodySpan
	for line := ix.Line(body.Start); line < ix.LineCount(); line++ {
		ls := ix.LineSpan(line)
		if ls.Start >= body.End {
			break
		}
		for _, t := range referencePaths(src, ls) {
			if clean, ok := localPath(t.text); ok {
				out = append(out, Link{Span: t.span, Range: ix.Range(t.span), Path: clean, Base: FromProject})
			}
		}
	}
	return out
}

// DocumentLinksPi are the links of the file at path (text src, lines ix)
// of the pi charter directory d: an evidence path leads to the file of the
// charter directory it names (pi.EvidenceTarget, as go to definition
// resolves it; inCharter says which exist there), a path in a Command:
// line to a file of the project (isFile says which exist). A path that
// leads to no file is no link.
func DocumentLinksPi(d *pi.Dir, path string, src []byte, ix *source.Index, inCharter, isFile func(string) bool) []feature.DocumentLink {
	var out []feature.DocumentLink
	for _, l := range LinksPi(d, path, src, ix) {
		target := ""
		if l.Base == FromEvidence {
			target = pi.EvidenceTarget(d.Path, path, l.Path, inCharter)
		} else {
			target = feature.Resolve(l.Path, isFile, d.Project)
		}
		if target != "" {
			out = append(out, documentLink(l.Span, target, d.Project))
		}
	}
	return out
}

// DocumentLinksCharters are the links of the .charters/<id> folder d's
// charter.md (lines ix): its ## References entries, each leading to the
// file it names relative to the charter folder, else to the project (the
// folder holding .charters/), as go to definition resolves them; isFile
// says which exist.
func DocumentLinksCharters(d *charterfile.Dir, ix *source.Index, isFile func(string) bool) []feature.DocumentLink {
	if d.Charter == nil {
		return nil
	}
	project := filepath.Dir(filepath.Dir(d.Path))
	var out []feature.DocumentLink
	for _, l := range LinksCharters(d.Charter, d.CharterSrc, ix) {
		if target := feature.Resolve(l.Path, isFile, d.Path, project); target != "" {
			out = append(out, documentLink(l.Span, target, project))
		}
	}
	return out
}

func documentLink(sp source.Span, target, project string) feature.DocumentLink {
	return feature.DocumentLink{Span: sp, Target: target, Tooltip: "Open " + feature.RelTo(project, target)}
}

// plainInner is the span of a JSON string's text, when its literal spells
// it without escapes; else the whole literal.
func plainInner(src []byte, s jsonString) source.Span {
	inner := source.Span{Start: s.lit.Start + 1, End: s.lit.End - 1}
	if string(src[inner.Start:inner.End]) == s.value {
		return inner
	}
	return s.lit
}

type token struct {
	span source.Span
	text string
}

// commandPaths are the words of a command (the bytes at sp of src) that
// look like paths: quotes stripped, a --flag=value's value, no option,
// variable, glob or URL.
func commandPaths(src []byte, sp source.Span) []token {
	var out []token
	for _, w := range words(src, sp) {
		t := w
		if i := strings.IndexByte(t.text, '='); i >= 0 && strings.HasPrefix(t.text, "-") {
			t = token{source.Span{Start: t.span.Start + i + 1, End: t.span.End}, t.text[i+1:]}
		}
		t = trimToken(t, "\"'`", "\"'`,;)")
		if looksLikePath(t.text) {
			out = append(out, t)
		}
	}
	return out
}

// referencePaths are the paths of one References line (the bytes at ls):
// its `code spans` and [link](targets), else the first word of a list item.
func referencePaths(src []byte, ls source.Span) []token {
	line := src[ls.Start:ls.End]
	var out []token
	// enclosed takes the text from i up to the closing byte: a path when
	// it looks like one; false when the line does not close it.
	enclosed := func(i int, closing byte) (next int, ok bool) {
		j := bytes.IndexByte(line[i:], closing)
		if j < 0 {
			return 0, false
		}
		if text := string(line[i : i+j]); looksLikePath(text) {
			out = append(out, token{source.Span{Start: ls.Start + i, End: ls.Start + i + j}, text})
		}
		return i + j, true
	}
	for i, ok := 0, true; i < len(line) && ok; i++ {
		switch {
		case line[i] == '`':
			i, ok = enclosed(i+1, '`')
		case line[i] == ']' && i+1 < len(line) && line[i+1] == '(':
			i, ok = enclosed(i+2, ')')
		}
	}
	if len(out) > 0 {
		return out
	}
	trimmed := bytes.TrimLeft(line, " \t")
	for _, bullet := range []string{"- ", "* ", "+ "} {
		if bytes.HasPrefix(trimmed, []byte(bullet)) {
			ws := words(src, source.Span{Start: ls.End - len(trimmed) + len(bullet), End: ls.End})
			if len(ws) > 0 {
				if t := trimToken(ws[0], "\"'(", "\"',;:)"); looksLikePath(t.text) {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// words splits the bytes at sp of src on blanks.
func words(src []byte, sp source.Span) []token {
	var out []token
	start := -1
	for i := sp.Start; i <= sp.End; i++ {
		blank := i == sp.End || src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n'
		switch {
		case blank && start >= 0:
			out = append(out, token{source.Span{Start: start, End: i}, string(src[start:i])})
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	return out
}

// trimToken strips leading and trailing characters of a token.
func trimToken(t token, lead, trail string) token {
	for t.text != "" && strings.IndexByte(lead, t.text[0]) >= 0 {
		t.text, t.span.Start = t.text[1:], t.span.Start+1
	}
	for t.text != "" && strings.IndexByte(trail, t.text[len(t.text)-1]) >= 0 {
		t.text, t.span.End = t.text[:len(t.text)-1], t.span.End-1
	}
	return t
}

// looksLikePath: a word with a folder or an extension, and nothing of an
// option, a variable, a glob or a URL.
func looksLikePath(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") || strings.ContainsAny(s, "$*?{}[]<>|&;\"'` ") || strings.Contains(s, "://") {
		return false
	}
	base := path.Base(s)
	return strings.Contains(s, "/") || strings.Contains(base, ".") && !strings.HasPrefix(base, ".") && !strings.HasSuffix(base, ".")
}

// localPath is p cleaned when it is relative and stays below its base.
func localPath(p string) (string, bool) {
	if p == "" || strings.ContainsRune(p, '\\') {
		return "", false
	}
	clean := path.Clean(p)
	if !filepath.IsLocal(filepath.FromSlash(clean)) {
		return "", false
	}
	return clean, true
}
