package pi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// JSONProblem is a JSON sidecar that cannot be read, or a value that breaks
// its schema, at a byte span of the file.
type JSONProblem struct {
	Span    source.Span
	Message string
	// Code is the diagnostic code: json-invalid for unreadable JSON,
	// evidence-invalid for a schema break.
	Code diag.Code
}

// JSONMember is one "key": value of an object, with its spans. Raw is the
// value's exact source text.
type JSONMember struct {
	Name      string
	KeySpan   source.Span
	ValueSpan source.Span
	Raw       json.RawMessage
}

// String returns the member's value when it is a JSON string.
func (m *JSONMember) String() (string, bool) {
	if m == nil || len(m.Raw) == 0 || m.Raw[0] != '"' {
		return "", false
	}
	if s, ok := plainString(m.Raw); ok {
		return s, true
	}
	var s string
	if json.Unmarshal(m.Raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Type is the JSON type of the value: string, number, boolean, null, array, object.
func (m *JSONMember) Type() string { return jsonType(m.Raw) }

func jsonType(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// JSONObject is an object's members in source order. Like JSON.parse, a
// repeated key's last value wins in Get.
type JSONObject struct {
	Span    source.Span
	Members []JSONMember
	// text is the file the object is in as one string, when its reader
	// made it: Str's plain values are parts of it, not a copy each (a
	// criterion-state.json's entries are seven strings apiece).
	text string
}

// Get returns the member named name (the last one), or nil.
func (o *JSONObject) Get(name string) *JSONMember {
	if o == nil {
		return nil
	}
	for i := len(o.Members) - 1; i >= 0; i-- {
		if o.Members[i].Name == name {
			return &o.Members[i]
		}
	}
	return nil
}

// Str returns the string value of name, "" when absent or not a string.
func (o *JSONObject) Str(name string) string {
	m := o.Get(name)
	if m != nil && o.text != "" && isPlainString(m.Raw) {
		return o.text[m.ValueSpan.Start+1 : m.ValueSpan.End-1]
	}
	s, _ := m.String()
	return s
}

// checkJSON reports the first syntax error of src with its byte offset, or
// nil. It also returns the span of the top-level value.
func checkJSON(src []byte) (source.Span, *JSONProblem) {
	scan := jsonScan{src: src}
	if start, end, ok := scan.document(); ok {
		return source.Span{Start: start, End: end}, nil
	}
	var raw json.RawMessage
	if err := json.Unmarshal(src, &raw); err != nil {
		return source.Span{}, syntaxProblem(src, err)
	}
	start := skipJSONSpace(src, 0)
	return source.Span{Start: start, End: start + len(raw)}, nil
}

func syntaxProblem(src []byte, err error) *JSONProblem {
	off := len(src)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = int(se.Offset)
	case errors.As(err, &te):
		off = int(te.Offset)
	}
	if off > len(src) {
		off = len(src)
	}
	start := off
	if start > 0 && start == len(src) {
		start = lineStartOf(src, start)
	} else if start > 0 {
		start-- // encoding/json reports the offset after the offending byte
	}
	msg := err.Error()
	if len(bytes.TrimSpace(src)) == 0 {
		msg = "empty file"
	}
	return &JSONProblem{Span: source.Span{Start: start, End: off}, Message: "invalid JSON: " + msg, Code: diag.JSONInvalid}
}

func lineStartOf(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

func skipJSONSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// readObject reads the object at span of valid JSON src. Raw values are
// parts of src.
func readObject(src []byte, span source.Span) (*JSONObject, error) {
	// The members are gathered in a room used again and kept in one
	// allocation of their number: appended one by one, a state file's
	// object grew its slice three or four times.
	room := memberRooms.Get().(*[]JSONMember)
	obj, err := readObjectInto(&JSONObject{Members: *room}, src, span)
	var members []JSONMember
	if obj != nil {
		members = obj.Members
		obj.Members = nil
		if len(members) > 0 {
			obj.Members = slices.Clone(members)
		}
	}
	if cap(members) <= 1024 {
		clear(members) // hold no part of src
		*room = members[:0]
		memberRooms.Put(room)
	}
	return obj, err
}

// memberRooms are readObject's rooms for an object's members.
var memberRooms = sync.Pool{New: func() any { return new([]JSONMember) }}

// readObjectInto is readObject into obj, whose Members' room is used again
// (a caller that reads many objects and keeps none reuses one).
func readObjectInto(obj *JSONObject, src []byte, span source.Span) (*JSONObject, error) {
	if span.Start >= len(src) || src[span.Start] != '{' {
		return nil, fmt.Errorf("not an object")
	}
	*obj = JSONObject{Span: span, Members: obj.Members[:0]}
	scan := jsonScan{src: src[:span.End], i: span.Start}
	ok := scan.object(func(ks, ke, vs, ve int) {
		// The properties the schemas name are not copied each time.
		name, known := propertyName(src[ks+1 : ke-1]) // none has an escape
		if !known {
			var plain bool
			if name, plain = plainString(src[ks:ke]); !plain {
				var decoded string // its own: Unmarshal's target is on the heap, name would be for every member
				_ = json.Unmarshal(src[ks:ke], &decoded)
				name = decoded
			}
		}
		obj.Members = append(obj.Members, JSONMember{
			Name:      name,
			KeySpan:   source.Span{Start: ks, End: ke},
			ValueSpan: source.Span{Start: vs, End: ve},
			Raw:       json.RawMessage(src[vs:ve:ve]),
		})
	})
	if !ok || scan.i != span.End {
		return nil, fmt.Errorf("not an object")
	}
	return obj, nil
}

// propertyNames are the property names of evidence rows, state.json and
// criterion-state.json: readObject takes a name from here rather than
// copying it from every row and file.
var propertyNames = append(EvidenceProperties(), "schemaVersion", "name", "objective", "status", "createdAt", "updatedAt",
	"criteria", "lastToolWriteAt", "lastEvidencePath", "lastTs", "lastSummary", "lastFeatureId")

// propertyName is the one of propertyNames that body spells, if any.
func propertyName(body []byte) (string, bool) {
	for _, name := range propertyNames {
		if string(body) == name {
			return name, true
		}
	}
	return "", false
}

// ValidJSON reports whether src is one JSON value with only white space
// around it, as json.Valid does, in one pass of the sidecars' scanner
// (no allocation).
func ValidJSON(src []byte) bool {
	scan := jsonScan{src: src}
	_, _, ok := scan.document()
	return ok
}

// ReadJSONObject reads the members of the object that JSON src is (white
// space around it allowed), with their spans, in one pass of the sidecars'
// scanner; ok is false when src is not one JSON object.
func ReadJSONObject(src []byte) (obj *JSONObject, ok bool) {
	scan := jsonScan{src: src}
	start, end, ok := scan.document()
	if !ok || src[start] != '{' {
		return nil, false
	}
	obj, err := readObject(src, source.Span{Start: start, End: end})
	return obj, err == nil
}

// readArray returns the spans of the elements of the array at span of
// valid JSON src.
func readArray(src []byte, span source.Span) ([]source.Span, error) {
	if span.Start >= len(src) || src[span.Start] != '[' {
		return nil, fmt.Errorf("not an array")
	}
	var out []source.Span
	scan := jsonScan{src: src[:span.End], i: span.Start}
	if !scan.array(func(vs, ve int) { out = append(out, source.Span{Start: vs, End: ve}) }) || scan.i != span.End {
		return nil, fmt.Errorf("not an array")
	}
	return out, nil
}

// parseJSONObjectFile reads a sidecar whose top level must be an object.
func parseJSONObjectFile(src []byte) (*JSONObject, []JSONProblem) {
	span, p := checkJSON(src)
	if p != nil {
		return nil, []JSONProblem{*p}
	}
	if src[span.Start] != '{' {
		return nil, []JSONProblem{{Span: span, Message: "expected a JSON object at the top level, found " + jsonType(src[span.Start:span.End]), Code: diag.JSONInvalid}}
	}
	obj, err := readObject(src, span)
	if err != nil {
		return nil, []JSONProblem{{Span: span, Message: "invalid JSON: " + err.Error(), Code: diag.JSONInvalid}}
	}
	return obj, nil
}
