// Package workspace holds what charter-lsp knows about a workspace as a
// sequence of immutable snapshots, as gopls does: the open documents over
// the disk, the user's settings, and every fact derived from them — each
// file's line index and parse, each charter folder's model (a pi charter's
// pi.View: criteria, evidence with outcomes, staleness, progress; a
// .charters/ folder's charterfile.View), each file's diagnostics —
// computed at most once per snapshot, and carried over to the next snapshot
// unless the change touched what it was derived from.
//
// The language server makes a new snapshot per change (an edit, a file
// changed on disk, new settings) and answers every request from one; the
// CLI takes one snapshot of the disk. Nothing here knows the protocol.
package workspace

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/inflight"
)

// Options configure a Session.
type Options struct {
	// Disk is the file system under the open documents (default vfs.OS).
	Disk vfs.FS
	// Now is the clock (default time.Now).
	Now func() time.Time
	// GitLimits, when set, bounds each reading of a project's git history
	// (asked before each; default gitlog's: 5 s, 100,000 commits, 1 GB).
	GitLimits func() gitlog.Limits
	// Reread, when set, is told that a reading of the git history timed
	// out and is due again after delay: a snapshot made then (any Update)
	// reads it again. The server makes one; the CLI reads once.
	Reread func(delay time.Duration)
	// ReadOnce is a caller that asks about each file once and never asks
	// what changed on disk (Revalidate), nor reloads a charter's evidence
	// after a change of it: check without --fix. A file read without being
	// kept (an evidence run) then leaves nothing behind, not even the stat
	// and digest a revalidation or a reload would compare: a history of a
	// hundred thousand runs is not held twice. Nor does it use a snapshot
	// after the next Update: a snapshot's files are then the disk's
	// record, with no version of the snapshot's own.
	ReadOnce bool
}

// Settings are the user's settings — the editor's (initializationOptions,
// workspace/configuration) or the CLI's flags — which win over a project
// file key by key.
type Settings struct {
	Config analysis.Config
	// Restricted is an untrusted workspace (VS Code's Restricted Mode): a
	// project file may then not widen what charter-lsp does.
	Restricted bool
	// Exclusive: Config replaces any project file instead of overriding it
	// key by key (the CLI's --config FILE).
	Exclusive bool
}

// Change is one change of the workspace.
type Change struct {
	// Documents are opened documents or new versions of open ones.
	Documents []*Document
	// Closed are the paths of documents the editor closed.
	Closed []string
	// Disk are paths that changed on disk (created, changed or deleted;
	// files or folders).
	Disk []string
	// DiskUnknown says the disk may have changed anywhere (a client that
	// cannot watch files): everything read from it is read again.
	DiskUnknown bool
	// Settings, when set, replace the user's settings.
	Settings *Settings
	// Roots, when set, replace the workspace folders.
	Roots *[]string
}

// Session is the sequence of snapshots of one workspace.
type Session struct {
	disk *disk
	now  func() time.Time
	busy *inflight.Counter // computations in flight
	// checks counts the file checks run (Checks).
	checks atomic.Int64
	cites  citeCache // each code file's cites, until it changes (ids.go)

	gitLimits func() gitlog.Limits
	timeouts  timeouts // readings of the git history that timed out (clock.go)

	// update serialises Update; readers take the current snapshot without
	// waiting for it (Update reads the disk, which may ask for the roots).
	update sync.Mutex
	snap   atomic.Pointer[Snapshot]
}

// NewSession starts a session with an empty first snapshot.
func NewSession(opts Options) *Session {
	if opts.Disk == nil {
		opts.Disk = vfs.OS
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	b := inflight.New()
	d := newDisk(opts.Disk, b)
	d.readOnce = opts.ReadOnce
	s := &Session{disk: d, now: opts.Now, busy: b,
		gitLimits: opts.GitLimits, timeouts: timeouts{reread: opts.Reread}}
	s.snap.Store(newSnapshot(s, 1))
	return s
}

// Wait blocks until no computation is in flight, cancelled ones included
// (tests observe the workspace at rest with it).
func (s *Session) Wait() { s.busy.Wait() }

// Checks is how many file checks the session has run: each time a file's
// diagnostics were computed (an rp1 charter, a configuration file, a file
// of a pi charter), not the times they were carried over or shared. The
// benchmarks report it per keystroke; tests see with it which changes
// check which files again.
func (s *Session) Checks() int64 { return s.checks.Load() }

// Snapshot returns the current snapshot.
func (s *Session) Snapshot() *Snapshot { return s.snap.Load() }

// Revalidate lists the paths that changed on disk since they were read, for
// a client that cannot watch files: passing them as Change.Disk makes the
// next snapshot read them again and keeps everything else. It stats what
// the session has read and lists the folders it has listed; nothing is
// read, so a charter with a hundred thousand evidence runs costs a hundred
// thousand stats, not a reload.
func (s *Session) Revalidate(ctx context.Context) ([]string, error) {
	return s.disk.changed(ctx)
}

// Update applies c and returns the snapshot that results. What c did not
// touch is carried over from the previous snapshot, computed or not.
// Updates are serialised; each returns a snapshot newer than the last.
func (s *Session) Update(c Change) *Snapshot {
	s.update.Lock()
	defer s.update.Unlock()
	prev := s.snap.Load()
	for _, p := range c.Disk {
		s.disk.invalidate(vfs.Clean(p))
	}
	if c.DiskUnknown {
		s.disk.reset()
	}
	next := prev.derive(c)
	s.snap.Store(next)
	return next
}
