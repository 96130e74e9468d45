package ids

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// A jsonString is one string of a JSON document, a key or a value, with
// where it is: hujson keeps every value's exact byte offsets, so an edit
// replaces just the string and leaves the file's formatting alone.
type jsonString struct {
	// path leads from the top to the string: object keys, "[]" for an
	// array element; a key's path ends with the key itself. It is valid
	// only during the call that is given it (the walk reuses it).
	path  []string
	key   bool
	value string
	lit   source.Span // the literal, quotes included
}

// at reports whether s's path is want: "[]" is any array element, as in
// the path itself, and "*" any key.
func (s jsonString) at(want ...string) bool {
	if len(s.path) != len(want) {
		return false
	}
	for i := range want {
		if s.path[i] != want[i] && (want[i] != "*" || s.path[i] == "[]") {
			return false
		}
	}
	return true
}

// eachJSONString calls fn for every string of src, a JSON document as
// JSON.parse reads it (nothing, when it is not: upstream could not read it
// either, and an edit could not keep it valid).
func eachJSONString(src []byte, fn func(jsonString)) {
	if !json.Valid(src) {
		return
	}
	v, err := hujson.Parse(src)
	if err != nil {
		return
	}
	var path []string
	walkJSON(&v, &path, fn)
}

// walkJSON walks v at *path, one stack of keys for the whole walk: a
// document nested 9,000 deep (JSON.parse reads 10,000) made each level
// copy the path above it, 833 MB for 54 KB.
func walkJSON(v *hujson.Value, path *[]string, fn func(jsonString)) {
	switch x := v.Value.(type) {
	case *hujson.Object:
		for i := range x.Members {
			m := &x.Members[i]
			name, ok := stringOf(&m.Name)
			if !ok {
				continue
			}
			*path = append(*path, name)
			fn(jsonString{path: *path, key: true, value: name, lit: spanOf(&m.Name)})
			walkJSON(&m.Value, path, fn)
			*path = (*path)[:len(*path)-1]
		}
	case *hujson.Array:
		*path = append(*path, "[]")
		for i := range x.Elements {
			walkJSON(&x.Elements[i], path, fn)
		}
		*path = (*path)[:len(*path)-1]
	case hujson.Literal:
		if s, ok := stringOf(v); ok {
			fn(jsonString{path: *path, value: s, lit: spanOf(v)})
		}
	}
}

func stringOf(v *hujson.Value) (string, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return "", false
	}
	return lit.String(), true
}

func spanOf(v *hujson.Value) source.Span {
	return source.Span{Start: v.StartOffset, End: v.EndOffset}
}

// idIn is where id is written in the JSON string literal lit of src: the
// id's own bytes when the literal spells it plainly ("VAL-A"), else the
// whole literal (quoted: "VAL\u002DA" decodes to it). ok is false when the
// string is not id.
func idIn(src []byte, lit source.Span, value, id string) (sp source.Span, quoted, ok bool) {
	if value != id {
		return source.Span{}, false, false
	}
	inner := source.Span{Start: lit.Start + 1, End: lit.End - 1}
	if string(src[inner.Start:inner.End]) == id {
		return inner, false, true
	}
	return lit, true, true
}

// criterionIn is where criterion id is written in the JSON string literal
// lit of src: the whole string (idIn), or each word of it that is the id
// (EachCriterion: "C1, C3", a note naming C1), when the literal has no
// escapes (otherwise its bytes are not its text, and no word is found).
func criterionIn(src []byte, lit source.Span, value, id string) (spans []source.Span, quoted bool) {
	if sp, quoted, ok := idIn(src, lit, value, id); ok {
		return []source.Span{sp}, quoted
	}
	raw := src[lit.Start+1 : lit.End-1]
	if bytes.IndexByte(raw, '\\') >= 0 {
		return nil, false
	}
	EachCriterion(raw, func(tok string, sp source.Span) {
		if tok == id {
			spans = append(spans, sp.Shift(lit.Start+1))
		}
	})
	return spans, false
}

// jsonLiteral is id written as a JSON string.
func jsonLiteral(id string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(id)
	return strings.TrimSuffix(b.String(), "\n")
}
