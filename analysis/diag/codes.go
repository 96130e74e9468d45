package diag

import "fmt"

// DocsURL is where docs/diagnostics.md is published; each diagnostic's
// codeDescription links to DocsURL + "#" + code.
const DocsURL = "https://github.com/charter-lsp/charter-lsp/blob/main/docs/diagnostics.md"

// Code identifies a diagnostic rule. Checks name codes by these constants
// only, so a misspelt or unknown code is a compile error; users see, configure
// and suppress the kebab-case Name (Code.String).
type Code uint16

const (
	noCode Code = iota
	SectionMissing
	SectionEmpty
	SectionPartial
	SectionCoveredByQA
	StatusCompleteWithGaps
	ScratchpadMalformedEntry
	ScratchpadDuplicateNumber
	ScratchpadOutOfOrder
	ScratchpadUnknownTopic
	ScratchpadOverBudget
	ScratchpadModeMismatch
	ScratchpadMissingEnd
	ScratchpadAnswerHeading
	ScratchpadPending
	MalformedCommand
	DuplicateCommand
	MissingVerifier
	MissingBecause
	InvalidVerifier
	WeakVerifierPhraseCoupled
	WeakVerifierTitleFilter
	VALIDInvalid
	VALIDGreedy
	DuplicateVALID
	FieldNotParsed
	VALUnderH1
	VALNested
	FieldKeyTypo
	VALTitleTask
	MilestoneSize
	LegacyCriteria
	StaleEvidence
	EvidenceInvalid
	EvidenceMissingBecause
	EvidenceUnknownVAL
	CriterionStateDrift
	JSONInvalid
	ReportEmptySection
	ReportMissingSection
	FileTooLarge
	FileUnreadable
	FileNotRegular
	ConfigInvalid
	UnknownDisableCode
	codeCount
)

// Rule describes one diagnostic code. The catalogue below is the only list of
// codes: checks, configuration validation, docs and SARIF output all read it.
type Rule struct {
	Code     Code
	Name     string   // the kebab-case name users see, configure and suppress
	Severity Severity // default severity
	Family   string   // rp1, scratchpad, criteria, verifier, evidence, report, charter, config
	Summary  string   // one line: what triggers it
	Upstream bool     // one of pi-charter's own parse-warning reasons
}

// Rules is the catalogue, grouped by family.
var Rules = []Rule{
	// rp1 charter sections.
	{SectionMissing, "section-missing", SeverityWarning, "rp1", "A required charter section has no heading.", false},
	{SectionEmpty, "section-empty", SeverityWarning, "rp1", "A required charter section has a heading but no content.", false},
	{SectionPartial, "section-partial", SeverityWarning, "rp1", "A required section holds a TBD marker, a placeholder or fewer than two sentences.", false},
	{SectionCoveredByQA, "section-covered-by-qa", SeverityHint, "rp1", "A section is still a gap in the charter but the scratch pad's answers cover it; finishing the interview fills it.", false},
	{StatusCompleteWithGaps, "status-complete-with-gaps", SeverityWarning, "rp1", "The charter says **Status**: Complete but still has gaps or a scratch pad.", false},

	// rp1 interview scratch pad.
	{ScratchpadMalformedEntry, "scratchpad-malformed-entry", SeverityWarning, "scratchpad", "A ### Q entry has none of **Asked**, **Answer**, **Skipped**; the interviewer skips it.", false},
	{ScratchpadDuplicateNumber, "scratchpad-duplicate-number", SeverityWarning, "scratchpad", "Two entries share a question number.", false},
	{ScratchpadOutOfOrder, "scratchpad-out-of-order", SeverityWarning, "scratchpad", "Question numbers are not increasing.", false},
	{ScratchpadUnknownTopic, "scratchpad-unknown-topic", SeverityInformation, "scratchpad", "An entry's topic maps to no charter section, so its answer covers nothing.", false},
	{ScratchpadOverBudget, "scratchpad-over-budget", SeverityWarning, "scratchpad", "More entries than the question budget.", false},
	{ScratchpadModeMismatch, "scratchpad-mode-mismatch", SeverityInformation, "scratchpad", "The <!-- Mode: --> comment contradicts the file's state.", false},
	{ScratchpadMissingEnd, "scratchpad-missing-end", SeverityWarning, "scratchpad", "The scratch pad has no <!-- End scratch pad --> marker.", false},
	{ScratchpadAnswerHeading, "scratchpad-answer-heading", SeverityWarning, "scratchpad", "An answer contains a '## ' heading, which ends the scratch pad early for rp1.", false},
	{ScratchpadPending, "scratchpad-pending", SeverityInformation, "scratchpad", "A question was asked and awaits an answer.", false},

	// pi-charter charter.md.
	{MalformedCommand, "malformed-command", SeverityWarning, "charter", "A ## Commands line without a colon, or with an empty key or value.", true},
	{DuplicateCommand, "duplicate-command", SeverityWarning, "charter", "A ## Commands key appears twice; the last one wins.", true},

	// pi-charter criteria.md.
	{MissingVerifier, "missing-verifier", SeverityWarning, "criteria", "A VAL has no Verifier: line, so upstream treats it as manual.", true},
	{MissingBecause, "missing-because", SeverityWarning, "criteria", "An explicit manual verifier without a non-empty Because: line.", true},
	{InvalidVerifier, "invalid-verifier", SeverityWarning, "criteria", "Unknown verifier kind or a bad shape (subagent without Agent/Task, evidence-exists with a bad Kind or FreshSince); upstream degrades it to manual.", true},
	{WeakVerifierPhraseCoupled, "weak-verifier-phrase-coupled", SeverityWarning, "verifier", "A JavaScript test command filters by test title with no test file, so it can pass on zero tests.", true},
	{WeakVerifierTitleFilter, "weak-verifier-title-filter", SeverityWarning, "verifier", "A go/pytest/cargo/… command filters by test name, which passes silently when nothing matches.", false},
	{VALIDInvalid, "val-id-invalid", SeverityError, "criteria", "A VAL heading whose id is not upper-case letters, digits and '-'; upstream silently drops it.", false},
	{VALIDGreedy, "val-id-greedy", SeverityWarning, "criteria", "The id regex swallows part of the title (VAL-X-001-Title reads as id VAL-X-001-T).", false},
	{DuplicateVALID, "duplicate-val-id", SeverityError, "criteria", "Two criteria share an id.", false},
	{FieldNotParsed, "field-not-parsed", SeverityWarning, "criteria", "A field written as a bullet or in bold, which upstream does not read.", false},
	{VALUnderH1, "val-under-h1", SeverityWarning, "criteria", "A ### VAL directly under an H1, which upstream drops.", false},
	{VALNested, "val-nested", SeverityWarning, "criteria", "A ### VAL inside an ungrouped ## VAL-* criterion, whose body swallows it; upstream does not read it as a criterion.", false},
	{FieldKeyTypo, "field-key-typo", SeverityWarning, "criteria", "An unknown field key that looks like a misspelt known key.", false},
	{VALTitleTask, "val-title-task", SeverityInformation, "criteria", "A VAL title reads as a task (Implement X) rather than a behaviour.", false},
	{MilestoneSize, "milestone-size", SeverityInformation, "criteria", "A milestone has fewer than 3 or more than 8 VALs.", false},
	{LegacyCriteria, "legacy-criteria", SeverityInformation, "criteria", "charter.md holds a legacy ## Criteria section that upstream reads because criteria.md is missing or the scaffold.", false},

	// Evidence and sidecars.
	{StaleEvidence, "stale-evidence", SeverityWarning, "evidence", "A fresh-required VAL's passing evidence predates the newest source change.", false},
	{EvidenceInvalid, "evidence-invalid", SeverityError, "evidence", "An evidence row breaks the evidence schema.", false},
	{EvidenceMissingBecause, "evidence-missing-because", SeverityWarning, "evidence", "Manual evidence without a because.", false},
	{EvidenceUnknownVAL, "evidence-unknown-val", SeverityWarning, "evidence", "An evidence row names a criterion that criteria.md does not define.", false},
	{CriterionStateDrift, "criterion-state-drift", SeverityWarning, "evidence", "criterion-state.json disagrees with the newest evidence row.", false},
	{JSONInvalid, "json-invalid", SeverityError, "evidence", "A JSON sidecar cannot be parsed.", false},

	// REPORT.md.
	{ReportEmptySection, "report-empty-section", SeverityWarning, "report", "A REPORT.md section is empty or holds only comments.", false},
	{ReportMissingSection, "report-missing-section", SeverityWarning, "report", "REPORT.md lacks one of ## Objective, ## Outcome, ## Notes.", false},

	// Files and configuration.
	{FileTooLarge, "file-too-large", SeverityWarning, "config", "The file is larger than the analysis limit and was not analysed.", false},
	{FileUnreadable, "file-unreadable", SeverityError, "config", "A charter file exists but cannot be read (permissions, an I/O error).", false},
	{FileNotRegular, "file-not-regular", SeverityError, "config", "A FIFO, device node, socket or folder stands where a charter file or the configuration file is expected; it is skipped, never opened for reading.", false},
	{ConfigInvalid, "config-invalid", SeverityError, "config", "The charter-lsp configuration file cannot be read.", false},
	{UnknownDisableCode, "unknown-disable-code", SeverityWarning, "config", "An inline charter-lsp-disable comment names a code that does not exist.", false},
}

// rules indexes Rules by Code; byName by the kebab-case name.
var rules, byName = func() ([codeCount]*Rule, map[string]Code) {
	var idx [codeCount]*Rule
	names := make(map[string]Code, len(Rules))
	for i := range Rules {
		idx[Rules[i].Code] = &Rules[i]
		names[Rules[i].Name] = Rules[i].Code
	}
	return idx, names
}()

// Rule returns the catalogue entry of c, or nil for the zero Code.
func (c Code) Rule() *Rule {
	if c >= codeCount {
		return nil
	}
	return rules[c]
}

// String is the code's kebab-case name ("" for the zero Code).
func (c Code) String() string {
	if r := c.Rule(); r != nil {
		return r.Name
	}
	return ""
}

// MarshalText writes the kebab-case name, so JSON output shows it.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a kebab-case name.
func (c *Code) UnmarshalText(b []byte) error {
	code, ok := ParseCode(string(b))
	if !ok {
		return fmt.Errorf("unknown diagnostic code %q", b)
	}
	*c = code
	return nil
}

// ParseCode finds a code by its kebab-case name, as users write it in
// configuration and suppression comments.
func ParseCode(name string) (Code, bool) {
	c, ok := byName[name]
	return c, ok
}

// DocURL links to the code's entry in docs/diagnostics.md.
func (c Code) DocURL() string { return DocsURL + "#" + c.String() }
