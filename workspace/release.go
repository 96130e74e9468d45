package workspace

import (
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Release forgets what the snapshot and its session hold under dir (dir
// included): the files read and the folders listed there, the charters'
// models and diagnostics, the configuration looked up for its folders, the
// freshness readings of its projects. A later question about a path there
// reads and computes it again, so the answers do not change; only their
// cost does. It is for a caller that asks about each part of a large tree
// once — check, walking a monorepo, releases each charter folder once its
// files are checked, and each folder above once nothing below it is left
// to check — whose memory then stays flat in the size of the tree.
//
// The snapshot's memos keyed by a path (a charter's model, a folder's
// configuration) are found through what the disk held under dir: those of
// a path never read, stat'ed or listed stay.
func (s *Snapshot) Release(dir string) {
	dir = vfs.Clean(dir)
	paths := s.sess.disk.release(dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.read.deleteUnder(dir)
	for i := 0; i <= len(paths); i++ {
		p := dir // last: paths has no room for it, and appending copied it
		if i < len(paths) {
			p = paths[i]
		}
		delete(s.single, p)
		delete(s.configs, p)
		delete(s.lookups, p)
		delete(s.charters, p)
		delete(s.folders, p)
		delete(s.clocks, p)
	}

}

// release forgets what d holds under dir and returns the paths it held
// something of.
func (d *disk) release(dir string) (paths []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	paths = d.held.paths(dir)
	d.held.deleteUnder(dir)
	return paths
}
