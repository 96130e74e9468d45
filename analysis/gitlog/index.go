package gitlog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// indexEntry is what the index (.git/index) says of one path.
type indexEntry struct {
	name  string
	hash  plumbing.Hash
	mode  filemode.FileMode
	size  uint32
	mtime time.Time
	stage int // 0, or 1-3 for the sides of a conflict
	// the file is taken as unchanged without looking (assume-unchanged,
	// skip-worktree: sparse checkouts)
	assumeUnchanged bool
	intentToAdd     bool
}

// maxIndexName bounds one path in the index: PATH_MAX. A real work tree
// holds no longer one; a version 4 index stores each name as a change of
// the previous one, so 2.6 MB of entries each a byte longer than the last
// make 800 MB of names, which go-git built in full.
const maxIndexName = 4096

// maxIndexKept bounds the entries one read keeps (their names and 64
// bytes each): 32 MB is 300,000 source files of 40-byte names. Names of
// 4 KB that differ only at their ends cost a version 4 index a few bytes
// each; past the bound the read gives up.
const maxIndexKept = 32 << 20

// readIndex reads the index's entries, streaming: a name is built in one
// buffer, reused from entry to entry (version 4 keeps the part it shares
// with the previous name), and only the entries keep accepts are kept,
// each counted against the budget. A name longer than maxIndexName ends
// the read. The extensions after the entries are not read.
func readIndex(r io.Reader, b *budget, keep func(name []byte) bool) ([]indexEntry, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var head [12]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	version := binary.BigEndian.Uint32(head[4:])
	if string(head[:4]) != "DIRC" || version < 2 || version > 4 {
		return nil, errors.New("index: not a version 2, 3 or 4 index")
	}
	count := binary.BigEndian.Uint32(head[8:])
	var out []indexEntry
	kept := int64(0)
	name := make([]byte, 0, 256)
	var fixed [62]byte
	for i := uint32(0); i < count; i++ {
		if i%1024 == 0 {
			if err := b.check(); err != nil {
				return nil, err
			}
		}
		if _, err := io.ReadFull(br, fixed[:]); err != nil {
			return nil, fmt.Errorf("index entry %d: %w", i, err)
		}
		flags := binary.BigEndian.Uint16(fixed[60:])
		e := indexEntry{
			mtime:           time.Unix(int64(binary.BigEndian.Uint32(fixed[8:])), int64(binary.BigEndian.Uint32(fixed[12:]))),
			mode:            filemode.FileMode(binary.BigEndian.Uint32(fixed[24:])),
			size:            binary.BigEndian.Uint32(fixed[36:]),
			stage:           int(flags>>12) & 3,
			assumeUnchanged: flags&0x8000 != 0,
		}
		copy(e.hash[:], fixed[40:60])
		read := 62
		if flags&0x4000 != 0 { // extended flags
			if version < 3 {
				return nil, errors.New("index: extended flags in a version 2 index")
			}
			var ext [2]byte
			if _, err := io.ReadFull(br, ext[:]); err != nil {
				return nil, fmt.Errorf("index entry %d: %w", i, err)
			}
			x := binary.BigEndian.Uint16(ext[:])
			e.assumeUnchanged = e.assumeUnchanged || x&0x4000 != 0 // skip-worktree
			e.intentToAdd = x&0x2000 != 0
			read += 2
		}
		var err error
		if version == 4 {
			name, err = nameV4(br, name)
		} else {
			name, err = nameV2(br, name[:0], int(flags&0xfff), read)
		}
		if err != nil {
			return nil, fmt.Errorf("index entry %d: %w", i, err)
		}
		if keep(name) {
			if kept += int64(len(name)) + 64; kept > maxIndexKept {
				return nil, fmt.Errorf("%w: the index entries asked for hold more than %d MB", ErrBudget, maxIndexKept>>20)
			}
			if err := b.spend(int64(len(name)) + 64); err != nil {
				return nil, err
			}
			e.name = string(name)
			out = append(out, e)
		}
	}
	return out, nil
}

// nameV2 reads a version 2 or 3 name of length n (0xfff: that long or
// longer, up to a NUL) and the NULs that pad the entry to 8 bytes; read is
// the entry's length before the name.
func nameV2(br *bufio.Reader, name []byte, n, read int) ([]byte, error) {
	long := n == 0xfff
	if !long {
		name = append(name, make([]byte, n)...)
		if _, err := io.ReadFull(br, name); err != nil {
			return nil, err
		}
	} else {
		var err error
		if name, err = readName(br, name); err != nil {
			return nil, err
		}
		name = name[:len(name)-1]
		n = len(name)
	}
	pad := 8 - (read+n)%8 // one to eight NULs
	if long {
		pad-- // the NUL read with the name
	}
	if _, err := br.Discard(pad); err != nil {
		return nil, err
	}
	return name, nil
}

// nameV4 reads a version 4 name: how many bytes to drop from the end of
// the previous one (a varint, as pack offsets are written), then what to
// append, up to a NUL.
func nameV4(br *bufio.Reader, prev []byte) ([]byte, error) {
	c, err := br.ReadByte()
	if err != nil {
		return nil, err
	}
	strip := int(c & 0x7f)
	for c&0x80 != 0 {
		if strip > maxIndexName {
			return nil, errors.New("name prefix length out of range")
		}
		if c, err = br.ReadByte(); err != nil {
			return nil, err
		}
		strip = (strip+1)<<7 | int(c&0x7f)
	}
	if strip > len(prev) {
		return nil, errors.New("name prefix length out of range")
	}
	name, err := readName(br, prev[:len(prev)-strip])
	if err != nil {
		return nil, err
	}
	return name[:len(name)-1], nil
}

// readName appends to name up to and including a NUL, refusing a name
// longer than maxIndexName.
func readName(br *bufio.Reader, name []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice(0)
		if len(name)+len(chunk) > maxIndexName+1 {
			return nil, fmt.Errorf("%w: an index entry's name is longer than %d bytes", ErrBudget, maxIndexName)
		}
		name = append(name, chunk...)
		switch {
		case err == nil:
			return name, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		}
	}
}

// underAny reports whether name is one of paths or below one ("." is the
// whole tree).
func underAny(name []byte, paths []string) bool {
	for _, p := range paths {
		if p == "." || string(name) == p ||
			len(name) > len(p) && name[len(p)] == '/' && string(name[:len(p)]) == p {
			return true
		}
	}
	return false
}
