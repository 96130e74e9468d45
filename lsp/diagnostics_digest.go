package lsp

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"

	"go.lsp.dev/protocol"
)

// digest identifies a set of diagnostics by what goes on the wire: equal
// digests mean equal publishes. It hashes the fields directly rather than
// encoding the JSON that is sent (which cost ≈ 1.5 ms per keystroke on a
// 5,000-VAL register, on top of the encoding for the send itself). Digests
// are compared only within one server process (republishing, and pull
// result ids the client got from this process), so a per-process seed is
// fine: an id from an earlier process just gets a full report.
func digest(items []protocol.Diagnostic) string {
	d := digester{}
	d.h.SetSeed(digestSeed)
	d.int(len(items))
	for i := range items {
		d.diagnostic(&items[i])
	}
	return fmt.Sprintf("%016x", d.h.Sum64())
}

// digester writes values unambiguously: strings and lists carry their
// length, and every optional or union value a tag for what it holds.
type digester struct {
	h   maphash.Hash
	buf [8]byte
}

var digestSeed = maphash.MakeSeed()

func (d *digester) int(n int) {
	binary.LittleEndian.PutUint64(d.buf[:], uint64(n))
	d.h.Write(d.buf[:])
}

func (d *digester) str(s string) {
	d.int(len(s))
	d.h.WriteString(s)
}

func (d *digester) bytes(b []byte) {
	d.int(len(b))
	d.h.Write(b)
}

func (d *digester) rng(r protocol.Range) {
	d.int(int(r.Start.Line))
	d.int(int(r.Start.Character))
	d.int(int(r.End.Line))
	d.int(int(r.End.Character))
}

// other hashes a value of a kind the server does not produce, by its JSON.
func (d *digester) other(v any) {
	raw, err := protocol.Marshal(v)
	if err != nil {
		raw = []byte(fmt.Sprintf("%#v", v))
	}
	d.bytes(raw)
}

func (d *digester) diagnostic(x *protocol.Diagnostic) {
	d.rng(x.Range)
	d.int(int(x.Severity))
	switch c := x.Code.(type) {
	case nil:
		d.int(0)
	case protocol.String:
		d.int(1)
		d.str(string(c))
	case protocol.Integer:
		d.int(2)
		d.int(int(c))
	default:
		d.int(3)
		d.other(c)
	}
	d.str(string(x.CodeDescription.Href))
	if s, ok := x.Source.Get(); ok {
		d.int(1)
		d.str(s)
	} else {
		d.int(0)
	}
	switch m := x.Message.(type) {
	case nil:
		d.int(0)
	case protocol.String:
		d.int(1)
		d.str(string(m))
	case *protocol.MarkupContent:
		d.int(2)
		if m != nil {
			d.str(string(m.Kind))
			d.str(m.Value)
		}
	default:
		d.int(3)
		d.other(m)
	}
	d.int(x.Tags.Len())
	for _, t := range x.Tags.Slice() {
		d.int(int(t))
	}
	d.int(len(x.RelatedInformation))
	for _, r := range x.RelatedInformation {
		d.str(string(r.Location.URI))
		d.rng(r.Location.Range)
		d.str(r.Message)
	}
	// Data is already JSON with sorted keys (toProtocolDiagnostics).
	d.bytes(x.Data)
}
