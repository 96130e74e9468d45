package diag

// FixSafety classifies a code's fixes, as ruff does its fixes: a safe fix
// changes how something is written and never what it says, so the file
// then says to every reader what it already says to a person (markup,
// case, spacing, a heading's or label's form, where a line sits, a
// placeholder's form, the status rp1 itself derives, what upstream already
// assumes); an unsafe fix may change what the file says: it picks a word
// the author did not write (the nearest status token, verifier kind or
// field key), changes an id that evidence or tools may name, or moves the
// author's text. `check --fix` applies safe fixes, `--unsafe-fixes` the
// unsafe ones too; an editor offers both, preferring safe ones.
type FixSafety uint8

const (
	FixNone   FixSafety = iota // the code has no fix
	FixSafe                    // every fix is safe
	FixUnsafe                  // every fix is unsafe
	FixMixed                   // safe when it only normalises what was written, unsafe when it guesses (Fix.Unsafe says)
)

func (s FixSafety) String() string {
	switch s {
	case FixSafe:
		return "safe"
	case FixUnsafe:
		return "unsafe"
	case FixMixed:
		return "safe or unsafe"
	}
	return "none"
}

// fixSafety is the catalogue's classification of every code that has a
// fix; a code not listed has none. A test runs the checks over the
// repository's examples and test inputs and holds every fix they make to
// it.
var fixSafety = map[Code]FixSafety{
	// rp1: headings renamed to the form rp1 reads, regions added as _TBD_,
	// a placeholder written as rp1's, the status rp1 derives.
	SectionMissing:       FixSafe,
	RegionHeadingVariant: FixSafe,
	PlaceholderVariant:   FixSafe,
	StatusNoncanonical:   FixSafe,
	StatusMismatch:       FixSafe,
	LegacySections:       FixSafe,
	LegacyScratchPad:     FixUnsafe, // moves the answers into regions

	// pi-charter criteria.md.
	VALIDInvalid:    FixSafe,   // the id upper-cased: upstream drops the VAL, so nothing names it yet
	MissingVerifier: FixSafe,   // needs input: the reason is the author's
	MissingBecause:  FixSafe,   // needs input
	FieldNotParsed:  FixSafe,   // the same key and value on a plain line
	InvalidVerifier: FixUnsafe, // the nearest verifier kind: a guess
	VALIDGreedy:     FixUnsafe, // the id upstream reads changes: evidence recorded under it no longer counts
	FieldKeyTypo:    FixUnsafe, // the nearest known key: a guess

	// pi-charter .charters/ charter.md.
	CriterionStatusUnknown:   FixMixed, // case, markup or a glued dash: safe; a synonym (done → pass) or a typo: unsafe
	CriterionStatusMissing:   FixSafe,  // writes the pending status upstream assumes
	CriteriaSectionMissing:   FixSafe,
	CriterionHeadingNearMiss: FixSafe,
	CriterionLabelVariant:    FixSafe,
	NoteContinuation:         FixSafe, // the Depends line moved above the Evidence line
	LegacyEvidenceLine:       FixSafe,
	DependsToken:             FixSafe, // connecting words and "none" dropped, ids upper-cased
	DependsSelf:              FixSafe,
	ObjectiveHeadingShape:    FixSafe,
	PhaseSuffixVariant:       FixMixed, // the dash or spacing: safe; a word mapped to a status (finished → done): unsafe
	PhaseItemShape:           FixSafe,
	PhaseBodyBreak:           FixSafe,

	UnusedDisableComment: FixSafe, // the comment removed

	// .charters/ state.json.
	StateInvalid:   FixMixed,  // case of schemaVersion or status: safe; an older status mapped (done → completed): unsafe
	CharterIDShape: FixUnsafe, // charterId changes to the folder name
}

// FixSafety is how the catalogue classifies c's fixes.
func (c Code) FixSafety() FixSafety { return fixSafety[c] }
