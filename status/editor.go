package status

import (
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// What the editors ask the server for (the charter.status and
// charter.valAt commands), so that neither client parses a charter. The
// shapes are in docs/status.schema.json with the status itself, and the
// VS Code extension's TypeScript types are generated from it.

// Report is charter.status's answer: the status of each charter asked for
// and, when asked with render "markdown", all of them rendered for a person
// (what the editors' status views show).
type Report struct {
	Charters []*Status `json:"charters"`
	// Markdown is the charters rendered by Markdown; only with render "markdown".
	Markdown string `json:"markdown,omitempty"`
}

// VALAt is charter.valAt's answer: one VAL as the status lists it, with
// its charter and what recording evidence for it from an editor needs.
type VALAt struct {
	CharterID string `json:"charterId"`
	// Dir is the charter directory, absolute (where its evidence goes).
	Dir string `json:"dir"`
	Criterion
	// BecauseRequired says evidence recorded from an editor needs a because
	// (see BecauseRequired).
	BecauseRequired bool `json:"becauseRequired"`
}

// BecauseRequired reports whether evidence a person records for c from an
// editor must say why its outcome is right. Such evidence is manual when the
// VAL's verifier is manual (nothing but a person's judgement verifies it),
// and upstream refuses manual evidence without a because; the evidence of
// any other verifier is recorded as the verifier's.
func BecauseRequired(c *pi.Criterion) bool { return c.EvidenceSource() == pi.SourceManual }

// VALOf describes the VAL id of v's register as of now, or returns nil
// when the register has no such VAL.
func VALOf(v *pi.View, id string, now time.Time) *VALAt {
	c := v.Criterion(id)
	if c == nil {
		return nil
	}
	st := Of(v, now)
	sc := st.byID()[c.ID]
	if sc == nil {
		return nil
	}
	return &VALAt{CharterID: st.CharterID, Dir: st.Dir, Criterion: *sc, BecauseRequired: BecauseRequired(c)}
}
