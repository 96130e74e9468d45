package source

import (
	"bytes"
	"slices"
)

// Update returns the index of src, a new version of ix's text in which an
// edit kept what kept says (ApplyChangesKept), reusing the line starts of
// that prefix and suffix: only the edited middle is scanned and the texts
// are not compared, so a keystroke in a large document costs a copy of the
// line starts, not a rescan. Whether an offset starts a line depends only
// on the two bytes before and at it, which is why reused starts stay exact.
// kept must not say more than the edit left alone.
func (ix *Index) Update(src []byte, kept Kept) *Index {
	old := ix.src
	p := min(kept.Prefix, len(old), len(src))
	s := min(kept.Suffix, len(old)-p, len(src)-p)
	// New line starts n: n < p from the prefix (both bytes unchanged), n in
	// [p, len(src)-s] scanned, n > len(src)-s from the suffix.
	keep, _ := slices.BinarySearch(ix.lines, uint32(p))
	keep = max(1, keep) // 0, and the starts < p
	tail, _ := slices.BinarySearch(ix.lines, uint32(len(old)-s+1))
	lines := make([]uint32, 0, keep+(len(ix.lines)-tail)+8)
	lines = append(lines, ix.lines[:keep]...)
	for n := max(p, 1); n <= len(src)-s; n++ {
		if startsLine(src, n) {
			lines = append(lines, uint32(n))
		}
	}
	delta := uint32(len(src) - len(old)) // wraps when negative: the sum does too
	for _, o := range ix.lines[tail:] {
		lines = append(lines, o+delta)
	}
	next := &Index{src: src, lines: lines}
	ix.deriveFinds(next, p, s)
	return next
}

// startsLine reports whether offset n (≥ 1) starts a line: after "\n", or
// after a "\r" that is not followed by "\n".
func startsLine(src []byte, n int) bool {
	switch src[n-1] {
	case '\n':
		return true
	case '\r':
		return n == len(src) || src[n] != '\n'
	}
	return false
}

const chunk = 256

// CommonPrefix is the length of the longest common prefix of a and b,
// compared a chunk at a time.
func CommonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	p := 0
	for p+chunk <= n && bytes.Equal(a[p:p+chunk], b[p:p+chunk]) {
		p += chunk
	}
	for p < n && a[p] == b[p] {
		p++
	}
	return p
}

// CommonSuffix is the length of the longest common suffix of a and b.
func CommonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	s := 0
	for s+chunk <= n && bytes.Equal(a[len(a)-s-chunk:len(a)-s], b[len(b)-s-chunk:len(b)-s]) {
		s += chunk
	}
	for s < n && a[len(a)-s-1] == b[len(b)-s-1] {
		s++
	}
	return s
}
