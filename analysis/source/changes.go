package source

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"unicode/utf8"
)

// Change is one content change of an LSP didChange: Range, in the text the
// changes before it made, replaced by Text.
type Change struct {
	Range Range
	Text  string
}

// ApplyChanges returns src with changes applied one after the other, as
// LSP orders a didChange's changes: each range is in the text the previous
// ones made, clamped as Offset clamps it, and a reversed range counts as
// its normalised form. src is never modified; ix is its index when the
// caller has one (nil: built when needed).
//
// The cost is linear in the text and the changes, whatever their number:
// one change is one splice; several are applied to a rope (a balanced tree
// of pieces that finds a position and replaces a range in time logarithmic
// in the number of pieces), and the text is assembled once at the end —
// not copied once per change, which a client could make cost changes ×
// text (20,000 changes over 10 MB).
func ApplyChanges(src []byte, ix *Index, changes []Change) []byte {
	text, _ := ApplyChangesKept(src, ix, changes)
	return text
}

// Kept says what an edit left alone: the text's first Prefix bytes and its
// last Suffix bytes are the same before and after it. It may say less than
// the most a comparison would find (a change that puts back what was there
// counts as a change), never more.
type Kept struct{ Prefix, Suffix int }

// ApplyChangesKept is ApplyChanges that also says what the changes kept,
// from their spans alone: whoever derives something from the text before
// (Index.Update) need not compare the two texts to find it.
func ApplyChangesKept(src []byte, ix *Index, changes []Change) ([]byte, Kept) {
	return ApplyChangesSpare(src, ix, changes, nil)
}

// ApplyChangesSpare is ApplyChangesKept that writes the text one change
// makes in spare's memory when spare is src's, made and not yet taken
// (Spare.splice); otherwise, or for spare nil, it allocates as
// ApplyChangesKept does. The text is the same either way.
func ApplyChangesSpare(src []byte, ix *Index, changes []Change, spare *Spare) ([]byte, Kept) {
	kept := Kept{Prefix: len(src), Suffix: len(src)}
	// Each change keeps what is before its start and after its end, in
	// the text it is applied to; what none touched is kept by all.
	keep := func(span Span, length int) {
		if span.End < span.Start {
			span.Start, span.End = span.End, span.Start
		}
		kept.Prefix = min(kept.Prefix, span.Start)
		kept.Suffix = min(kept.Suffix, length-span.End)
	}
	switch {
	case len(changes) == 0:
		return src, kept
	case len(changes) == 1:
		if ix == nil {
			ix = NewIndex(src)
		}
		span := ix.Span(changes[0].Range)
		keep(span, len(src))
		if text, ok := spare.splice(src, span, changes[0].Text); ok {
			return text, kept
		}
		return splice(src, span, changes[0].Text), kept
	case !allValid(src, changes):
		// The rope counts UTF-16 units piece by piece, which is exact only
		// when no piece boundary cuts a byte sequence that decodes as one
		// character: true of valid UTF-8 (every boundary is a character's),
		// not of arbitrary bytes. Text from the protocol is always valid
		// UTF-8 (its decoder replaces invalid bytes), so this path serves
		// other callers only.
		for _, c := range changes {
			span := NewIndex(src).Span(c.Range)
			keep(span, len(src))
			src = splice(src, span, c.Text)
		}
		return src, kept
	}
	r := newRope(src)
	for _, c := range changes {
		span := r.span(c.Range)
		keep(span, r.root.total().bytes)
		r.replace(span, c.Text)
	}
	return r.bytes(), kept
}

// splice returns a new text: src with span (normalised) replaced by text.
// bytes.Join allocates its result without clearing it (each byte is then
// written once, by the copy), where make clears the whole text first: on a
// large document that is a second pass over its memory per keystroke.
func splice(src []byte, span Span, text string) []byte {
	if span.End < span.Start {
		span.Start, span.End = span.End, span.Start
	}
	return bytes.Join([][]byte{src[:span.Start], []byte(text), src[span.End:]}, nil)
}

func allValid(src []byte, changes []Change) bool {
	if !utf8.Valid(src) {
		return false
	}
	for _, c := range changes {
		if !utf8.ValidString(c.Text) {
			return false
		}
	}
	return true
}

// pieceSize bounds a piece of the rope: the work of finding a position or
// splitting a piece is one piece's length at most. Text is cut into pieces
// of half that, so that each has room to take in what is typed into it.
var pieceSize = 512

// rope is a text being edited: a treap (a binary search tree by position,
// balanced by random priorities) whose nodes hold pieces — slices of the
// original text or of a change's text, never modified — and the counts of
// their subtree, so that a line, a UTF-16 column and a byte offset are each
// found by one descent.
type rope struct{ root *node }

type node struct {
	left, right *node
	prio        uint64
	piece       []byte
	own, sum    counts // of the piece; of the subtree
}

// counts describe a stretch of text: its bytes, its UTF-16 code units, its
// line breaks ("\n", "\r\n" and a lone "\r" each end a line, as in Index;
// a trailing "\r" counts, since it ends a line whatever follows), and its
// first and last bytes (a "\r\n" may straddle two stretches).
type counts struct {
	bytes, units, breaks int
	first, last          byte
}

// then is the counts of a followed by b.
func (a counts) then(b counts) counts {
	if a.bytes == 0 {
		return b
	}
	if b.bytes == 0 {
		return a
	}
	c := counts{bytes: a.bytes + b.bytes, units: a.units + b.units, breaks: a.breaks + b.breaks, first: a.first, last: b.last}
	if a.last == '\r' && b.first == '\n' {
		c.breaks-- // one "\r\n"
	}
	return c
}

func countsOf(p []byte) counts {
	if len(p) == 0 {
		return counts{}
	}
	c := counts{bytes: len(p), units: unitsOf(p), breaks: bytes.Count(p, lf), first: p[0], last: p[len(p)-1]}
	if r := bytes.Count(p, cr); r > 0 {
		c.breaks += r - bytes.Count(p, crlf)
	}
	return c
}

var lf, cr, crlf = []byte("\n"), []byte("\r"), []byte("\r\n")

// unitsOf counts the UTF-16 code units of valid UTF-8: one per character
// (per byte that is not a continuation byte, 10xxxxxx), two for a character
// outside the Basic Multilingual Plane (its lead byte is 11110xxx). Eight
// bytes at a time.
func unitsOf(p []byte) int {
	const high = 0x8080808080808080
	n := len(p)
	for ; len(p) >= 8; p = p[8:] {
		w := binary.NativeEndian.Uint64(p)
		if w&high == 0 {
			continue // ASCII
		}
		n -= bits.OnesCount64(w &^ (w << 1) & high)                      // 10xxxxxx
		n += bits.OnesCount64(w & (w << 1) & (w << 2) & (w << 3) & high) // 1111xxxx
	}
	for _, b := range p {
		if b&0xC0 == 0x80 {
			n--
		}
		if b >= 0xF0 {
			n++
		}
	}
	return n
}

func (n *node) total() counts {
	if n == nil {
		return counts{}
	}
	return n.sum
}

func (n *node) update() { n.sum = n.left.total().then(n.own).then(n.right.total()) }

func leaf(piece []byte) *node {
	c := countsOf(piece)
	return &node{prio: rand.Uint64(), piece: piece, own: c, sum: c}
}

// merge joins two treaps, every position of a before every position of b.
func merge(a, b *node) *node {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.prio > b.prio:
		a.right = merge(a.right, b)
		a.update()
		return a
	}
	b.left = merge(a, b.left)
	b.update()
	return b
}

// split cuts n after its first k bytes; a piece straddling the cut becomes
// two.
func split(n *node, k int) (l, r *node) {
	if n == nil {
		return nil, nil
	}
	lb := n.left.total().bytes
	switch {
	case k <= lb:
		l, n.left = split(n.left, k)
		n.update()
		return l, n
	case k >= lb+len(n.piece):
		n.right, r = split(n.right, k-lb-len(n.piece))
		n.update()
		return n, r
	}
	i := k - lb
	rest := &node{prio: n.prio, piece: n.piece[i:], right: n.right}
	n.piece, n.right = n.piece[:i], nil
	n.own, rest.own = countsOf(n.piece), countsOf(rest.piece)
	n.update()
	rest.update()
	return n, rest
}

// pieces is a treap of text cut into pieces of pieceSize/2 bytes (and the
// rest of a character a cut would split).
func pieces(text []byte) *node {
	var t *node
	for len(text) > 0 {
		n := min(len(text), max(1, pieceSize/2))
		for n < len(text) && !utf8.RuneStart(text[n]) {
			n++ // the rest of the character
		}
		t = merge(t, leaf(text[:n]))
		text = text[n:]
	}
	return t
}

func newRope(src []byte) *rope { return &rope{root: pieces(src)} }

// replace puts text where span was. A short text is glued to the short
// pieces beside it, so that typing (or a client's storm of one-character
// changes) does not make a node per character: the tree keeps about one
// node per pieceSize/2 bytes.
func (r *rope) replace(span Span, text string) {
	if span.End < span.Start {
		span.Start, span.End = span.End, span.Start
	}
	l, rest := split(r.root, span.Start)
	_, rest = split(rest, span.End-span.Start)
	var last, first []byte
	if p := l.lastPiece(); p != nil && len(p)+len(text) <= pieceSize {
		last = p
		l, _ = split(l, l.total().bytes-len(p))
	}
	if p := rest.firstPiece(); p != nil && len(last)+len(text)+len(p) <= pieceSize {
		first = p
		_, rest = split(rest, len(p))
	}
	var in *node
	if n := len(last) + len(text) + len(first); n > pieceSize {
		in = pieces([]byte(text))
	} else if n > 0 {
		in = leaf(append(append(append(make([]byte, 0, n), last...), text...), first...)) // kept whole: cut, it would leave a sliver
	}
	r.root = merge(merge(l, in), rest)
}

func (n *node) lastPiece() []byte {
	for ; n != nil; n = n.right {
		if n.right == nil {
			return n.piece
		}
	}
	return nil
}

func (n *node) firstPiece() []byte {
	for ; n != nil; n = n.left {
		if n.left == nil {
			return n.piece
		}
	}
	return nil
}

// bytes assembles the text.
func (r *rope) bytes() []byte {
	out := make([]byte, 0, r.root.total().bytes)
	var walk func(n *node)
	walk = func(n *node) {
		if n != nil {
			walk(n.left)
			out = append(out, n.piece...)
			walk(n.right)
		}
	}
	walk(r.root)
	return out
}

func (r *rope) span(rg Range) Span { return Span{Start: r.offset(rg.Start), End: r.offset(rg.End)} }

// offset is Index.Offset on the rope's text: lines past the end clamp to
// the end of the text, columns past the end of a line to the end of its
// content, and a column inside a surrogate pair to the character's start.
// Two descents: to the line's start, and to its column.
func (r *rope) offset(p Position) int {
	all := r.root.total()
	switch {
	case p.Line < 0:
		return 0
	case p.Line > all.breaks:
		return all.bytes
	}
	var start counts // the text before the line
	if p.Line > 0 {
		start = r.afterBreaks(p.Line)
		if start.last == '\r' && start.bytes < all.bytes && r.at(start.bytes) == '\n' {
			start = start.then(counts{bytes: 1, units: 1, breaks: 1, first: '\n', last: '\n'})
		}
	}
	if p.Character <= 0 {
		return start.bytes
	}
	at := r.upToUnits(start.units + p.Character)
	if at.breaks > p.Line {
		// Past the line's end: back to its terminator's first byte.
		return r.afterBreaks(p.Line+1).bytes - 1
	}
	return at.bytes
}

// afterBreaks is the shortest prefix holding k line breaks: the text up to
// and including the first byte of the k-th break. k is at least 1 and at
// most the text's breaks.
func (r *rope) afterBreaks(k int) counts {
	var before counts
	for n := r.root; n != nil; {
		a := before.then(n.left.total())
		if a.breaks >= k {
			n = n.left
			continue
		}
		if b := a.then(n.own); b.breaks < k {
			before, n = b, n.right
			continue
		}
		return a.then(countsOf(n.piece[:nthBreak(n.piece, k-a.breaks, a.last)]))
	}
	return before
}

// nthBreak is the offset just past the first byte of piece's k-th line
// break (k ≥ 1, and piece has that many), prev the byte before piece.
func nthBreak(piece []byte, k int, prev byte) int {
	if bytes.IndexByte(piece, '\r') < 0 && prev != '\r' {
		// Only "\n" ends lines here: a vectorised search.
		i := 0
		for ; ; k-- {
			i += bytes.IndexByte(piece[i:], '\n') + 1
			if k == 1 {
				return i
			}
		}
	}
	for i, c := range piece {
		if c == '\r' || c == '\n' && prev != '\r' {
			if k--; k == 0 {
				return i + 1
			}
		}
		prev = c
	}
	return len(piece)
}

// at is the byte at offset i (< the length).
func (r *rope) at(i int) byte {
	for n := r.root; n != nil; {
		lb := n.left.total().bytes
		switch {
		case i < lb:
			n = n.left
		case i < lb+len(n.piece):
			return n.piece[i-lb]
		default:
			i -= lb + len(n.piece)
			n = n.right
		}
	}
	return 0
}

// upToUnits is the longest prefix, ending between characters, of at most
// target UTF-16 units.
func (r *rope) upToUnits(target int) counts {
	var before counts
	for n := r.root; n != nil; {
		a := before.then(n.left.total())
		switch {
		case a.units > target:
			n = n.left
		case a.units+n.own.units > target:
			units, i := a.units, 0
			for i < len(n.piece) {
				w, size := 1, 1
				if n.piece[i] >= utf8.RuneSelf {
					var c rune
					c, size = utf8.DecodeRune(n.piece[i:])
					if c >= 0x10000 {
						w = 2
					}
				}
				if units+w > target {
					break
				}
				units += w
				i += size
			}
			return a.then(countsOf(n.piece[:i]))
		default:
			before, n = a.then(n.own), n.right
		}
	}
	return before
}
