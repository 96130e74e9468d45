// Package jsonenc encodes JSON the way JavaScript's JSON.stringify does,
// which is what upstream writes and what people read: <, > and & stay as
// they are (encoding/json would write \u003c in a note about work/<id>/).
package jsonenc

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping: JSON.stringify(v).
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Indent is JSON.stringify(v, null, 2) followed by a newline, the form of
// upstream's JSON files.
func Indent(v any) ([]byte, error) {
	compact, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
