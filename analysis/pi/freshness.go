package pi

import (
	"fmt"
	"strings"
)

// Freshness is how the newest source change is dated, the baseline that
// makes fresh-required evidence stale. It is the one definition of the
// modes: the configuration (file, editor settings), the CLI's --freshness,
// the schema and the clock all take their values from here.
type Freshness string

const (
	// FreshnessGit dates the sources by git, in a git work tree: the last
	// commit touching the source folders, or the file time of a source
	// file changed since (edited, staged, or new and not ignored), and
	// evidence committed together with the change is fresh (GitClock).
	// Outside a work tree it is FreshnessMtime. The default: the file
	// times of a fresh clone are the time of the clone, not of a change.
	FreshnessGit Freshness = "git"
	// FreshnessMtime is upstream's rule: the newest modification time of
	// any file under the source folders.
	FreshnessMtime Freshness = "mtime"
)

// DefaultFreshness is the mode when none is configured.
const DefaultFreshness = FreshnessGit

// FreshnessModes are the modes, in the order help and the schema list them.
var FreshnessModes = []Freshness{FreshnessMtime, FreshnessGit}

// Valid reports whether f is one of FreshnessModes.
func (f Freshness) Valid() bool {
	for _, m := range FreshnessModes {
		if f == m {
			return true
		}
	}
	return false
}

// OrDefault is f, or DefaultFreshness when f is unset ("").
func (f Freshness) OrDefault() Freshness {
	if f == "" {
		return DefaultFreshness
	}
	return f
}

// ParseFreshness reads a mode; "" is the default.
func ParseFreshness(s string) (Freshness, error) {
	f := Freshness(s).OrDefault()
	if !f.Valid() {
		return "", fmt.Errorf("%q is not %s", s, FreshnessNames(" or "))
	}
	return f, nil
}

// FreshnessNames lists the modes quoted, joined by sep before the last.
func FreshnessNames(last string) string {
	names := make([]string, len(FreshnessModes))
	for i, m := range FreshnessModes {
		names[i] = fmt.Sprintf("%q", string(m))
	}
	return strings.Join(names[:len(names)-1], ", ") + last + names[len(names)-1]
}
