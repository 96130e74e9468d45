package hostile

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// Git object types as a pack writes them.
const (
	PackCommit   = 1
	PackTree     = 2
	PackBlob     = 3
	PackOfsDelta = 6
	PackRefDelta = 7
)

// PackEntry is one object of a hand-made pack.
type PackEntry struct {
	Type int    // PackCommit, PackTree, PackBlob, PackOfsDelta or PackRefDelta
	Data []byte // what the entry inflates to: the object, or the delta
	// Size is the size the entry's header declares; 0: len(Data).
	Size int
	// Base is the index of an OfsDelta's base entry (earlier in the
	// pack); RefBase is a RefDelta's base object id.
	Base    int
	RefBase string
	// ID is the object id the pack index lists the entry under (a delta's
	// result cannot be hashed without building it: the caller says).
	ID string
}

// ObjectID is the git object id of content of type kind ("commit", "tree",
// "blob").
func ObjectID(kind string, content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// Delta is a git delta: the base's size, the result's size, then the
// instructions (CopyOp, InsertOp).
func Delta(baseSize, resultSize uint64, ops ...[]byte) []byte {
	out := binary.AppendUvarint(nil, baseSize)
	out = binary.AppendUvarint(out, resultSize)
	for _, op := range ops {
		out = append(out, op...)
	}
	return out
}

// CopyOp copies size bytes (at most 0x10000; 0x10000 is written as no
// size bytes, as git does) from the base at off.
func CopyOp(off, size uint32) []byte {
	cmd := byte(0x80)
	var args []byte
	for i := 0; i < 4; i++ {
		if b := byte(off >> (8 * i)); b != 0 {
			cmd |= 1 << i
			args = append(args, b)
		}
	}
	if size != 0x10000 {
		for i := 0; i < 3; i++ {
			if b := byte(size >> (8 * i)); b != 0 {
				cmd |= 0x10 << i
				args = append(args, b)
			}
		}
	}
	return append([]byte{cmd}, args...)
}

// InsertOp inserts text (at most 127 bytes).
func InsertOp(text []byte) []byte { return append([]byte{byte(len(text))}, text...) }

// PackBytes is a version 2 pack of entries, with each entry's offset.
func PackBytes(entries []PackEntry) ([]byte, []int64) {
	var p bytes.Buffer
	p.WriteString("PACK")
	binary.Write(&p, binary.BigEndian, uint32(2))
	binary.Write(&p, binary.BigEndian, uint32(len(entries)))
	offsets := make([]int64, len(entries))
	for i, e := range entries {
		offsets[i] = int64(p.Len())
		size := e.Size
		if size == 0 {
			size = len(e.Data)
		}
		p.Write(entryHeader(e.Type, uint64(size)))
		switch e.Type {
		case PackOfsDelta:
			p.Write(ofsDistance(uint64(offsets[i] - offsets[e.Base])))
		case PackRefDelta:
			id, _ := hex.DecodeString(e.RefBase)
			p.Write(id)
		}
		p.Write(Deflate(e.Data))
	}
	sum := sha1.Sum(p.Bytes())
	p.Write(sum[:])
	return p.Bytes(), offsets
}

func entryHeader(typ int, size uint64) []byte {
	c := byte(typ<<4) | byte(size&15)
	size >>= 4
	var out []byte
	for size > 0 {
		out = append(out, c|0x80)
		c = byte(size & 0x7f)
		size >>= 7
	}
	return append(out, c)
}

// ofsDistance encodes an OFS_DELTA's distance back to its base as git does.
func ofsDistance(d uint64) []byte {
	out := []byte{byte(d & 0x7f)}
	for d >>= 7; d > 0; d >>= 7 {
		d--
		out = append([]byte{byte(0x80 | d&0x7f)}, out...)
	}
	return out
}

// Deflate is data zlib-compressed, as git stores objects.
func Deflate(data []byte) []byte {
	var b bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// IndexBytes is the version 2 pack index of a pack whose entries have the
// given ids and offsets.
func IndexBytes(pack []byte, ids []string, offsets []int64) []byte {
	type row struct {
		id  []byte
		off int64
		crc uint32
	}
	rows := make([]row, len(ids))
	for i, id := range ids {
		raw, _ := hex.DecodeString(id)
		end := int64(len(pack) - 20)
		for _, o := range offsets {
			if o > offsets[i] && o < end {
				end = o
			}
		}
		rows[i] = row{raw, offsets[i], crc32.ChecksumIEEE(pack[offsets[i]:end])}
	}
	sort.Slice(rows, func(i, j int) bool { return bytes.Compare(rows[i].id, rows[j].id) < 0 })
	var x bytes.Buffer
	x.Write([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	var fanout [256]uint32
	for _, r := range rows {
		for b := int(r.id[0]); b < 256; b++ {
			fanout[b]++
		}
	}
	binary.Write(&x, binary.BigEndian, fanout)
	for _, r := range rows {
		x.Write(r.id)
	}
	for _, r := range rows {
		binary.Write(&x, binary.BigEndian, r.crc)
	}
	for _, r := range rows {
		binary.Write(&x, binary.BigEndian, uint32(r.off))
	}
	x.Write(pack[len(pack)-20:])
	sum := sha1.Sum(x.Bytes())
	x.Write(sum[:])
	return x.Bytes()
}

// WritePack writes entries as a pack and its index into gitDir's
// objects/pack/.
func WritePack(t testing.TB, gitDir string, entries []PackEntry) {
	t.Helper()
	pack, offsets := PackBytes(entries)
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	name := filepath.Join(gitDir, "objects", "pack", "pack-"+hex.EncodeToString(pack[len(pack)-20:]))
	write(t, name+".pack", string(pack))
	write(t, name+".idx", string(IndexBytes(pack, ids, offsets)))
}

// commitText is a commit of tree with message, dated 2026-11-12.
func commitText(tree, message string) string {
	return fmt.Sprintf("tree %s\nauthor hostile <h@example.com> 1794992400 +0000\ncommitter hostile <h@example.com> 1794992400 +0000\n\n%s", tree, message)
}

// gitProject is a pi project (git freshness on) committed to a new
// repository, with a state.json the tool last wrote before its file time,
// so status asks git whether it was edited (sidecar drift).
func gitProject(t testing.TB) string {
	t.Helper()
	HaveGit(t)
	project := t.TempDir()
	piProject(t, project)
	state := filepath.Join(project, ".pi", "charters", "auth-rework", "state.json")
	write(t, state, `{"charterId": "auth-rework", "schemaVersion": "v2", "name": "Session handling rework", "status": "active", "lastToolWriteAt": "2026-11-12T16:30:00.000Z"}`+"\n")
	Git(t, project, "init", "-q", "-b", "main")
	Git(t, project, "add", "-A")
	Git(t, project, "commit", "-qm", "charter")
	later := time.Date(2026, 11, 13, 8, 0, 0, 0, time.UTC)
	if err := os.Chtimes(state, later, later); err != nil {
		t.Fatal(err)
	}
	return project
}

// BombSize is what the pack bomb's middle object inflates to.
const BombSize = 512 << 20

// PackBomb is a project whose HEAD commit is a 9-byte delta on a 512 MB
// object that is itself a delta of a 64 KB commit: a pack of about 300
// bytes. Any reader that builds a delta's base before checking its size
// inflates 512 MB; the commit it ends in is an ordinary one.
func PackBomb(t testing.TB) string {
	t.Helper()
	project := gitProject(t)
	tree := strings.TrimSpace(Git(t, project, "rev-parse", "HEAD^{tree}"))
	base := commitText(tree, "padding\n"+strings.Repeat("x", 64<<10))
	base = base[:64<<10]
	head := base[:len(commitText(tree, "padding\n"))]
	var copies []byte
	for range BombSize / (64 << 10) {
		copies = append(copies, CopyOp(0, 0x10000)...)
	}
	headID := ObjectID("commit", []byte(head))
	WritePack(t, filepath.Join(project, ".git"), []PackEntry{
		{Type: PackCommit, Data: []byte(base), ID: ObjectID("commit", []byte(base))},
		{Type: PackOfsDelta, Base: 0, Data: Delta(uint64(len(base)), BombSize, copies), ID: strings.Repeat("ab", 20)},
		{Type: PackOfsDelta, Base: 1, Data: Delta(BombSize, uint64(len(head)), CopyOp(0, uint32(len(head)))), ID: headID},
	})
	// Written as a file: git would look the object up.
	write(t, filepath.Join(project, ".git", "refs", "heads", "main"), headID+"\n")
	return project
}

// IndexBomb is a project whose .git/index is a version 4 index of
// entries whose names each extend the previous one by a byte (version 4
// stores only the difference): a 2.6 MB file of 40,000 entries whose
// names add up to 800 MB.
func IndexBomb(t testing.TB) string {
	t.Helper()
	project := gitProject(t)
	write(t, filepath.Join(project, ".git", "index"), string(IndexV4Bomb(40_000)))
	return project
}

// IndexFile is an index (.git/index) of version 2, 3 or 4 listing each
// name with its blob id; in version 3 the first entry carries extended
// flags (intent to add), in version 4 each name is written as a change of
// the previous one.
func IndexFile(version int, blobs map[string]string) []byte {
	names := make([]string, 0, len(blobs))
	for n := range blobs {
		names = append(names, n)
	}
	sort.Strings(names)
	prev := ""
	return index(version, len(names), func(x *bytes.Buffer, i int) {
		name := names[i]
		start := x.Len()
		id, _ := hex.DecodeString(blobs[name])
		extended := version == 3 && i == 0
		flags := uint16(min(len(name), 0xfff))
		if extended {
			flags |= 0x4000
		}
		entryHead(x, id, flags)
		if extended {
			binary.Write(x, binary.BigEndian, uint16(0x2000))
		}
		if version == 4 {
			common := 0
			for common < len(prev) && common < len(name) && prev[common] == name[common] {
				common++
			}
			x.Write(ofsDistance(uint64(len(prev) - common)))
			x.WriteString(name[common:] + "\x00")
		} else {
			x.WriteString(name)
			x.Write(make([]byte, 8-(x.Len()-start)%8))
		}
		prev = name
	})
}

// IndexV4LongNames is a version 4 index of n entries whose names are
// 4,000 bytes long and differ in their last six: each costs the file 70
// bytes and a reader that keeps it 4 KB.
func IndexV4LongNames(n int) []byte {
	stem := "src/" + strings.Repeat("a", 3990)
	return index(4, n, func(x *bytes.Buffer, i int) {
		entryHead(x, emptyBlob(), 0xfff)
		if i == 0 {
			fmt.Fprintf(x, "\x00%s%06d\x00", stem, i)
		} else {
			fmt.Fprintf(x, "\x06%06d\x00", i) // drop the last six bytes, append six
		}
	})
}

// IndexV4Bomb is a version 4 index of n entries, src/a, src/aa, …: each
// name the previous one and one byte more.
func IndexV4Bomb(n int) []byte {
	return index(4, n, func(x *bytes.Buffer, i int) {
		entryHead(x, emptyBlob(), uint16(min(4+i+1, 0xfff)))
		if i == 0 {
			x.WriteString("\x00src/a\x00") // strip nothing, append the name
		} else {
			x.WriteString("\x00a\x00")
		}
	})
}

// index is an index file of version and n entries, each written by entry,
// with its header and checksum.
func index(version, n int, entry func(x *bytes.Buffer, i int)) []byte {
	var x bytes.Buffer
	x.WriteString("DIRC")
	binary.Write(&x, binary.BigEndian, uint32(version))
	binary.Write(&x, binary.BigEndian, uint32(n))
	for i := range n {
		entry(&x, i)
	}
	sum := sha1.Sum(x.Bytes())
	x.Write(sum[:])
	return x.Bytes()
}

// entryHead writes an index entry up to its name: zero stat data but the
// mode (a regular file), the blob id and the flags.
func entryHead(x *bytes.Buffer, blob []byte, flags uint16) {
	var stat [40]byte
	binary.BigEndian.PutUint32(stat[24:], 0o100644)
	x.Write(stat[:])
	x.Write(blob)
	binary.Write(x, binary.BigEndian, flags)
}

func emptyBlob() []byte {
	id, _ := hex.DecodeString(ObjectID("blob", nil))
	return id
}
