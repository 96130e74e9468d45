package pi

import (
	"strings"
	"time"
)

// dateLayouts approximate what JavaScript's Date.parse accepts: the ISO 8601
// forms (date only, date-time with optional seconds, fraction and zone, "T"
// or a space) and the common RFC 1123/822/850 and ctime-like text forms.
// Upstream decides FreshSince validity and evidence freshness with
// Date.parse; a string outside these layouts is treated as unparsable.
var dateLayouts = []string{
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02",
	"2006-01",
	"2006",
	time.RFC1123,
	time.RFC1123Z,
	time.RFC850,
	time.RFC822,
	time.RFC822Z,
	time.ANSIC,
	time.UnixDate,
	"Jan 2 2006",
	"Jan 2, 2006",
	"January 2 2006",
	"January 2, 2006",
	"2 Jan 2006",
	"Mon Jan 2 2006",
	"Mon Jan 02 2006 15:04:05 GMT-0700",
}

// ParseTime parses s as upstream's Date.parse would (see dateLayouts). Forms
// without a zone are read as UTC, which matches Date.parse for date-only
// strings (and is the only deterministic choice for the others).
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return time.Time{}, false
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ParseJSDate reports whether s is a date upstream accepts.
func ParseJSDate(s string) bool {
	_, ok := ParseTime(s)
	return ok
}
