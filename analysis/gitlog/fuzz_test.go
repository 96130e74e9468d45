package gitlog_test

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/internal/hostile"
)

// fuzzRepo is a work tree with src/a.go and a .git whose HEAD names head,
// made by hand (no git needed).
func fuzzRepo(t testing.TB, head string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range map[string]string{
		"src/a.go":             "x",
		".git/HEAD":            "ref: refs/heads/main\n",
		".git/refs/heads/main": head + "\n",
	} {
		p = filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, ".git", "objects", "pack"), 0o755)
	return dir
}

// fuzzHead is the commit id HEAD names in the fuzzed packs.
var fuzzHead = strings.Repeat("c0", 20)

// Any pack: its entries (raw bytes between the pack header and trailer)
// and where HEAD's entry starts. Reading it answers or fails, never
// panics, and allocates within the budget however its deltas chain.
func FuzzPack(f *testing.F) {
	tree := hostile.ObjectID("tree", nil)
	commit := []byte("tree " + tree + "\nauthor a <a@b> 1 +0000\ncommitter a <a@b> 1 +0000\n\nm\n")
	seed := func(entries []hostile.PackEntry, head int) {
		pack, offsets := hostile.PackBytes(entries)
		f.Add(pack[12:len(pack)-20], uint16(offsets[head]-12))
	}
	seed([]hostile.PackEntry{{Type: hostile.PackCommit, Data: commit}}, 0)
	seed([]hostile.PackEntry{
		{Type: hostile.PackCommit, Data: commit},
		{Type: hostile.PackOfsDelta, Base: 0, Data: hostile.Delta(uint64(len(commit)), 20, hostile.CopyOp(0, 20))},
	}, 1)
	seed([]hostile.PackEntry{
		{Type: hostile.PackCommit, Data: commit},
		{Type: hostile.PackRefDelta, RefBase: fuzzHead, Data: hostile.Delta(uint64(len(commit)), 3, hostile.InsertOp([]byte("abc")))},
	}, 1)
	seed([]hostile.PackEntry{
		{Type: hostile.PackCommit, Data: commit},
		{Type: hostile.PackOfsDelta, Base: 0, Data: hostile.Delta(uint64(len(commit)), hostile.BombSize, hostile.CopyOp(0, uint32(len(commit))))},
		{Type: hostile.PackOfsDelta, Base: 1, Data: hostile.Delta(hostile.BombSize, 9, hostile.CopyOp(0, 9))},
	}, 2)
	f.Fuzz(func(t *testing.T, raw []byte, headAt uint16) {
		dir := fuzzRepo(t, fuzzHead)
		pack := append([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x03"), raw...)
		pack = append(pack, make([]byte, 20)...)
		off := 12 + int64(headAt)%int64(len(raw)+1)
		idx := hostile.IndexBytes(pack, []string{fuzzHead}, []int64{off})
		base := filepath.Join(dir, ".git", "objects", "pack", "pack-f")
		os.WriteFile(base+".pack", pack, 0o644)
		os.WriteFile(base+".idx", idx, 0o644)
		alloc := allocated(func() {
			gitlog.LastChange(t.Context(), dir, []string{"src"}, gitlog.Limits{Bytes: 32 << 20})
			gitlog.Committed(t.Context(), filepath.Join(dir, "src", "a.go"), []byte("x"))
		})
		if alloc > 256<<20 {
			t.Errorf("a %d-byte pack allocated %d MB", len(raw), alloc>>20)
		}
	})
}

// Any index: reading it for a file, and for the files changed since the
// last commit, answers or fails, never panics, and allocates a bounded
// amount whatever names its entries build.
func FuzzIndex(f *testing.F) {
	blob := hostile.ObjectID("blob", []byte("x"))
	tree := []byte("40000 src\x00")
	sub := append([]byte("100644 a.go\x00"), hexBytes(blob)...)
	subID := hostile.ObjectID("tree", sub)
	tree = append(tree, hexBytes(subID)...)
	treeID := hostile.ObjectID("tree", tree)
	commit := []byte("tree " + treeID + "\nauthor a <a@b> 1 +0000\ncommitter a <a@b> 1 +0000\n\nm\n")
	head := hostile.ObjectID("commit", commit)
	for _, v := range []int{2, 3, 4} {
		f.Add(hostile.IndexFile(v, map[string]string{"src/a.go": blob, "src/b.go": blob}))
	}
	f.Add(hostile.IndexV4Bomb(64))
	f.Fuzz(func(t *testing.T, index []byte) {
		dir := fuzzRepo(t, head)
		hostile.WritePack(t, filepath.Join(dir, ".git"), []hostile.PackEntry{
			{Type: hostile.PackCommit, Data: commit, ID: head},
			{Type: hostile.PackTree, Data: tree, ID: treeID},
			{Type: hostile.PackTree, Data: sub, ID: subID},
		})
		os.WriteFile(filepath.Join(dir, ".git", "index"), index, 0o644)
		alloc := allocated(func() {
			gitlog.Committed(t.Context(), filepath.Join(dir, "src", "a.go"), []byte("x"))
			r, err := gitlog.Open(t.Context(), dir, gitlog.Limits{Bytes: 32 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if u, err := r.Uncommitted([]string{"src"}); err == nil {
				fi, _ := os.Stat(filepath.Join(dir, "src", "a.go"))
				u.Changed(filepath.Join(dir, "src", "a.go"), fi)
			}
		})
		if alloc > 96<<20 {
			t.Errorf("a %d-byte index allocated %d MB", len(index), alloc>>20)
		}
	})
}

func hexBytes(id string) []byte {
	b, _ := hex.DecodeString(id)
	return b
}
