package record

import (
	"errors"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// validateRow checks one evidence row with pi's evidence schema.
func validateRow(content []byte) error {
	rows, problems := pi.ParseEvidence(content)
	for _, r := range rows {
		problems = append(problems, r.SchemaProblems()...)
	}
	if len(problems) > 0 {
		return errors.New(problems[0].Message)
	}
	return nil
}
