package record

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// segmentRE is what a feature id may be: it becomes one directory name, so
// no separators, no "..", no leading dot, nothing a shell or editor trips on.
var segmentRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$`)

// checkSegment refuses a feature id that is not a safe single path segment.
func checkSegment(featureID string) error {
	if !segmentRE.MatchString(featureID) {
		return fmt.Errorf("feature id %s is not a safe folder name: use 1-128 letters, digits, '_', '-' or '.', not starting with '.'", quote(featureID))
	}
	return nil
}

// checkInside returns an error unless p lies inside dir, both as written and
// after resolving the symbolic links of p's longest existing ancestor (a
// work/ folder linked elsewhere must not carry writes out of the charter).
func checkInside(dir, p string) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	absP, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	if !within(absDir, absP) {
		return fmt.Errorf("refusing to write %s: outside the charter directory %s", quote(p), absDir)
	}
	realDir, err := filepath.EvalSymlinks(absDir)
	if err != nil {
		return err
	}
	existing, rest := absP, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	realExisting, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return err
	}
	if !within(realDir, filepath.Join(realExisting, rest)) {
		return fmt.Errorf("refusing to write %s: a symbolic link leads outside the charter directory %s", quote(p), absDir)
	}
	return nil
}

// within reports whether p is dir or below it (both absolute and clean).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// quote shows user input in an error message: quoted, control characters
// escaped, and cut short so a 10k-character id does not flood the terminal.
func quote(s string) string {
	const max = 80
	if len(s) > max {
		cut := max
		for cut > 0 && (s[cut]&0xC0) == 0x80 {
			cut--
		}
		return fmt.Sprintf("%q… (%d bytes)", s[:cut], len(s))
	}
	return fmt.Sprintf("%q", s)
}
