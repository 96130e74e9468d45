package workspace

import (
	"path/filepath"
	"strings"
)

// pathTree maps clean absolute paths to values as a tree of their folders:
// each folder's name is held once for every path below it (a history of a
// hundred thousand runs does not hold their common prefix a hundred
// thousand times), and everything under a folder is dropped in one step
// (a change of the folder on disk, a released charter). Not safe for
// concurrent use: its owner locks. A path holds a value when its node's
// is not the zero value: a node is as small as can be (a folder of a
// hundred thousand runs has as many nodes), and none stores a zero value.
type pathTree[V comparable] struct {
	root ptNode[V]
}

type ptNode[V comparable] struct {
	name   string
	parent *ptNode[V]
	kids   *ptKids[V] // nil while none
	val    V          // the zero value while none
}

// has reports whether n holds a value.
func (n *ptNode[V]) has() bool {
	var zero V
	return n.val != zero
}

// ptKids are a node's kids: a slice while few, and a map by name once
// many.
type ptKids[V comparable] struct {
	list  []*ptNode[V]
	index map[string]*ptNode[V]
	first [2]*ptNode[V] // list's room while it fits: most folders on the way to a file hold one or two
}

// manyKids is when a node's kids are found by a map rather than a scan.
const manyKids = 16

func (n *ptNode[V]) kid(name string) *ptNode[V] {
	switch {
	case n.kids == nil:
		return nil
	case n.kids.index != nil:
		return n.kids.index[name]
	}
	for _, k := range n.kids.list {
		if k.name == name {
			return k
		}
	}
	return nil
}

func (n *ptNode[V]) numKids() int {
	if n.kids == nil {
		return 0
	}
	return len(n.kids.list)
}

func (n *ptNode[V]) add(name string) *ptNode[V] {
	k := &ptNode[V]{name: name, parent: n}
	if n.kids == nil {
		n.kids = &ptKids[V]{}
		n.kids.list = n.kids.first[:0] // one allocation, not two then a third to grow
	}
	ks := n.kids
	ks.list = append(ks.list, k)
	if len(ks.list) == len(ks.first)+1 {
		ks.first = [len(ks.first)]*ptNode[V]{} // moved out of first: keep no removed kid alive
	}
	if ks.index != nil {
		ks.index[name] = k
	} else if len(ks.list) > manyKids {
		ks.index = make(map[string]*ptNode[V], len(ks.list))
		for _, k := range ks.list {
			ks.index[k.name] = k
		}
	}
	return k
}

func (n *ptNode[V]) remove(k *ptNode[V]) {
	ks := n.kids
	if ks == nil {
		return
	}
	for i, x := range ks.list {
		if x == k {
			last := len(ks.list) - 1
			ks.list[i] = ks.list[last]
			ks.list[last] = nil
			ks.list = ks.list[:last]
			break
		}
	}
	switch {
	case len(ks.list) == 0:
		n.kids = nil
	case ks.index != nil:
		delete(ks.index, k.name)
		if len(ks.list) <= manyKids/2 {
			ks.index = nil
		}
	}
	k.parent = nil
}

// find is path's node, made when make is set; nil when it is not there.
// Its parts are path's volume (on Windows), then each name; empty ones
// (a separator at the start) are skipped. A loop, not a callback per
// part: every cache lookup of a file or folder comes here.
func (t *pathTree[V]) find(path string, make bool) *ptNode[V] {
	n := &t.root
	part := filepath.VolumeName(path)
	rest := path[len(part):]
	for {
		if part != "" {
			k := n.kid(part)
			if k == nil {
				if !make {
					return nil
				}
				k = n.add(strings.Clone(part)) // not a hold on all of path
			}
			n = k
		}
		if rest == "" {
			return n
		}
		if i := strings.IndexByte(rest, filepath.Separator); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		} else {
			part, rest = rest, ""
		}
	}
}

// get returns path's value.
func (t *pathTree[V]) get(path string) (V, bool) {
	if n := t.find(path, false); n != nil && n.has() {
		return n.val, true
	}
	var zero V
	return zero, false
}

// set stores path's value (the zero value deletes it).
func (t *pathTree[V]) set(path string, v V) {
	n := t.find(path, true)
	n.val = v
	if !n.has() {
		t.prune(n)
	}
}

// update changes path's value in place (made zero when absent); a value
// that f reports not to keep (or leaves zero) is deleted.
func (t *pathTree[V]) update(path string, f func(v *V) (keep bool)) {
	n := t.find(path, true)
	if f(&n.val) && n.has() {
		return
	}
	t.clear(n)
}

// clear drops n's value and the nodes that were kept only for it.
func (t *pathTree[V]) clear(n *ptNode[V]) {
	var zero V
	n.val = zero
	t.prune(n)
}

// deleteUnder drops path's value and everything below it.
func (t *pathTree[V]) deleteUnder(path string) {
	n := t.find(path, false)
	if n == nil {
		return
	}
	if n == &t.root {
		t.root = ptNode[V]{}
		return
	}
	p := n.parent
	p.remove(n)
	t.prune(p)
}

// prune drops n and the folders above it that hold nothing any more.
func (t *pathTree[V]) prune(n *ptNode[V]) {
	for n != &t.root && n.parent != nil && !n.has() && n.numKids() == 0 {
		p := n.parent
		p.remove(n)
		n = p
	}
}

// walk calls fn with every path that has a value below (and at) path, ""
// for the whole tree, in no particular order.
func (t *pathTree[V]) walk(under string, fn func(path string, v V)) {
	if n := t.top(under); n != nil {
		t.walkFrom(n, n.path(), fn)
	}
}

// top is the node at under, the root for "", or nil when there is none.
func (t *pathTree[V]) top(under string) *ptNode[V] {
	if under == "" {
		return &t.root
	}
	return t.find(under, false)
}

// paths lists the paths under under (itself included) that hold a value,
// in walk's order and in one allocation of their number (a folder's
// release asks for them; appending grew the list a few times a folder).
func (t *pathTree[V]) paths(under string) []string {
	n := t.top(under)
	if n == nil {
		return nil
	}
	held := countFrom(n)
	if held == 0 {
		return nil
	}
	out := make([]string, 0, held)
	t.walkFrom(n, n.path(), func(p string, _ V) { out = append(out, p) })
	return out
}

// countFrom is the number of nodes from n down that hold a value.
func countFrom[V comparable](n *ptNode[V]) int {
	c := 0
	if n.has() {
		c++
	}
	if n.kids != nil {
		for _, k := range n.kids.list {
			c += countFrom(k)
		}
	}
	return c
}

func (t *pathTree[V]) walkFrom(n *ptNode[V], path string, fn func(string, V)) {
	if n.has() {
		fn(path, n.val)
	}
	if n.kids != nil {
		for _, k := range n.kids.list {
			t.walkFrom(k, join(path, k.name), fn)
		}
	}
}

// path is n's path, from its names, made in one allocation (check's
// release of each folder asks for its path).
func (n *ptNode[V]) path() string {
	if n.parent == nil {
		return ""
	}
	size := 0
	for m := n; m.parent != nil; m = m.parent {
		size += len(m.name)
		if m.parent.parent != nil || filepath.VolumeName(m.name) == "" {
			size++ // a separator before it, as join puts
		}
	}
	var room [16]*ptNode[V]
	up := room[:0] // n and its folders, n first
	for m := n; m.parent != nil; m = m.parent {
		up = append(up, m)
	}
	var b strings.Builder
	b.Grow(size)
	for i := len(up) - 1; i >= 0; i-- {
		m := up[i]
		if m.parent.parent != nil || filepath.VolumeName(m.name) == "" {
			b.WriteByte(filepath.Separator)
		}
		b.WriteString(m.name)
	}
	return b.String()
}

// join is a child's path: a volume name (Windows) starts a path, and so
// does the first name below the root (elsewhere).
func join(parent, name string) string {
	if parent == "" && filepath.VolumeName(name) != "" {
		return name
	}
	return parent + string(filepath.Separator) + name
}
