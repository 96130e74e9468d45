package charterfile

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// idPattern is upstream's ID_RE (src/domain/ids.ts@11ebdca7): the names
// its id lookup sees. The listing shows every directory with a valid
// state.json, so a charter in a folder of another name is listed but
// cannot be addressed by id.
var idPattern = regexp.MustCompile(`^\d{8}-\d{6}-[a-z0-9]+(?:-[a-z0-9]+)*(?:-\d+)?$`)

// ValidID reports whether name is a charter id upstream can look up.
func ValidID(name string) bool { return idPattern.MatchString(name) }

// Slug is upstream's slugFromObjective: lower-cased, every run of
// characters other than a-z and 0-9 turned into "-", trimmed of "-", cut
// to 32 characters and trimmed again; "charter" when nothing is left.
func Slug(objective string) string {
	var b strings.Builder
	dash := false
	add := func(c rune) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
			return
		}
		dash = true
	}
	for _, r := range objective {
		switch {
		case r == 0x130: // JavaScript lower-cases İ to "i̇", two characters
			add('i')
			add(0x307)
		case r < utf8.RuneSelf || r == 0x212A: // ASCII, and the Kelvin sign (→ k)
			add(unicode.ToLower(r))
		default:
			add(r) // anything else lower-cases to a character that is not a-z or 0-9
		}
	}
	s := b.String()
	if len(s) > 32 {
		s = strings.TrimRight(s[:32], "-")
	}
	if s == "" {
		return "charter"
	}
	return s
}

// TimestampID is upstream's timestampIdPart: the UTC time as YYYYMMDD-HHMMSS.
func TimestampID(t time.Time) string { return t.UTC().Format("20060102-150405") }

// NewID makes the id upstream's generateCharterId would give a charter
// created at now with this objective, among the names already taken in the
// .charters folder: the base id, else the first free of base-2, base-3, ….
func NewID(now time.Time, objective string, taken func(name string) bool) string {
	base := TimestampID(now) + "-" + Slug(objective)
	if !taken(base) {
		return base
	}
	for i := 2; ; i++ {
		if c := fmt.Sprintf("%s-%d", base, i); !taken(c) {
			return c
		}
	}
}

// DirOf returns the .charters/<id> folder holding path, or "" when path is
// not inside one. The folder itself is not "inside" it.
func DirOf(path string) string {
	p := filepath.ToSlash(vfs.Clean(path))
	// i is where the .charters segment starts in p.
	i := strings.LastIndex(p, "/.charters/") + 1
	if i == 0 && !strings.HasPrefix(p, ".charters/") {
		return ""
	}
	rest := p[i+len(".charters/"):]
	id, _, found := strings.Cut(rest, "/")
	if id == "" || !found || id == ".mutation.lock" {
		return ""
	}
	return filepath.FromSlash(p[:i+len(".charters/")+len(id)]) // a part of path: no copy
}
