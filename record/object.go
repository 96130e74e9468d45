package record

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/charter-lsp/charter-lsp/internal/jsonenc"
)

// object is a JSON object that keeps its members in order, so rewriting
// criterion-state.json keeps the order upstream (JavaScript) would: existing
// keys in place, new keys appended, unknown keys preserved. An index by key
// keeps reading and updating linear in the object's size (a file of 100k
// keys is read and rewritten in one pass, not one scan per key).
type object struct {
	members []member
	index   map[string]int // key → position in members
}

type member struct {
	Key   string
	Value json.RawMessage
}

func (o *object) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("not a JSON object")
	}
	*o = object{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		o.set(key, v)
	}
	_, err = dec.Token()
	return err
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := jsonenc.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (o *object) get(key string) (json.RawMessage, bool) {
	if i, ok := o.index[key]; ok {
		return o.members[i].Value, true
	}
	return nil, false
}

// set replaces key's value in place, or appends it; a repeated key keeps
// its first position and its last value, as JSON.parse does.
func (o *object) set(key string, v json.RawMessage) {
	if i, ok := o.index[key]; ok {
		o.members[i].Value = v
		return
	}
	if o.index == nil {
		o.index = map[string]int{}
	}
	o.index[key] = len(o.members)
	o.members = append(o.members, member{key, v})
}

// prepend puts key first, unless it is there already.
func (o *object) prepend(key string, v json.RawMessage) {
	if _, ok := o.index[key]; ok {
		return
	}
	o.members = append([]member{{key, v}}, o.members...)
	o.index = make(map[string]int, len(o.members))
	for i, m := range o.members {
		o.index[m.Key] = i
	}
}
