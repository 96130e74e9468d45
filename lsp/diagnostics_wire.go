package lsp

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strconv"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// A document's diagnostics go to the client as JSON that is mostly what the
// previous publish sent: a keystroke changes a few diagnostics and moves
// others to new lines. Encoding every diagnostic again per keystroke was
// the largest part of the server's work on a register with thousands of
// them (≈ 1.5 MB of JSON), so each document keeps the JSON of its last set
// of diagnostics and re-encodes only the diagnostics that changed.
//
// A diagnostic is written as {"range":…,<tail>}. The tail — severity, code
// and its documentation link, source, message, related locations, data —
// says what the diagnostic is; the range where. Tails are kept, keyed by a
// digest of the fields they are made from, and a diagnostic found there
// (compared field by field, so a digest collision cannot send a wrong
// message) costs its range and a copy; one not found is converted and
// encoded by the protocol package as before. The JSON is byte for byte what
// protocol.Marshal(toProtocolDiagnostics(ds)) gives
// (TestWireMatchesProtocolMarshal).

// wireCache keeps the tails of one document's last encoded diagnostics:
// memory is bounded by that one set, whatever the document's history.
type wireCache struct {
	mu    sync.Mutex
	last  map[uint64][]wireEntry // the tails of the previous encode
	spare map[uint64][]wireEntry // the map before it, cleared, for reuse
	size  int                    // length of the previous JSON, to size the next
}

type wireEntry struct {
	d    *diag.Diagnostic // what the tail encodes (its range aside); never modified
	tail []byte
}

// wireSeed is per process: digests are never compared across processes.
var wireSeed = maphash.MakeSeed()

// encode returns the JSON array of ds as published (diagnostics switched
// off left out), and its result id: equal ids mean equal JSON.
func (c *wireCache) encode(ds []diag.Diagnostic) (wire []byte, resultID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	next := c.spare
	if next == nil {
		next = make(map[uint64][]wireEntry, len(ds))
	}
	buf := make([]byte, 0, max(c.size+c.size/8, 2))
	buf = append(buf, '[')
	n := 0
	for i := range ds {
		d := &ds[i]
		if d.Severity == diag.SeverityOff {
			continue
		}
		h := wireDigest(d)
		tail := findTail(next[h], d)
		if tail == nil {
			if tail = findTail(c.last[h], d); tail == nil {
				tail = encodeTail(d)
			}
			next[h] = append(next[h], wireEntry{d: d, tail: tail})
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		n++
		buf = appendRange(buf, d)
		buf = append(buf, tail...)
	}
	buf = append(buf, ']')
	clear(c.last)
	c.spare, c.last, c.size = c.last, next, len(buf)
	return buf, wireID(buf)
}

// forget drops the kept tails (the document closed).
func (c *wireCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last, c.spare, c.size = nil, nil, 0
}

// wireID is the result id of a diagnostics array's JSON.
func wireID(wire []byte) string { return fmt.Sprintf("%016x", maphash.Bytes(wireSeed, wire)) }

// emptyWire is an empty set of diagnostics.
var emptyWire = []byte("[]")

func findTail(es []wireEntry, d *diag.Diagnostic) []byte {
	for _, e := range es {
		if sameWire(e.d, d) {
			return e.tail
		}
	}
	return nil
}

// rangeHead is how protocol.Marshal starts a diagnostic at the zero range;
// encodeTail cuts it off.
const rangeHead = `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}`

// encodeTail encodes d without its range: what follows the range member.
func encodeTail(d *diag.Diagnostic) []byte {
	one := *d
	one.Range = zeroRange
	items := toProtocolDiagnostics([]diag.Diagnostic{one})
	raw, err := protocol.Marshal(&items[0])
	if err != nil || len(raw) < len(rangeHead) || string(raw[:len(rangeHead)]) != rangeHead {
		// Cannot happen with the protocol package we build with
		// (TestWireMatchesProtocolMarshal); fail loudly in tests, and
		// send a valid diagnostic here regardless.
		panic(fmt.Sprintf("lsp: unexpected diagnostic encoding %.80q: %v", raw, err))
	}
	return raw[len(rangeHead):]
}

var zeroRange = diag.Diagnostic{}.Range

// appendRange writes `{"range":{…}` for d's range as protocol.Marshal does.
func appendRange(buf []byte, d *diag.Diagnostic) []byte {
	r := toProtocolRange(d.Range)
	buf = append(buf, `{"range":{"start":{"line":`...)
	buf = strconv.AppendUint(buf, uint64(r.Start.Line), 10)
	buf = append(buf, `,"character":`...)
	buf = strconv.AppendUint(buf, uint64(r.Start.Character), 10)
	buf = append(buf, `},"end":{"line":`...)
	buf = strconv.AppendUint(buf, uint64(r.End.Line), 10)
	buf = append(buf, `,"character":`...)
	buf = strconv.AppendUint(buf, uint64(r.End.Character), 10)
	return append(buf, "}}"...)
}

// sameWire reports whether a and b have the same tail: every field
// toProtocolDiagnostics reads except the range.
func sameWire(a, b *diag.Diagnostic) bool {
	if a.Severity != b.Severity || a.Code != b.Code || a.Source != b.Source || a.Message != b.Message ||
		len(a.Related) != len(b.Related) || len(a.Data) != len(b.Data) {
		return false
	}
	for i := range a.Related {
		x, y := &a.Related[i], &b.Related[i]
		if x.File != y.File || x.Range != y.Range || x.Message != y.Message {
			return false
		}
	}
	for k, v := range a.Data {
		if w, ok := b.Data[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// wireDigest hashes the fields sameWire compares. Strings carry their
// length, so moving text from one field to the next changes the digest.
func wireDigest(d *diag.Diagnostic) uint64 {
	var h maphash.Hash
	h.SetSeed(wireSeed)
	var b [8]byte
	num := func(n int) {
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
	str := func(s string) {
		num(len(s))
		h.WriteString(s)
	}
	num(int(d.Severity))
	num(int(d.Code))
	str(d.Source)
	str(d.Message)
	num(len(d.Related))
	for _, r := range d.Related {
		str(r.File)
		num(r.Range.Start.Line)
		num(r.Range.Start.Character)
		num(r.Range.End.Line)
		num(r.Range.End.Character)
		str(r.Message)
	}
	// Data is a map: combine its pairs in an order-free way.
	var data uint64
	for k, v := range d.Data {
		var p maphash.Hash
		p.SetSeed(wireSeed)
		p.WriteString(k)
		p.WriteByte(0)
		p.WriteString(v)
		data += p.Sum64()
	}
	num(len(d.Data))
	num(int(data))
	return h.Sum64()
}

// publishParams appends publishDiagnostics params carrying the diagnostics
// array wire to buf; version is left out when nil.
func publishParams(buf []byte, u uri.URI, version *int32, wire []byte) []byte {
	quoted, _ := json.Marshal(string(u)) // a string always encodes
	buf = append(buf, `{"uri":`...)
	buf = append(buf, quoted...)
	if version != nil {
		buf = append(buf, `,"version":`...)
		buf = strconv.AppendInt(buf, int64(*version), 10)
	}
	buf = append(buf, `,"diagnostics":`...)
	buf = append(buf, wire...)
	return append(buf, '}')
}
