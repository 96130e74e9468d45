package lsp

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
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
// says what the diagnostic is; the range where. The last set's JSON is
// kept with where each diagnostic's range and tail are in it, and a
// diagnostic found in the last set (compared field by field, so a digest
// collision cannot send a wrong message) costs its range and a copy of its
// tail, or nothing more than its share of a block copied whole when its
// range did not change either; one not found is converted and encoded by
// the protocol package as before. The JSON is byte for byte what
// protocol.Marshal(toProtocolDiagnostics(ds)) gives
// (TestWireMatchesProtocolMarshal).

// wireCache keeps one document's last encoded diagnostics and their JSON:
// memory is bounded by that one set, whatever the document's history.
//
// A keystroke leaves a document's diagnostics in the order they were (they
// are sorted by position, and an edit moves everything after it alike),
// with a few inserted or removed near the edit. So each diagnostic is
// first compared with the one the last set had at the same place, or a few
// places further (some were removed): no digest is computed then. Only when
// that fails more than a few times in a row (a large edit) is the last set
// indexed by digest, once, to find where the sequences meet again.
//
// Most diagnostics of a keystroke are where they were, range and all (an
// edit within a line moves nothing): a run of them that follow each other
// in the last set is copied from its JSON as one block, commas included.
type wireCache struct {
	mu    sync.Mutex
	last  wireSet // the previous encode's diagnostics and JSON, in order
	spare wireSet // the set before it, emptied, for reuse
	fresh int     // tails the last encode made afresh (tests)
	runs  int     // blocks the last encode copied whole (tests)
	kept  int     // diagnostics of those the reused frame held in place (tests)
	// id is the previous encode's result id: the same JSON again keeps it
	// (wireResultID).
	id string
}

// wireSet is one encode's diagnostics in the order encoded, where each
// one's JSON is in the set's wire, and, once needed, their index by digest.
type wireSet struct {
	frame    []byte // what encode returned: the wire with room around it
	wire     []byte // the JSON array
	headroom int    // where wire is in frame
	entries  []wireEntry
	byDigest map[uint64]int32 // the last entry of each digest; nil until indexed
}

// wireEntry is one diagnostic of a set: wire[start:end] is its JSON,
// `{"range":…` up to tail, then its tail.
type wireEntry struct {
	d                *diag.Diagnostic // what the JSON encodes; never modified
	start, tail, end int32
	// back is where the set before had the same JSON, from start: it was
	// copied from there (noBack: it was not).
	back int32
	prev int32 // the entry before with the same digest, -1 for none (indexed sets)
}

// noBack is the back of an entry not copied from the set before.
const noBack = math.MinInt32

// wireLookahead is how far past the expected place a diagnostic is looked
// for in the last set, and how many misses in a row index it.
const wireLookahead = 4

// wireSeed is per process: digests are never compared across processes.
var wireSeed = maphash.MakeSeed()

// encode returns the JSON array of ds as published (diagnostics switched
// off left out), and its result id: equal ids mean equal JSON. The array
// is frame[headroom:]: the frame has headroom bytes free before it and
// len(publishTail) after (its capacity), for the message to be framed
// around the array in place (notify).
//
// The frame is the one the encode before last returned, reused (a new
// buffer of a megabyte or two per keystroke cost more than copying into
// it): the caller must be done with a frame by the encode after next.
func (c *wireCache) encode(ds []diag.Diagnostic, headroom int) (frame []byte, resultID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	last, next := &c.last, c.spare
	next.entries = next.entries[:0]
	c.fresh, c.runs, c.kept = 0, 0, 0
	size := len(last.wire)
	need := headroom + max(size+size/8, 2) + len(publishTail)
	buf := next.frame[:0]
	// held is the capacity of the frame reused while it still holds the
	// JSON of the set before last at the same headroom (0: it does not):
	// a diagnostic that this set has at the same place, as an edit undone
	// or the text before an edit leaves it, is not copied again.
	held := 0
	if next.frame != nil && next.headroom == headroom {
		held = cap(buf)
	}
	if cap(buf) < need || cap(buf) > 2*need+4096 { // too small, or kept from a far larger set
		buf, held = make([]byte, 0, need), 0
	}
	buf = append(buf[:headroom], '[')
	// A pending block: entries from..to of last, the entries of next from
	// first on; written (and those entries placed) by flush.
	from, to, first := -1, -1, 0
	flush := func() {
		if from < 0 {
			return
		}
		if first > 0 {
			buf = append(buf, ',')
		}
		a, b := last.entries[from].start, last.entries[to].end
		shift := int32(len(buf)-headroom) - a
		// Copied but for the entries the frame holds where they go (the
		// set before last had them there: back == shift), and the comma
		// between two of those: they were in that set's array one after
		// the other. The frame's memory is not even written there: it was
		// last touched two keystrokes ago, and a byte written in each
		// diagnostic cost a cache miss each.
		done := a // last.wire[a:done] is in buf
		for k := from; k <= to && held > 0; k++ {
			e := &last.entries[k]
			if e.back != shift || cap(buf) != held { // cap: buf is still that frame
				continue
			}
			if done == e.start-1 {
				buf = buf[:len(buf)+1] // the comma after the one kept before
			} else {
				buf = append(buf, last.wire[done:e.start]...)
			}
			buf = buf[:len(buf)+int(e.end-e.start)]
			done = e.end
			c.kept++
		}
		buf = append(buf, last.wire[done:b]...)
		c.runs++
		for i := first; i < len(next.entries); i++ {
			e := &next.entries[i]
			e.start, e.tail, e.end, e.back = e.start+shift, e.tail+shift, e.end+shift, -shift
		}
		from = -1
	}
	at, misses := 0, 0 // where the next diagnostic is expected in last
	for i := range ds {
		d := &ds[i]
		if d.Severity == diag.SeverityOff {
			continue
		}
		k := -1
		for j := at; j < min(at+wireLookahead, len(last.entries)); j++ {
			if sameWire(last.entries[j].d, d) {
				k = j
				break
			}
		}
		if k < 0 {
			if misses++; misses > wireLookahead || last.byDigest != nil {
				k = last.find(d)
			}
		}
		if k >= 0 {
			at, misses = k+1, 0
			if e := last.entries[k]; e.d.Range == d.Range {
				// The same JSON as the last set's: part of a block.
				if from < 0 || k != to+1 {
					flush()
					from, first = k, len(next.entries)
				}
				to = k
				next.entries = append(next.entries, wireEntry{d: d, start: e.start, tail: e.tail, end: e.end, back: noBack, prev: -1})
				continue
			}
		}
		flush()
		var tail []byte
		if k >= 0 {
			e := last.entries[k]
			tail = last.wire[e.tail:e.end]
		} else {
			tail = encodeTail(d)
			c.fresh++
		}
		if len(next.entries) > 0 {
			buf = append(buf, ',')
		}
		start := int32(len(buf) - headroom)
		buf = appendRange(buf, d)
		mid := int32(len(buf) - headroom)
		buf = append(buf, tail...)
		next.entries = append(next.entries, wireEntry{d: d, start: start, tail: mid, end: int32(len(buf) - headroom), back: noBack, prev: -1})
	}
	flush()
	buf = append(buf, ']')
	if cap(buf)-len(buf) < len(publishTail) {
		buf = slices.Grow(buf, len(publishTail))
	}
	next.frame, next.wire, next.headroom = buf, buf[headroom:len(buf):len(buf)], headroom
	c.id = c.resultID(next.wire, last)
	clear(last.entries[:cap(last.entries)]) // holds no diagnostics for nothing
	last.byDigest, last.wire = nil, nil     // its frame is the next encode's
	c.spare, c.last = *last, next
	return buf, c.id
}

// resultID is the result id of wire, the JSON encode just made: the last
// one's when the JSON is last's, else one never given before. Hashing
// the whole JSON for its id cost a keystroke on a register of 2,300
// diagnostics (1.3 MB) ≈ 0.2 ms; comparing with the last stops at the
// first difference, near the edit. Equal ids still mean equal JSON; equal
// JSON now and then gets a new id (after a set in between), for which a
// client asks the full report once more. An empty set has one id
// (noDiagnostics' too).
func (c *wireCache) resultID(wire []byte, last *wireSet) string {
	switch {
	case len(wire) == len(emptyWire):
		return emptyWireID
	case c.id != "" && bytes.Equal(wire, last.wire):
		return c.id
	}
	return strconv.FormatUint(wireEpoch, 16) + "-" + strconv.FormatUint(wireSerial.Add(1), 16)
}

// wireEpoch tells this process's result ids from another's (a server
// started again), wireSerial one from the next.
var (
	wireEpoch  = rand.Uint64()
	wireSerial atomic.Uint64
)

// find returns the index of an entry of s with d's tail, or -1, indexing
// s by digest the first time.
func (s *wireSet) find(d *diag.Diagnostic) int {
	if s.byDigest == nil {
		s.byDigest = make(map[uint64]int32, len(s.entries))
		for i := range s.entries {
			h := wireDigest(s.entries[i].d)
			s.entries[i].prev = -1
			if k, ok := s.byDigest[h]; ok {
				s.entries[i].prev = k
			}
			s.byDigest[h] = int32(i)
		}
	}
	k, ok := s.byDigest[wireDigest(d)]
	for ok && k >= 0 {
		if sameWire(s.entries[k].d, d) {
			return int(k)
		}
		k = s.entries[k].prev
	}
	return -1
}

// forget drops the kept tails (the document closed).
func (c *wireCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last, c.spare, c.id = wireSet{}, wireSet{}, ""
}

// emptyWire is an empty set of diagnostics, and emptyWireID its result id.
var (
	emptyWire   = []byte("[]")
	emptyWireID = "0"
)

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
	// A diagnostic carried over from the last check shares its Data map:
	// the same map is not walked.
	return len(a.Data) == 0 || reflect.ValueOf(a.Data).UnsafePointer() == reflect.ValueOf(b.Data).UnsafePointer() ||
		maps.Equal(a.Data, b.Data)
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

// A publish is framed around its diagnostics array in place: the array is
// written after room for what comes before it (publishHeadroom), and the
// message is then the frame header (stream.writeFrame), the JSON-RPC
// envelope's start, the params' start (appendPublishHead), the array and
// publishTail, written at once.
var publishEnvelope = sync.OnceValues(func() (head, tail string) {
	// The envelope as jsonrpc2 writes a notification, around params "0".
	msg := string(jsonrpc2.AppendNotification(nil, protocol.MethodTextDocumentPublishDiagnostics, jsonrpc2.RawMessage("0")))
	head, tail, ok := strings.Cut(msg, `"params":0`)
	if !ok {
		panic("lsp: unexpected notification envelope " + msg)
	}
	return head + `"params":`, tail
})

// publishTail ends a publish after its array: the params, then the
// envelope.
var publishTail = "}" + func() string { _, tail := publishEnvelope(); return tail }()

// appendPublishHead appends what comes before the diagnostics array in a
// publish message for u: the envelope's start and the params' up to
// "diagnostics":; version is left out when nil.
func appendPublishHead(buf []byte, u uri.URI, version *int32) []byte {
	head, _ := publishEnvelope()
	return appendParamsHead(append(buf, head...), u, version)
}

// appendParamsHead appends the publishDiagnostics params for u up to their
// diagnostics array.
func appendParamsHead(buf []byte, u uri.URI, version *int32) []byte {
	quoted, _ := json.Marshal(string(u)) // a string always encodes
	buf = append(buf, `{"uri":`...)
	buf = append(buf, quoted...)
	if version != nil {
		buf = append(buf, `,"version":`...)
		buf = strconv.AppendInt(buf, int64(*version), 10)
	}
	return append(buf, `,"diagnostics":`...)
}

// publishHeadroom is the room to keep before a diagnostics array for u to
// be framed in place: the frame header and the longest publish head.
func publishHeadroom(u uri.URI) int {
	longest := int32(math.MinInt32)
	var scratch [256]byte
	return frameHeaderRoom + len(appendPublishHead(scratch[:0], u, &longest))
}

// publishParams appends publishDiagnostics params carrying the diagnostics
// array wire to buf; version is left out when nil.
func publishParams(buf []byte, u uri.URI, version *int32, wire []byte) []byte {
	return append(append(appendParamsHead(buf, u, version), wire...), '}')
}
