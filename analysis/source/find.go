package source

import (
	"bytes"
	"sync"
)

// finds are the offsets of strings in one version's text that Find was
// asked for, and what the version it was derived from had found (an edit
// later, Update): the next version's are then derived from this one's.
type finds struct {
	mu sync.Mutex
	at map[string][]int
	// base is the version before's finds when this index was derived
	// from it, and what the edit kept of its text: only the edited middle
	// is searched. The version before itself is not held.
	base           map[string][]int
	baseLen        int
	prefix, suffix int
}

// Find returns the offsets of every occurrence of needle in the text, in
// order (occurrences may overlap). An index derived by Update from one
// that had found needle searches only what the edit did not keep: the
// rest are the ones before, those after the edit moved by its length (a
// keystroke in a register of 30,000 lines does not search it all for
// suppression comments). The result must not be modified.
func (ix *Index) Find(needle string) []int {
	f := &ix.found
	f.mu.Lock()
	defer f.mu.Unlock()
	if at, ok := f.at[needle]; ok {
		return at
	}
	var at []int
	if old, ok := f.base[needle]; ok && needle != "" {
		at = derive(ix.src, needle, old, f.baseLen, f.prefix, f.suffix)
	} else {
		at = findAll(ix.src, 0, len(ix.src), needle)
	}
	if f.at == nil {
		f.at = map[string][]int{}
	}
	f.at[needle] = at
	return at
}

// derive is findAll of needle in src from old, its occurrences in a text
// of oldLen bytes of which src kept the first p and last s: those wholly
// in the prefix are the same, those wholly in the suffix are moved, and
// those that overlap the middle are searched for.
func derive(src []byte, needle string, old []int, oldLen, p, s int) []int {
	n := len(needle)
	delta := len(src) - oldLen
	var at []int
	i := 0
	for ; i < len(old) && old[i]+n <= p; i++ {
		at = append(at, old[i])
	}
	at = append(at, findAll(src, max(0, p-n+1), min(len(src), len(src)-s+n-1), needle)...)
	for ; i < len(old); i++ {
		if old[i] >= oldLen-s {
			at = append(at, old[i]+delta)
		}
	}
	return at
}

// findAll is the offsets of needle in src[from:to], in order.
func findAll(src []byte, from, to int, needle string) []int {
	var at []int
	for from < to {
		k := bytes.Index(src[from:to], []byte(needle))
		if k < 0 {
			break
		}
		at = append(at, from+k)
		from += k + 1
	}
	return at
}

// deriveFinds prepares next's finds from ix's, next being ix's text after
// an edit that kept p bytes at its start and s at its end.
func (ix *Index) deriveFinds(next *Index, p, s int) {
	ix.found.mu.Lock()
	defer ix.found.mu.Unlock()
	if len(ix.found.at) == 0 {
		return
	}
	next.found.base, next.found.baseLen = ix.found.at, len(ix.src)
	next.found.prefix, next.found.suffix = p, s
}
