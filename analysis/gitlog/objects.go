package gitlog

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// objectStore reads objects from a git directory's objects/ folder, loose
// and packed, itself rather than through go-git's object storage: go-git
// builds a delta's base whole before anyone can see the result's size, so
// a 9-byte delta on a 512 MB base cost 512 MB before a commit's size cap
// was checked. Here every size an object declares — its own, and along a
// delta chain each delta's, its base's and its result's — is checked
// against the cap of the object asked for and against the budget before
// anything is inflated, and nothing is inflated past the size its header
// declares. go-git still applies the deltas (packfile.PatchDelta, which
// writes no more than the result size checked here) and decodes the
// objects.
//
// The pack index is read where it lies (a binary search with ReadAt), not
// loaded: the index of a large repository is tens of megabytes.
type objectStore struct {
	fs     billy.Filesystem // the objects folder
	b      *budget
	packs  []*packFile
	listed bool
	// found keeps objects already read, by id; bases keeps the objects
	// built along delta chains, by pack and offset, for the next chain
	// that shares them.
	found *cache.ObjectLRU
	bases *cache.BufferLRU
	// zr is one zlib reader, reset for every stream read: a chain of
	// thousands of deltas costs no more than one.
	zr io.ReadCloser
}

// maxDeltaDepth is git's own limit on a delta chain (pack.depth).
const maxDeltaDepth = 4095

// errNotFound: no loose object and no pack holds the id.
var errNotFound = errors.New("object not found")

func newObjectStore(fsys billy.Filesystem, b *budget) *objectStore {
	return &objectStore{fs: fsys, b: b, found: cache.NewObjectLRU(8 * cache.MiByte), bases: cache.NewBufferLRU(16 * cache.MiByte)}
}

// read returns the content of object h, which must be of type want and at
// most max bytes.
func (s *objectStore) read(h plumbing.Hash, want plumbing.ObjectType, max int64) ([]byte, error) {
	if o, ok := s.found.Get(h); ok {
		if o.Type() != want {
			return nil, fmt.Errorf("%s is a %s, not a %s", h, o.Type(), want)
		}
		r, err := o.Reader()
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	}
	typ, data, err := s.object(h, max)
	if err != nil {
		return nil, err
	}
	if typ != want {
		return nil, fmt.Errorf("%s is a %s, not a %s", h, typ, want)
	}
	o := &plumbing.MemoryObject{}
	o.SetType(typ)
	o.Write(data)
	s.found.Put(o)
	return data, nil
}

// object reads h from a loose file or a pack, whatever its type.
func (s *objectStore) object(h plumbing.Hash, max int64) (plumbing.ObjectType, []byte, error) {
	hex := h.String()
	f, err := s.fs.Open(path.Join(hex[:2], hex[2:]))
	switch {
	case err == nil:
		defer f.Close()
		return s.loose(f, h, max)
	case !errors.Is(err, fs.ErrNotExist):
		return 0, nil, err
	}
	if err := s.listPacks(); err != nil {
		return 0, nil, err
	}
	for i, p := range s.packs {
		off, ok, err := p.find(h)
		if err != nil {
			return 0, nil, err
		}
		if ok {
			return s.packed(i, off, h, max)
		}
	}
	return 0, nil, fmt.Errorf("%s: %w", h, errNotFound)
}

// loose reads a loose object: a zlib stream of "<type> <size>\0" and the
// content. A size over max is refused before the content is inflated, and
// a stream that goes on past the size it declares is refused too.
func (s *objectStore) loose(f io.Reader, h plumbing.Hash, max int64) (plumbing.ObjectType, []byte, error) {
	zr, err := zlib.NewReader(f)
	if err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", h, err)
	}
	defer zr.Close()
	br := bufio.NewReaderSize(zr, 64)
	header, err := br.ReadString(0)
	if err != nil || len(header) > 32 {
		return 0, nil, fmt.Errorf("loose object %s has no header", h)
	}
	kind, sizeText, _ := strings.Cut(strings.TrimSuffix(header, "\x00"), " ")
	typ, err := plumbing.ParseObjectType(kind)
	size, serr := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || serr != nil || size < 0 {
		return 0, nil, fmt.Errorf("loose object %s has no valid header", h)
	}
	if size > max {
		return 0, nil, fmt.Errorf("%w: %s %s is %d bytes", ErrBudget, typ, h, size)
	}
	if err := s.b.spend(size); err != nil {
		return 0, nil, err
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(br, data); err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", h, err)
	}
	if n, _ := br.Read(make([]byte, 1)); n > 0 {
		return 0, nil, fmt.Errorf("loose object %s inflates past its declared %d bytes", h, size)
	}
	return typ, data, nil
}

// listPacks finds the packs (objects/pack/*.idx with their .pack) once.
func (s *objectStore) listPacks() error {
	if s.listed {
		return nil
	}
	s.listed = true
	entries, err := s.fs.ReadDir("pack")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || !e.Mode().IsRegular() {
			continue
		}
		p, err := openPack(s.fs, path.Join("pack", base))
		if err != nil {
			continue // a broken pack holds nothing: its objects are missing
		}
		s.packs = append(s.packs, p)
	}
	return nil
}

// packFile is one pack and its version 2 index.
type packFile struct {
	idx, data  billy.File
	count      uint32
	fanout     [256]uint32
	idxSize    int64
	dataSize   int64
	largeStart int64 // where the index's 8-byte offsets begin
}

func openPack(fsys billy.Filesystem, base string) (*packFile, error) {
	idx, err := fsys.Open(base + ".idx")
	if err != nil {
		return nil, err
	}
	data, err := fsys.Open(base + ".pack")
	if err != nil {
		idx.Close()
		return nil, err
	}
	p := &packFile{idx: idx, data: data}
	if err := p.readHeader(fsys, base); err != nil {
		idx.Close()
		data.Close()
		return nil, err
	}
	return p, nil
}

func (p *packFile) readHeader(fsys billy.Filesystem, base string) error {
	for _, f := range []struct {
		name string
		size *int64
	}{{base + ".idx", &p.idxSize}, {base + ".pack", &p.dataSize}} {
		fi, err := fsys.Stat(f.name)
		if err != nil {
			return err
		}
		*f.size = fi.Size()
	}
	head := make([]byte, 8+256*4)
	if _, err := p.idx.ReadAt(head, 0); err != nil {
		return err
	}
	if !bytes.Equal(head[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return errors.New("not a version 2 pack index")
	}
	prev := uint32(0)
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(head[8+4*i:])
		if p.fanout[i] < prev {
			return errors.New("pack index: fan-out table out of order")
		}
		prev = p.fanout[i]
	}
	p.count = p.fanout[255]
	p.largeStart = 8 + 1024 + 28*int64(p.count)
	if p.largeStart+40 > p.idxSize {
		return errors.New("pack index shorter than its object count")
	}
	return nil
}

// find looks h up in the index: a binary search over the sorted ids of
// its first byte's fan-out bucket, read where they lie.
func (p *packFile) find(h plumbing.Hash) (int64, bool, error) {
	lo := uint32(0)
	if h[0] > 0 {
		lo = p.fanout[h[0]-1]
	}
	hi := p.fanout[h[0]]
	var id [20]byte
	for lo < hi {
		mid := lo + (hi-lo)/2
		if _, err := p.idx.ReadAt(id[:], 8+1024+20*int64(mid)); err != nil {
			return 0, false, err
		}
		switch c := bytes.Compare(id[:], h[:]); {
		case c == 0:
			off, err := p.offset(mid)
			return off, err == nil, err
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false, nil
}

// offset is the pack offset of the index's i-th object.
func (p *packFile) offset(i uint32) (int64, error) {
	var b [8]byte
	if _, err := p.idx.ReadAt(b[:4], 8+1024+24*int64(p.count)+4*int64(i)); err != nil {
		return 0, err
	}
	off := int64(binary.BigEndian.Uint32(b[:4]))
	if off&(1<<31) != 0 {
		at := p.largeStart + 8*(off&^(1<<31))
		if at+8 > p.idxSize-40 {
			return 0, errors.New("pack index: offset out of range")
		}
		if _, err := p.idx.ReadAt(b[:], at); err != nil {
			return 0, err
		}
		off = int64(binary.BigEndian.Uint64(b[:]))
	}
	if off < 12 || off >= p.dataSize-20 {
		return 0, errors.New("pack index: offset out of range")
	}
	return off, nil
}

// link is one entry of a delta chain, read from its header alone.
type link struct {
	pack int
	off  int64
	body int64  // where the entry's zlib data starts
	size uint64 // what that data inflates to: the delta, or the object
	typ  plumbing.ObjectType
	// a delta's declared base and result sizes
	baseSize, resultSize uint64
}

// packed reads the object at off in pack i. It first walks the delta
// chain reading headers only — each entry's header and a delta's first
// bytes, which declare the sizes of its base and its result — refusing a
// chain deeper than git allows, any size over max, or a total over the
// budget; then it inflates the chain's base and applies the deltas.
func (s *objectStore) packed(i int, off int64, h plumbing.Hash, max int64) (plumbing.ObjectType, []byte, error) {
	var chain []link
	var typ plumbing.ObjectType
	var data []byte // the chain's base, when built before (bases)
	total := int64(0)
	seen := map[int64]bool{}
	for {
		key := int64(i)<<48 | off
		if b, ok := s.bases.Get(key); ok {
			typ, data = plumbing.ObjectType(b[0]), b[1:]
			break
		}
		if seen[key] {
			return 0, nil, fmt.Errorf("%s: a delta chain that loops", h)
		}
		seen[key] = true
		if len(chain) > maxDeltaDepth {
			return 0, nil, fmt.Errorf("%w: %s is a delta chain deeper than %d", ErrBudget, h, maxDeltaDepth)
		}
		l, base, ref, err := s.header(i, off)
		if err != nil {
			return 0, nil, fmt.Errorf("%s: %w", h, err)
		}
		if l.size > uint64(max) || l.resultSize > uint64(max) || l.baseSize > uint64(max) {
			return 0, nil, fmt.Errorf("%w: %s declares %d bytes (at depth %d of its delta chain)", ErrBudget, h,
				max64(l.size, l.resultSize, l.baseSize), len(chain))
		}
		total += int64(l.size)
		if l.typ.IsDelta() {
			total += int64(l.resultSize)
		}
		chain = append(chain, l)
		if !l.typ.IsDelta() {
			break
		}
		if l.typ == plumbing.REFDeltaObject {
			if i, base, err = s.locate(ref); err != nil {
				return 0, nil, fmt.Errorf("%s: the base of its delta: %w", h, err)
			}
		}
		off = base
	}
	if err := s.b.spend(total); err != nil {
		return 0, nil, err
	}
	for j := len(chain) - 1; j >= 0; j-- {
		l := chain[j]
		content, err := s.inflate(l)
		if err != nil {
			return 0, nil, fmt.Errorf("%s: %w", h, err)
		}
		if l.typ.IsDelta() {
			if data == nil || uint64(len(data)) != l.baseSize {
				return 0, nil, fmt.Errorf("%s: a delta on a base of another size", h)
			}
			if content, err = packfile.PatchDelta(data, content); err != nil {
				return 0, nil, fmt.Errorf("%s: %w", h, err)
			}
		} else {
			typ = l.typ
		}
		data = content
		s.bases.Put(int64(l.pack)<<48|l.off, append([]byte{byte(typ)}, data...))
	}
	return typ, data, nil
}

// locate finds a REF_DELTA's base: the pack and offset holding id.
func (s *objectStore) locate(id plumbing.Hash) (int, int64, error) {
	for i, p := range s.packs {
		off, ok, err := p.find(id)
		if err != nil {
			return 0, 0, err
		}
		if ok {
			return i, off, nil
		}
	}
	return 0, 0, fmt.Errorf("%s: %w (in no pack)", id, errNotFound)
}

// header reads the pack entry at off: its type and size, a delta's base
// (an offset in this pack, or an object id) and the sizes its delta
// declares.
func (s *objectStore) header(i int, off int64) (l link, base int64, ref plumbing.Hash, err error) {
	p := s.packs[i]
	r := bufio.NewReaderSize(io.NewSectionReader(p.data, off, p.dataSize-off), 64)
	c, err := r.ReadByte()
	if err != nil {
		return l, 0, ref, err
	}
	l = link{pack: i, off: off, typ: plumbing.ObjectType((c >> 4) & 7), size: uint64(c & 15)}
	n := int64(1)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if shift > 56 {
			return l, 0, ref, errors.New("pack entry: size too long")
		}
		if c, err = r.ReadByte(); err != nil {
			return l, 0, ref, err
		}
		l.size |= uint64(c&0x7f) << shift
		n++
	}
	switch l.typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
		l.resultSize = l.size
	case plumbing.OFSDeltaObject:
		c, err := r.ReadByte()
		if err != nil {
			return l, 0, ref, err
		}
		n++
		dist := int64(c & 0x7f)
		for c&0x80 != 0 {
			if dist > 1<<48 {
				return l, 0, ref, errors.New("pack entry: delta offset too long")
			}
			if c, err = r.ReadByte(); err != nil {
				return l, 0, ref, err
			}
			n++
			dist = (dist+1)<<7 | int64(c&0x7f)
		}
		base = off - dist
		if dist <= 0 || base < 12 {
			return l, 0, ref, errors.New("pack entry: delta base out of range")
		}
	case plumbing.REFDeltaObject:
		if _, err := io.ReadFull(r, ref[:]); err != nil {
			return l, 0, ref, err
		}
		n += 20
	default:
		return l, 0, ref, fmt.Errorf("pack entry of unknown type %d", l.typ)
	}
	l.body = off + n
	if l.typ.IsDelta() {
		// The delta's first bytes: its base's size and its result's.
		zr, err := s.zlib(r)
		if err != nil {
			return l, 0, ref, err
		}
		br := bufio.NewReaderSize(io.LimitReader(zr, 20), 16)
		l.baseSize, err = binary.ReadUvarint(br)
		if err == nil {
			l.resultSize, err = binary.ReadUvarint(br)
		}
		if err != nil {
			return l, 0, ref, fmt.Errorf("a delta without its header: %w", err)
		}
	}
	return l, base, ref, nil
}

// inflate returns the entry's zlib data inflated to exactly its declared
// size; what the stream holds beyond is never inflated.
func (s *objectStore) inflate(l link) ([]byte, error) {
	p := s.packs[l.pack]
	zr, err := s.zlib(bufio.NewReader(io.NewSectionReader(p.data, l.body, p.dataSize-l.body)))
	if err != nil {
		return nil, err
	}
	out := make([]byte, l.size)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, fmt.Errorf("pack entry at %d: %w", l.off, err)
	}
	return out, nil
}

// zlib is the store's zlib reader, reset to read r.
func (s *objectStore) zlib(r io.Reader) (io.Reader, error) {
	if s.zr == nil {
		zr, err := zlib.NewReader(r)
		if err != nil {
			return nil, err
		}
		s.zr = zr
		return zr, nil
	}
	if err := s.zr.(zlib.Resetter).Reset(r, nil); err != nil {
		return nil, err
	}
	return s.zr, nil
}

func (s *objectStore) close() {
	for _, p := range s.packs {
		p.idx.Close()
		p.data.Close()
	}
}

func max64(xs ...uint64) uint64 {
	m := uint64(0)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
