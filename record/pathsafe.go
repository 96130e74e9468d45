package record

import (
	"fmt"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// checkSegment refuses a feature id that is not a safe single path segment
// (pi.ValidFeatureID).
func checkSegment(featureID string) error {
	if !pi.ValidFeatureID(featureID) {
		return fmt.Errorf("feature id %s is not a safe folder name: use 1-128 letters, digits, '_', '-' or '.', not starting with '.'", quote(featureID))
	}
	return nil
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

// CheckContained refuses a charter directory that, once symbolic links are
// resolved, lies outside its project (the folder holding .pi/): a
// .pi/charters/<id> or a .pi linked elsewhere must not carry a record out
// of the project. It is the rule the language server applies with its
// workspace folders (vfs.Within, shared), so `charter-lsp record --charter`
// through such a link is refused as the editor's action is.
func CheckContained(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	project := pi.ProjectOf(abs)
	if project == "" {
		return nil // not in a project's .pi/charters: nothing to be contained by
	}
	if !vfs.Within(project, abs) {
		return fmt.Errorf("not recording evidence for %s: it is outside the project %s (a symbolic link leads out of it)", abs, project)
	}
	return nil
}
