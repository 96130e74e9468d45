package pi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// The byte scanner accepts what encoding/json accepts, and reads objects
// and arrays as encoding/json's decoder did: the same members, names,
// spans and raw values.
func TestJSONScanMatchesEncodingJSON(t *testing.T) {
	seeds := []string{
		`{}`, `[]`, ` { "a" : 1 , "b":[1,2,{"c":null}], "d":"x\"y", "e":true, "f":false } `,
		`{"a":"\u00e9\ud83d\ude00","b":-0.5e+10,"c":0,"d":"tab\there"}`, `[1,"a",{"k":"v"},[],{}]`,
		`{"a":1,}`, `{"a" 1}`, `[1,]`, `01`, `-`, `1.`, `1e`, `"\x"`, `"\u12"`, "\"a\x01b\"", `{"a":1}{}`,
		`{"é":"ü","a":"\xff\xfe"}`, `nul`, `tru`, `{"a":[1,[2,[3]]]}`, "", " ", `{"dup":1,"dup":2}`,
		"{\n  \"charterId\": \"x\",\n  \"outcome\": \"pass\"\n}\n",
	}
	rng := rand.New(rand.NewSource(1))
	var inputs []string
	for _, s := range seeds {
		inputs = append(inputs, s)
		for range 200 {
			b := []byte(s)
			if len(b) == 0 {
				break
			}
			const alphabet = "{}[]\",:\\ 0a-eu\x00"
			switch rng.Intn(3) {
			case 0:
				b[rng.Intn(len(b))] = alphabet[rng.Intn(len(alphabet))]
			case 1:
				i := rng.Intn(len(b))
				b = append(b[:i], b[i+1:]...)
			case 2:
				i := rng.Intn(len(b) + 1)
				b = append(b[:i], append([]byte{alphabet[rng.Intn(len(alphabet))]}, b[i:]...)...)
			}
			inputs = append(inputs, string(b))
		}
	}
	for _, in := range inputs {
		src := []byte(in)
		scan := jsonScan{src: src}
		start, end, ok := scan.document()
		if ok != json.Valid(src) {
			t.Fatalf("%q: scanner says valid %v, encoding/json %v", in, ok, json.Valid(src))
		}
		if ValidJSON(src) != ok {
			t.Fatalf("%q: ValidJSON says %v", in, !ok)
		}
		if obj, isObj := ReadJSONObject(src); isObj != (ok && src[start] == '{') {
			t.Fatalf("%q: ReadJSONObject says an object %v", in, isObj)
		} else if isObj {
			want, werr := decoderObject(src, source.Span{Start: start, End: end})
			if werr != nil || !reflect.DeepEqual(obj, want) {
				t.Fatalf("%q: ReadJSONObject = %+v; the decoder read %+v, %v", in, obj, want, werr)
			}
		}
		if !ok {
			continue
		}
		span, p := checkJSON(src)
		if p != nil || span != (source.Span{Start: start, End: end}) {
			t.Fatalf("%q: checkJSON = %v, %v", in, span, p)
		}
		switch src[start] {
		case '{':
			got, err := readObject(src, span)
			want, werr := decoderObject(src, span)
			if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: readObject = %+v, %v; the decoder read %+v, %v", in, got, err, want, werr)
			}
			for i := range got.Members {
				s1, ok1 := got.Members[i].String()
				var s2 string
				ok2 := got.Members[i].Raw[0] == '"' && json.Unmarshal(got.Members[i].Raw, &s2) == nil
				if s1 != s2 || ok1 != ok2 {
					t.Fatalf("%q: String() = %q, %v; want %q, %v", in, s1, ok1, s2, ok2)
				}
			}
		case '[':
			got, err := readArray(src, span)
			want, werr := decoderArray(src, span)
			if err != nil || werr != nil || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%q: readArray = %v, %v; the decoder read %v, %v", in, got, err, want, werr)
			}
		}
	}
}

// decoderObject is readObject as it was written on encoding/json's
// decoder, the reference.
func decoderObject(src []byte, span source.Span) (*JSONObject, error) {
	dec := json.NewDecoder(bytes.NewReader(src[span.Start:span.End]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not an object")
	}
	obj := &JSONObject{Span: span}
	for dec.More() {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		keyEnd := int(dec.InputOffset())
		keyStart := before
		for keyStart < keyEnd && src[span.Start+keyStart] != '"' {
			keyStart++
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		obj.Members = append(obj.Members, JSONMember{
			Name:      name,
			KeySpan:   source.Span{Start: span.Start + keyStart, End: span.Start + keyEnd},
			ValueSpan: source.Span{Start: span.Start + end - len(raw), End: span.Start + end},
			Raw:       raw,
		})
	}
	return obj, nil
}

func decoderArray(src []byte, span source.Span) ([]source.Span, error) {
	dec := json.NewDecoder(bytes.NewReader(src[span.Start:span.End]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("not an array")
	}
	var out []source.Span
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		out = append(out, source.Span{Start: span.Start + end - len(raw), End: span.Start + end})
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return nil, err
	}
	return out, nil
}

// FuzzJSONScan holds the scanner to encoding/json on any input.
func FuzzJSONScan(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c\n"}],"d":-1.5e3}`))
	f.Add([]byte(`[{"criterionId":"VAL-A-001","outcome":"pass"}]`))
	f.Fuzz(func(t *testing.T, src []byte) {
		scan := jsonScan{src: src}
		start, end, ok := scan.document()
		if ok != json.Valid(src) {
			t.Fatalf("scanner says valid %v, encoding/json %v", ok, json.Valid(src))
		}
		if ok && src[start] == '{' {
			got, err := readObject(src, source.Span{Start: start, End: end})
			want, werr := decoderObject(src, source.Span{Start: start, End: end})
			if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("readObject = %+v, %v; the decoder read %+v, %v", got, err, want, werr)
			}
		}
	})
}
