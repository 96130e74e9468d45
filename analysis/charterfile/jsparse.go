package charterfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// jsonParse decodes src into a value as JavaScript's JSON.parse would
// accept it: encoding/json agrees on the syntax, but refuses a number
// beyond float64's range ("1e400") that JSON.parse reads as ±Infinity
// (and a tiny one it reads as 0). Such a file is one upstream loads, so it
// must not be reported as not JSON. Objects are map[string]any (a repeated
// key keeps its last value, as in JSON.parse), numbers float64.
func jsonParse(src []byte) (any, error) {
	if err := jsonSyntax(src); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return jsNumbers(v), nil
}

// jsonSyntax is encoding/json's syntax error in src (with its offset), nil
// when src is one JSON value: the scanner pi reads sidecars with says so
// without encoding/json's copy of the value, and encoding/json is asked
// only for its message.
func jsonSyntax(src []byte) error {
	if pi.ValidJSON(src) {
		return nil
	}
	var raw json.RawMessage
	return json.Unmarshal(src, &raw)
}

// jsNumbers turns every json.Number in v into the float64 JavaScript reads.
func jsNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		var ne *strconv.NumError
		if err != nil && !(errors.As(err, &ne) && ne.Err == strconv.ErrRange) {
			return math.NaN() // not reached: the syntax was checked
		}
		return f // ±Inf or 0 out of range, as JavaScript rounds it
	case map[string]any:
		for k, e := range x {
			x[k] = jsNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = jsNumbers(e)
		}
	}
	return v
}

// jsonProblem says why JSON.parse throws on src, in the words a user
// recognises: a byte-order mark (which JSON.parse, unlike some editors,
// does not skip), a line of only spaces, or else encoding/json's message.
func jsonProblem(src []byte, err error) string {
	switch {
	case bytes.HasPrefix(src, []byte("\uFEFF")):
		return "it starts with a byte-order mark, which JSON.parse does not skip; save it as UTF-8 without BOM"
	case len(bytes.TrimSpace(src)) == 0 && len(src) > 0:
		return "only white space"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
