package pi

import (
	"regexp"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// ValidVALID reports whether id is a VAL id upstream reads: a criteria.md
// heading starting with it yields exactly this id (matchVALHeading).
func ValidVALID(id string) bool {
	src := []byte(id)
	sp, _, greedy, ok := matchVALHeading(src, source.Span{Start: 0, End: len(src)})
	return ok && !greedy && sp.End == len(src)
}

// featureIDPattern is what a feature id (a milestone's id, as evidence rows
// name it) may be: it becomes one folder, work/<featureId>/, so no
// separators, no "..", no leading dot, nothing a shell or editor trips on.
var featureIDPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$`)

// ValidFeatureID reports whether id may name an evidence folder.
func ValidFeatureID(id string) bool { return featureIDPattern.MatchString(id) }
