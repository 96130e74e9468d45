package workspace

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// clockReading is when a project's sources last changed.
type clockReading struct {
	c  pi.SourceChange
	ok bool
	// due, when set, is when the reading is to be taken again: it ran out
	// of time (timeouts). Any other reading holds until a source changes.
	due time.Time
}

// clock returns the freshness clock of project under cfg's settings. The
// reading is taken at most once per snapshot line until a source of the
// project changes on disk (or, for one that timed out, its back-off
// passes), and only when a staleness check asks for it; no lock is held
// while it is taken.
func (s *Snapshot) clock(ctx context.Context, project string, cfg analysis.Config) (pi.SourceClock, error) {
	if project == "" {
		return noSources{}, nil
	}
	mode, dirs := cfg.FreshnessMode(), cfg.Sources()
	settings := string(mode) + "\x00" + strings.Join(dirs, "\x00")
	key := project + "\x00" + settings
	s.mu.Lock()
	pr := s.clocks[project][settings]
	if pr == nil {
		pr = newPromise(s.sess.busy, func(ctx context.Context) (clockReading, error) {
			clock := pi.NewSourceClock(mode, s.FS(), dirs)
			if g, ok := clock.(pi.GitClock); ok {
				g.Repos = s.repos
				if s.sess.gitLimits != nil {
					g.Limits = s.sess.gitLimits()
				}
				clock = g
			}
			c, ok, err := pi.NewestSource(ctx, clock, project)
			if err != nil {
				return clockReading{}, err // cancelled: kept by nobody
			}
			return clockReading{c: c, ok: ok, due: s.sess.timeouts.due(key, c.Unread != nil && c.Unread.TimedOut())}, nil
		})
		if s.clocks[project] == nil {
			s.clocks[project] = map[string]*promise[clockReading]{}
		}
		s.clocks[project][settings] = pr
	}
	s.mu.Unlock()
	return &lazyClock{ctx: ctx, project: project, pr: pr}, nil
}

// timeouts is the back-off of readings of the git history that ran out of
// time, a busy moment as often as a large history. Such a reading says so
// (freshness-unknown, never fresh) and is kept, not taken again at every
// keystroke, which would cost the whole deadline each time on a history
// that cannot be read in time, until its back-off passes: 1 s after the
// first timeout, doubling with each one in a row, up to a minute. A
// snapshot made after that (the server makes one: Options.Reread) reads it
// again, and the open documents are checked again with what it says.
type timeouts struct {
	reread func(delay time.Duration)

	mu    sync.Mutex
	inRow map[string]int // by clocks key
}

// due records a reading of the clocks key and returns when it is to be
// taken again: zero for one that did not time out.
func (t *timeouts) due(key string, timedOut bool) time.Time {
	t.mu.Lock()
	if !timedOut {
		delete(t.inRow, key)
		t.mu.Unlock()
		return time.Time{}
	}
	if t.inRow == nil {
		t.inRow = map[string]int{}
	}
	n := t.inRow[key]
	t.inRow[key] = n + 1
	t.mu.Unlock()
	delay := min(time.Second<<min(n, 6), time.Minute)
	due := time.Now().Add(delay) // before the timer starts: it fires no earlier
	if t.reread != nil {
		t.reread(delay)
	}
	return due
}

// rereads reports whether a memoized reading is due again (timeouts).
func (r clockReading) rereads(now time.Time) bool {
	return !r.due.IsZero() && !now.Before(r.due)
}

// lazyClock takes the reading when first asked. A cancelled ctx reads as
// "no sources"; the computation that asked is being cancelled with it and
// keeps nothing.
type lazyClock struct {
	ctx     context.Context
	project string
	pr      *promise[clockReading]
}

func (c *lazyClock) Newest(project string) (pi.SourceChange, bool) {
	if project != c.project {
		return pi.SourceChange{}, false
	}
	r, err := c.pr.get(c.ctx)
	if err != nil {
		return pi.SourceChange{}, false
	}
	return r.c, r.ok
}

// noSources is the clock of a charter outside any project.
type noSources struct{}

func (noSources) Newest(string) (pi.SourceChange, bool) { return pi.SourceChange{}, false }
