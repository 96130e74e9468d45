package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// randomDiagnostic draws from a small vocabulary, so that successive sets
// share many diagnostics (what the cache reuses) and differ in every field
// somewhere (what it must not reuse).
func randomDiagnostic(r *rand.Rand) diag.Diagnostic {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	rng := func() source.Range {
		l := r.IntN(40)
		return source.Range{Start: source.Position{Line: l, Character: r.IntN(5)}, End: source.Position{Line: l + r.IntN(2), Character: r.IntN(90)}}
	}
	codes := []diag.Code{diag.InvalidVerifier, diag.MilestoneSize, diag.StaleEvidence, diag.SectionMissing}
	d := diag.Diagnostic{
		Range:    rng(),
		Severity: diag.Severity(r.IntN(5)), // 0 is off: never sent
		Code:     codes[r.IntN(len(codes))],
		Source:   pick("", "charter", "other"),
		Message:  pick("VAL-A-001: unknown verifier", "VAL-A-002: unknown verifier", `quote " back\ slash`, "é ✓ \u2028 <&>", "tab\tnew\nline"),
	}
	if r.IntN(4) == 0 {
		d.Related = []diag.Related{{File: pick("/p/a.md", "/p/b c.md", "/p/é.json"), Range: rng(), Message: pick("first", "evidence row")}}
		if r.IntN(3) == 0 {
			d.Related = append(d.Related, diag.Related{File: "", Range: rng(), Message: "dropped: no file"})
		}
	}
	if r.IntN(4) == 0 {
		d.Data = map[string]string{"id": pick("VAL-A-001", "VAL-B-002"), "kind": pick("command", "hook")}
		if r.IntN(2) == 0 {
			d.Data["z"], d.Data["a"] = "last", "first"
		}
	}
	return d
}

// The encoded array is exactly what the protocol package makes of the
// converted diagnostics, through sequences of sets in which diagnostics
// move, change one field, appear and disappear: a reused tail is always
// the right one.
func TestWireMatchesProtocolMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var c wireCache
	var ds []diag.Diagnostic
	byID := map[string]string{} // the JSON each result id was given to
	var lastWire, lastID string
	kept := 0
	for step := range 400 {
		next := make([]diag.Diagnostic, 0, len(ds)+4)
		// Now and then a run of them goes at once (a block deleted): the
		// cache must find where the sets meet again.
		cutFrom, cutTo := -1, -1
		if step%7 == 3 && len(ds) > 0 {
			cutFrom = r.IntN(len(ds))
			cutTo = cutFrom + 3 + r.IntN(12)
		}
		for i, d := range ds {
			if i >= cutFrom && i < cutTo {
				continue
			}
			if r.IntN(30) == 0 { // new ones before it
				for range 1 + r.IntN(3) {
					next = append(next, randomDiagnostic(r))
				}
			}
			switch r.IntN(10) {
			case 0: // gone
			case 1: // moved
				d.Range.Start.Line++
				d.Range.End.Line++
				next = append(next, d)
			case 2: // one field changed
				e := randomDiagnostic(r)
				switch r.IntN(6) {
				case 0:
					d.Severity = e.Severity
				case 1:
					d.Code = e.Code
				case 2:
					d.Message = e.Message
				case 3:
					d.Related = e.Related
				case 4:
					d.Data = e.Data
				case 5:
					d.Source = e.Source
				}
				next = append(next, d)
			default:
				next = append(next, d)
			}
		}
		for range r.IntN(6) {
			next = append(next, randomDiagnostic(r))
		}
		if step%50 == 49 {
			next = nil // everything fixed
		}
		ds = next
		got, id := c.encode(ds, 0)
		kept += c.kept
		want, err := protocol.Marshal(toProtocolDiagnostics(ds))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("step %d: encoded\n%s\nwant\n%s", step, got, want)
		}
		// Equal ids mean equal JSON; the same JSON as the last keeps its id.
		if w, seen := byID[id]; seen && w != string(want) {
			t.Fatalf("step %d: result id %s was given to\n%s\nbefore, now to\n%s", step, id, w, want)
		}
		if string(want) == lastWire && id != lastID {
			t.Fatalf("step %d: the same JSON as the last has id %s, the last had %s", step, id, lastID)
		}
		byID[id], lastWire, lastID = string(want), string(want), id
		if step%9 == 4 { // the same set again
			if _, again := c.encode(ds, 0); again != id {
				t.Fatalf("step %d: the same set encoded again has id %s, first %s", step, again, id)
			}
		}
	}
	if kept == 0 {
		t.Error("no diagnostic was ever held in place in a reused frame")
	}
}

// A keystroke that inserts and removes a diagnostic and moves the rest
// encodes only the new one: the others are found where the last set had
// them, without digests.
func TestWireReusesAlignedTails(t *testing.T) {
	var ds []diag.Diagnostic
	for i := range 200 {
		ds = append(ds, diag.Diagnostic{Severity: diag.SeverityWarning, Code: diag.InvalidVerifier, Message: fmt.Sprintf("VAL-A-%03d: unknown verifier", i),
			Range: source.Range{Start: source.Position{Line: i}}, Data: map[string]string{"evidence": "work/m1"}})
	}
	var c wireCache
	c.encode(ds, 0)
	if c.fresh != len(ds) {
		t.Fatalf("first encode made %d tails, want %d", c.fresh, len(ds))
	}
	next := slices.Clone(ds[:100])
	next = append(next, diag.Diagnostic{Severity: diag.SeverityError, Code: diag.DuplicateVALID, Message: "new"})
	next = append(next, ds[101:]...) // ds[100] gone
	for i := range next[101:] {
		next[101+i].Range.Start.Line++
	}
	got, _ := c.encode(next, 0)
	want, err := protocol.Marshal(toProtocolDiagnostics(next))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("encoded\n%s\nwant\n%s", got, want)
	}
	if c.fresh != 1 || c.spare.byDigest != nil {
		t.Errorf("a keystroke made %d tails afresh (want 1), indexed the last set: %v", c.fresh, c.spare.byDigest != nil)
	}
	// The 100 before the new one are where they were: one block.
	if c.runs != 1 {
		t.Errorf("copied %d blocks, want 1 (the diagnostics before the edit)", c.runs)
	}
}

// A keystroke within a line moves no diagnostic: those that did not change
// are copied from the last JSON as a block on each side of the change.
func TestWireCopiesUnmovedRuns(t *testing.T) {
	var ds []diag.Diagnostic
	for i := range 300 {
		ds = append(ds, diag.Diagnostic{Severity: diag.SeverityWarning, Code: diag.InvalidVerifier, Message: fmt.Sprintf("VAL-A-%03d: unknown verifier", i),
			Range: source.Range{Start: source.Position{Line: 2 * i}, End: source.Position{Line: 2 * i, Character: 9}}})
	}
	var c wireCache
	for step, edit := range []func(next []diag.Diagnostic) []diag.Diagnostic{
		func(next []diag.Diagnostic) []diag.Diagnostic { next[150].Range.End.Character++; return next }, // the range changed
		func(next []diag.Diagnostic) []diag.Diagnostic { next[150].Message = "changed"; return next },   // the tail changed
		func(next []diag.Diagnostic) []diag.Diagnostic { return slices.Delete(next, 150, 151) },         // one gone
		func(next []diag.Diagnostic) []diag.Diagnostic { next[0].Message = "first"; return next },       // at the start
		func(next []diag.Diagnostic) []diag.Diagnostic { next[len(next)-1].Severity = 1; return next },  // at the end
	} {
		c.encode(ds, 0)
		next := edit(slices.Clone(ds))
		got, _ := c.encode(next, 5)
		want, err := protocol.Marshal(toProtocolDiagnostics(next))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[5:], want) {
			t.Fatalf("edit %d: encoded\n%s\nwant\n%s", step, got[5:], want)
		}
		blocks := 2
		if step >= 3 {
			blocks = 1
		}
		if c.runs != blocks || c.fresh > 1 {
			t.Errorf("edit %d: copied %d blocks and made %d tails afresh, want %d blocks", step, c.runs, c.fresh, blocks)
		}
		if cap(got)-len(got) < len(publishTail) {
			t.Errorf("edit %d: no room for the message's end: %d", step, cap(got)-len(got))
		}
		// The frame reused is that of the set before last, ds or the
		// edit before (with the same headroom from the second edit on):
		// the diagnostics before the edit are there already.
		if step > 0 && step < 3 && c.kept < 150 {
			t.Errorf("edit %d: %d diagnostics held in place, want the 150 before the edit", step, c.kept)
		}
	}
}

// The cache holds the tails of the last set only: a document's memory does
// not grow with the number of different diagnostics it has had.
func TestWireCacheKeepsTheLastSet(t *testing.T) {
	var c wireCache
	for i := range 100 {
		var ds []diag.Diagnostic
		for j := range 10 {
			ds = append(ds, diag.Diagnostic{Severity: diag.SeverityWarning, Code: diag.InvalidVerifier, Message: fmt.Sprintf("set %d, #%d", i, j)})
		}
		c.encode(ds, 0)
	}
	spare := 0
	for _, e := range c.spare.entries[:cap(c.spare.entries)] {
		if e.d != nil {
			spare++
		}
	}
	if n := len(c.last.entries); n != 10 || spare != 0 {
		t.Errorf("cache holds %d tails (and %d spare ones) after 100 sets of 10; want the last 10", n, spare)
	}
	c.forget()
	if c.last.entries != nil {
		t.Error("forget kept the tails")
	}
}

// Two diagnostics that differ in any field the tail is made from are told
// apart (by digest, and in any case by sameWire); equal ones digest alike
// whatever order Go iterates their Data in.
func TestWireDigestTellsTailsApart(t *testing.T) {
	base := func() diag.Diagnostic {
		return diag.Diagnostic{
			Range:    source.Range{Start: source.Position{Line: 3, Character: 4}, End: source.Position{Line: 3, Character: 9}},
			Severity: diag.SeverityWarning, Code: diag.InvalidVerifier, Source: "charter", Message: "VAL-A-001: unknown verifier kind",
			Related: []diag.Related{{File: "/p/a.md", Range: source.Range{End: source.Position{Line: 1}}, Message: "first definition"}},
			Data:    map[string]string{"kind": "command", "a": "1", "b": "2", "c": "3"},
		}
	}
	changes := []struct {
		name   string
		change func(d *diag.Diagnostic)
	}{
		{"severity", func(d *diag.Diagnostic) { d.Severity = diag.SeverityError }},
		{"code", func(d *diag.Diagnostic) { d.Code = diag.MilestoneSize }},
		{"source", func(d *diag.Diagnostic) { d.Source = "other" }},
		{"no source", func(d *diag.Diagnostic) { d.Source = "" }},
		{"message", func(d *diag.Diagnostic) { d.Message += "s" }},
		{"related file", func(d *diag.Diagnostic) { d.Related[0].File = "/p/b.md" }},
		{"related range", func(d *diag.Diagnostic) { d.Related[0].Range.Start.Character = 2 }},
		{"related message", func(d *diag.Diagnostic) { d.Related[0].Message = "evidence row" }},
		{"no related", func(d *diag.Diagnostic) { d.Related = nil }},
		{"data value", func(d *diag.Diagnostic) { d.Data["kind"] = "hook" }},
		{"data key", func(d *diag.Diagnostic) { delete(d.Data, "a"); d.Data["A"] = "1" }},
		{"data pairs swapped", func(d *diag.Diagnostic) { d.Data["a"], d.Data["b"] = "2", "1" }},
		{"no data", func(d *diag.Diagnostic) { d.Data = nil }},
		{"source/message boundary", func(d *diag.Diagnostic) { d.Source, d.Message = "charterV", "AL-A-001: unknown verifier kind" }},
	}
	b := base()
	want := wireDigest(&b)
	for range 50 {
		if again := base(); wireDigest(&again) != want || !sameWire(&again, &b) {
			t.Fatal("equal diagnostics digest apart")
		}
	}
	moved := base()
	moved.Range.Start.Line = 90
	if wireDigest(&moved) != want || !sameWire(&moved, &b) {
		t.Error("the range is not part of the tail")
	}
	seen := map[uint64]string{want: "base"}
	for _, c := range changes {
		d := base()
		c.change(&d)
		if sameWire(&d, &b) {
			t.Errorf("%s: sameWire still true", c.name)
		}
		h := wireDigest(&d)
		if prev, dup := seen[h]; dup {
			t.Errorf("%s: digest equals that of %s", c.name, prev)
		}
		seen[h] = c.name
	}
}

// The publish params are valid JSON that the protocol package decodes into
// what was encoded.
func TestPublishParamsDecode(t *testing.T) {
	var c wireCache
	r := rand.New(rand.NewPCG(3, 4))
	var ds []diag.Diagnostic
	for range 20 {
		ds = append(ds, randomDiagnostic(r))
	}
	wire, _ := c.encode(ds, 0)
	v := int32(7)
	for _, version := range []*int32{&v, nil} {
		if odd := publishParams(nil, "file:///p/\"q\"\\\u00e9\x01.md", version, wire); !json.Valid(odd) {
			t.Errorf("invalid JSON: %.80s", odd)
		}
		raw := publishParams(nil, "file:///p/a%20b/criteria.md", version, wire)
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(raw, &p); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if p.URI != "file:///p/a%20b/criteria.md" || len(p.Diagnostics) != len(toProtocolDiagnostics(ds)) {
			t.Errorf("decoded %s with %d diagnostics", p.URI, len(p.Diagnostics))
		}
		if got, ok := p.Version.Get(); ok != (version != nil) || (ok && got != v) {
			t.Errorf("version %v, %v; want %v", got, ok, version)
		}
	}
}

// A publish framed in place around the encoded array, or copied into a
// frame when the array has no room around it (the empty one), is byte for
// byte the frame of the notification jsonrpc2 would write with those
// params.
func TestPublishFrameMatchesNotification(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var ds []diag.Diagnostic
	for range 20 {
		ds = append(ds, randomDiagnostic(r))
	}
	var sent recordingConn
	g := &diagnoser{s: &Server{}}
	g.s.transport.Store(newStream(&sent, zap.NewNop()))
	u := uri.URI("file:///p/\"q\"\\\u00e9 a%20b/criteria.md")
	var c wireCache
	var spare []byte
	v := int32(-7)
	for step := range 6 {
		headroom := publishHeadroom(u)
		frame, _ := c.encode(ds[:20-step*4], headroom)
		wire := slices.Clone(frame[headroom:])
		for _, version := range []*int32{&v, nil} {
			for _, in := range []struct {
				frame []byte
				at    int
			}{{frame, headroom}, {wire, 0}, {emptyWire, 0}} {
				spare = g.notify(u, version, in.frame, in.at, spare)
				body := jsonrpc2.AppendNotification(nil, protocol.MethodTextDocumentPublishDiagnostics, publishParams(nil, u, version, in.frame[in.at:]))
				want := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
				if string(sent.last) != want {
					t.Fatalf("step %d: sent\n%q\nwant\n%q", step, sent.last, want)
				}
			}
		}
		if !bytes.Equal(frame[headroom:], wire) {
			t.Fatalf("step %d: framing changed the array", step)
		}
	}
}

// recordingConn keeps a copy of the last write.
type recordingConn struct{ last []byte }

func (c *recordingConn) Read([]byte) (int, error)    { return 0, io.EOF }
func (c *recordingConn) Write(p []byte) (int, error) { c.last = slices.Clone(p); return len(p), nil }
func (c *recordingConn) Close() error                { return nil }
