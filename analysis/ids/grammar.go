// Package ids finds where a charter's ids occur — the VAL ids and milestone
// ids of a pi-charter v3 register (.pi/charters/<id>/), the C<n> ids of a
// file-interface charter (.charters/<id>/) — in every file that holds them,
// code and tests included, and turns a rename into edits. It is pure: files
// in, byte spans and positions out; the server converts them to the
// protocol, the snapshot memoizes what is costly.
package ids

import (
	"unicode"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Kind is what an id names.
type Kind string

const (
	// VAL is a pi-charter v3 criterion: VAL-[A-Z0-9-]+.
	VAL Kind = "VAL"
	// Milestone is a pi-charter v3 milestone: the first word of a
	// criteria.md ## heading holding VALs, and the featureId of its evidence.
	Milestone Kind = "milestone"
	// Criterion is a file-interface criterion of a .charters/<id>/charter.md:
	// C followed by digits.
	Criterion Kind = "criterion"
)

// Valid reports whether id has the shape of kind's ids, as upstream's
// grammars read them: a VAL heading's id /VAL-[A-Z0-9-]+/
// (pi.ValidVALID), a file-interface criterion's /C\d+/
// (charterfile.ValidCriterionID). A milestone's id becomes its evidence's
// featureId, which names a folder (pi.ValidFeatureID).
func Valid(kind Kind, id string) bool {
	switch kind {
	case VAL:
		return pi.ValidVALID(id)
	case Criterion:
		return charterfile.ValidCriterionID(id)
	case Milestone:
		return pi.ValidFeatureID(id)
	}
	return false
}

// shape says in words what an id of kind looks like.
func shape(kind Kind) string {
	switch kind {
	case VAL:
		return "VAL- followed by upper-case letters, digits and '-' (VAL-AUTH-001); pi-charter silently drops any other VAL heading"
	case Criterion:
		return "C followed by digits (C4); pi-charter reads no other criterion heading"
	case Milestone:
		return "one word of letters, digits, '_', '-' or '.', not starting with '.' (it names the evidence folder work/<milestone>/)"
	}
	return string(kind)
}

// EachVAL calls fn for every VAL id written in src, as prose, code and
// JSON cite them: VAL- and a run of upper-case letters, digits and '-'
// (trailing '-' not included), not glued to a word before it, and not
// running into a lower-case word after it (VAL-X-001-Title names no VAL:
// a heading would read it as VAL-X-001-T, prose as nothing).
func EachVAL(src []byte, fn func(id string, sp source.Span)) {
	for i := 0; i+4 < len(src); i++ {
		if src[i] != 'V' || src[i+1] != 'A' || src[i+2] != 'L' || src[i+3] != '-' {
			continue
		}
		if i > 0 && (isWordByte(src[i-1]) || src[i-1] == '-') {
			continue
		}
		j := i + 4
		for j < len(src) && (isUpperOrDigit(src[j]) || src[j] == '-') {
			j++
		}
		next := j
		for j > i+4 && src[j-1] == '-' {
			j--
		}
		if j == i+4 || gluedAfter(src, next) {
			i = next - 1
			continue
		}
		fn(string(src[i:j]), source.Span{Start: i, End: j})
		i = next - 1
	}
}

// EachCriterion calls fn for every C<n> id written in src as a word of its
// own (C4, "C4.", "Depends: C1, C2"; not C4a, RC4, C4_x).
func EachCriterion(src []byte, fn func(id string, sp source.Span)) {
	for i := 0; i+1 < len(src); i++ {
		if src[i] != 'C' || !isDigit(src[i+1]) {
			continue
		}
		if i > 0 && isWordByte(src[i-1]) {
			continue
		}
		j := i + 1
		for j < len(src) && isDigit(src[j]) {
			j++
		}
		if !gluedAfter(src, j) {
			fn(string(src[i:j]), source.Span{Start: i, End: j})
		}
		i = j - 1
	}
}

// TokenAt is the id of kind VAL or Criterion written at byte offset off of
// src (EachVAL's and EachCriterion's reading), with its span.
func TokenAt(kind Kind, src []byte, off int) (string, source.Span, bool) {
	// Scan only the line holding off: ids never span lines.
	start, end := off, off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	for end < len(src) && src[end] != '\n' {
		end++
	}
	each := EachVAL
	if kind == Criterion {
		each = EachCriterion
	}
	var id string
	var at source.Span
	each(src[start:end], func(tok string, sp source.Span) {
		if sp.Start+start <= off && off <= sp.End+start && id == "" {
			id, at = tok, sp.Shift(start)
		}
	})
	return id, at, id != ""
}

func isDigit(b byte) bool        { return b >= '0' && b <= '9' }
func isUpperOrDigit(b byte) bool { return b >= 'A' && b <= 'Z' || isDigit(b) }
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || isDigit(b) || b == '_'
}

// gluedAfter reports whether the text at i continues a word: a letter,
// digit or '_' (any script).
func gluedAfter(src []byte, i int) bool {
	if i >= len(src) {
		return false
	}
	if src[i] < utf8.RuneSelf {
		return isWordByte(src[i])
	}
	r, _ := utf8.DecodeRune(src[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
