package record

import (
	"strconv"
	"strings"
	"time"
)

// isoLayout is JavaScript's Date.prototype.toISOString, which upstream uses
// for every timestamp it writes.
const isoLayout = "2006-01-02T15:04:05.000Z"

// ISOTime formats t as upstream writes timestamps.
func ISOTime(t time.Time) string { return t.UTC().Format(isoLayout) }

// Stamp is the run-directory name for t: the ISO time with ':' and '.'
// replaced by '-' (2026-05-15T03-00-00-000Z), as upstream names runs.
func Stamp(t time.Time) string {
	return strings.NewReplacer(":", "-", ".", "-").Replace(ISOTime(t))
}

// runName is the n-th candidate name for a run directory: the stamp, then
// stamp-1, stamp-2, … on collision.
func runName(stamp string, n int) string {
	if n == 0 {
		return stamp
	}
	return stamp + "-" + strconv.Itoa(n)
}
