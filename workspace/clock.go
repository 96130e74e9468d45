package workspace

import (
	"context"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// clockReading is when a project's sources last changed.
type clockReading struct {
	c  pi.SourceChange
	ok bool
}

// clock returns the freshness clock of project under cfg's settings. The
// reading is taken at most once per snapshot line until a source of the
// project changes on disk, and only when a staleness check asks for it;
// no lock is held while it is taken.
func (s *Snapshot) clock(ctx context.Context, project string, cfg analysis.Config) (pi.SourceClock, error) {
	if project == "" {
		return noSources{}, nil
	}
	mode, dirs := cfg.FreshnessMode(), cfg.Sources()
	key := project + "\x00" + string(mode) + "\x00" + strings.Join(dirs, "\x00")
	s.mu.Lock()
	pr := s.clocks[key]
	if pr == nil {
		pr = newPromise(s.sess.busy, func(ctx context.Context) (clockReading, error) {
			c, ok, err := pi.NewestSource(ctx, pi.NewSourceClock(mode, s.FS(), dirs), project)
			return clockReading{c, ok}, err
		})
		s.clocks[key] = pr
	}
	s.mu.Unlock()
	return &lazyClock{ctx: ctx, project: project, pr: pr}, nil
}

// clockProject is the project of a clocks key.
func clockProject(key string) string {
	p, _, _ := strings.Cut(key, "\x00")
	return p
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
