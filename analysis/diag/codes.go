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
	// rp1 skeleton charters (FORMATS.md §3, RPS001–RPS008).
	RegionHeadingVariant
	StatusNoncanonical
	StatusMismatch
	PlaceholderVariant
	MixedPlaceholder
	DuplicateRegion
	LegacyScratchPad
	LegacySections
	FinalizerJSON
	GenerationConflict
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
	CriteriaScaffold
	FreshSinceLoose
	StaleEvidence
	FreshnessUnknown
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
	UnusedDisableComment

	// pi-charter .charters/<id>/ charters (analysis/charterfile).
	ObjectiveMissing
	ObjectiveEmpty
	CriteriaSectionMissing
	PhasesSectionMissing
	CriterionPassEmptyNote
	CriterionStatusUnknown
	CriterionStatusMissing
	CriterionStatusDuplicate
	CriterionStatusAndEvidence
	CriterionDuplicateID
	DependsUnknown
	DependsSelf
	DependsCycle
	CriterionHeadingNearMiss
	CriterionLabelVariant
	CriterionLineCRLF
	DependsToken
	NoteContinuation
	CriterionOutsideCriteria
	LegacyEvidenceLine
	DuplicateObjective
	PhaseSuffixVariant
	PhaseItemShape
	NotesInObjective
	PhaseBodyBreak
	ObjectiveHeadingShape
	ReservedHeadingInFence
	DuplicateSection
	InertGrammar
	StateInvalid
	CharterIDShape
	EventsLineInvalid
	GenerationMismatch
	AnalysisCapped
	codeCount
)

// Rule describes one diagnostic code. The catalogue below is the only list of
// codes: checks, configuration validation, docs and SARIF output all read it.
type Rule struct {
	Code     Code
	Name     string   // the kebab-case name users see, configure and suppress
	Severity Severity // default severity
	Family   string   // rp1, scratchpad, criteria, verifier, evidence, report, charter, charters, charters-sidecar, config
	Summary  string   // one line: what triggers it
	Upstream bool     // one of pi-charter's own parse-warning reasons
}

// Rules is the catalogue, grouped by family.
var Rules = []Rule{
	// rp1 charter sections.
	{SectionMissing, "section-missing", SeverityWarning, "rp1", "A required charter section (## or ### heading) is missing.", false},
	{SectionEmpty, "section-empty", SeverityWarning, "rp1", "A required charter section has a heading but no content, or only a placeholder such as _TBD_.", false},
	{SectionPartial, "section-partial", SeverityHint, "rp1", "A required section holds a placeholder marker (TBD, TODO:, [To Be Determined], <placeholder>) beside its text, or fewer than two sentences: thin, not a gap (a hint an UPDATE interview can follow up on).", false},
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

	// rp1 skeleton charters (rp1 PR #436 on; FORMATS.md §2.5 and §3, RPS001–RPS008).
	{RegionHeadingVariant, "region-heading-variant", SeverityWarning, "skeleton", "A heading meant for a required region that rp1 does not find (### Will Do, ### Won’t, ## Vision Statement, a wrong level), so the region is a gap.", false},
	{StatusNoncanonical, "status-noncanonical", SeverityWarning, "skeleton", "**Status** is not Draft or Complete on a line of its own (Final, Active, {Draft | Complete}, a pipe-joined header line, or none); rp1 rewrites it.", false},
	{StatusMismatch, "status-mismatch", SeverityWarning, "skeleton", "**Status** disagrees with the gaps (Complete with a gap, Draft without one); rp1 rewrites it on its next run.", false},
	{PlaceholderVariant, "placeholder-variant", SeverityWarning, "skeleton", "A required region holds only a placeholder rp1 does not recognise (TBD, *TBD*, * _TBD_, {One-sentence vision}), so it counts as written: Complete from nothing.", false},
	{MixedPlaceholder, "mixed-placeholder", SeverityInformation, "skeleton", "_TBD_ beside text in a required region: not a gap for rp1, but unfinished.", false},
	{DuplicateRegion, "duplicate-region", SeverityWarning, "skeleton", "A required region's heading appears twice; rp1 reads only the first, so what the second holds counts for nothing.", false},
	{LegacyScratchPad, "legacy-scratch-pad", SeverityWarning, "skeleton", "A skeleton charter holds a ## Scratch Pad, whose answers rp1 no longer reads: the interview starts over.", false},
	{LegacySections, "legacy-sections", SeverityHint, "skeleton", "A scratch-pad era section name (## Value Proposition, ## Scope with In/Out lists) where the skeleton has another; rename or split it.", false},
	{FinalizerJSON, "finalizer-json", SeverityError, "skeleton", "A charter finalizer's answer breaks rp1's contract: not one raw JSON object, keys out of order or extra, a wrong status, artifact or gaps.", false},
	{GenerationConflict, "generation-conflict", SeverityInformation, "skeleton", "The charter holds evidence of both rp1 generations (a scratch-pad era **Version** line beside the skeleton's regions, or a scratch-pad interview under way beside ## Vision); it is read as the deciding evidence says, and this says why.", false},

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
	{CriteriaScaffold, "criteria-scaffold", SeverityWarning, "criteria", "criteria.md is still upstream's scaffold (one VAL heading, VAL-EXAMPLE), so upstream ignores it and reads charter.md's ## Criteria instead.", false},
	{FreshSinceLoose, "fresh-since-loose", SeverityWarning, "criteria", "A FreshSince: date that Node accepts only by its lenient legacy rules (2026-11-1, Nov 2026) or that rolls over (2026-02-30); it is valid, but may not mean what was meant.", false},

	// Evidence and sidecars.
	{StaleEvidence, "stale-evidence", SeverityWarning, "evidence", "A fresh-required VAL's passing evidence predates the newest source change.", false},
	{FreshnessUnknown, "freshness-unknown", SeverityInformation, "evidence", "The git history cannot date the last source change — a shallow clone's ends before it, or reading it timed out, went over budget or failed — so whether fresh-required passes are stale cannot be told (said once per charter, never as fresh).", false},
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
	{AnalysisCapped, "analysis-capped", SeverityWarning, "config", "Part of the file is past what the analysis reads, so that a file of any shape costs the same per byte: block quotes and lists nested more than 16 deep on one line (the deeper markers are read as text), more than 100 placeholder markers in one section (100 of them are listed), more than 1000 diagnostics of one code in one file (the first 1000 are reported).", false},
	{FileNotRegular, "file-not-regular", SeverityError, "config", "A FIFO, device node, socket or folder stands where a charter file or the configuration file is expected; it is skipped, never opened for reading.", false},
	{ConfigInvalid, "config-invalid", SeverityError, "config", "The charter-lsp configuration file cannot be read.", false},
	{UnknownDisableCode, "unknown-disable-code", SeverityWarning, "config", "An inline charter-lsp-disable comment names a code that does not exist.", false},
	{UnusedDisableComment, "unused-disable-comment", SeverityInformation, "config", "An inline charter-lsp-disable comment that suppresses no diagnostic: what it silenced is gone, or it names another code or line.", false},

	// pi-charter .charters/<id>/charter.md: upstream's own warnings, then
	// what upstream reads silently (FORMATS.md §2.1-§2.4, §3).
	{ObjectiveMissing, "objective-missing", SeverityWarning, "charters", "No Objective heading of the generation's level (## Objective for file-interface charters, # Objective since ADR-0016).", true},
	{ObjectiveEmpty, "objective-empty", SeverityWarning, "charters", "The Objective heading has no text under it.", true},
	{CriteriaSectionMissing, "criteria-section-missing", SeverityWarning, "charters", "A file-interface charter without a ## Criteria heading.", true},
	{PhasesSectionMissing, "phases-section-missing", SeverityWarning, "charters", "ADR-0016/0017's warning for a charter without a ## Phases heading; charter-lsp reads such a charter as today's pi-charter does (Objective only), so checks do not report it.", true},
	{CriterionPassEmptyNote, "criterion-pass-empty-note", SeverityWarning, "charters", "A criterion's Status (or Evidence) is pass with no note saying what was observed; upstream will not complete the charter.", true},
	{CriterionStatusUnknown, "criterion-status-unknown", SeverityWarning, "charters", "A Status or Evidence value that does not start with a known token; upstream reads it as pending (none), the text as the note.", true},
	{CriterionStatusMissing, "criterion-status-missing", SeverityWarning, "charters", "A criterion without a Status line (Evidence line before ADR-0015); upstream reads it as pending (none).", true},
	{CriterionStatusDuplicate, "criterion-status-duplicate", SeverityWarning, "charters", "A second Status line in a criterion; upstream keeps the first.", true},
	{CriterionStatusAndEvidence, "criterion-status-and-evidence", SeverityWarning, "charters", "A criterion with both a Status and a legacy Evidence line; the Status line wins.", true},
	{CriterionDuplicateID, "criterion-duplicate-id", SeverityWarning, "charters", "Two criteria share an id; upstream ignores the later one.", true},
	{DependsUnknown, "depends-unknown", SeverityWarning, "charters", "A Depends: id that no criterion has.", true},
	{DependsSelf, "depends-self", SeverityWarning, "charters", "A criterion that depends on itself.", true},
	{DependsCycle, "depends-cycle", SeverityWarning, "charters", "Criteria whose Depends: lines form a cycle (upstream reports the first one).", true},
	{CriterionHeadingNearMiss, "criterion-heading-near-miss", SeverityWarning, "charters", "A heading that looks like a criterion but does not match ### C<n>. Title, so upstream does not see it and its Status line is lost.", false},
	{CriterionLabelVariant, "criterion-label-variant", SeverityWarning, "charters", "A Status, Evidence or Depends line written as a bullet, in bold, indented or with a space before the colon; upstream reads it as prose.", false},
	{CriterionLineCRLF, "criterion-line-crlf", SeverityError, "charters", "A Status, Evidence or Depends line that ends in CR (a CRLF file): upstream splits on LF only, so the line does not match and its value is lost.", false},
	{DependsToken, "depends-token", SeverityWarning, "charters", "A Depends: word that is not a criterion id (none, and, c1); upstream reads each word as an unknown id.", false},
	{NoteContinuation, "note-continuation", SeverityInformation, "charters", "A line that continues a Status note, which upstream reads as body (ADR-0015), or a Depends: line after Evidence:, which joins the note and is lost (ADR-0014).", false},
	{CriterionOutsideCriteria, "criterion-outside-criteria", SeverityInformation, "charters", "A ### C<n>. heading before ## Criteria or inside a code fence, which upstream still counts as a live criterion.", false},
	{LegacyEvidenceLine, "legacy-evidence-line", SeverityHint, "charters", "An Evidence: line in a charter that uses Status: lines; upstream reads it as a legacy alias.", false},
	{DuplicateObjective, "duplicate-objective", SeverityWarning, "charters", "A second Objective heading: ADR-0014 keeps the last, later parsers the first; the other is read as something else.", false},
	{PhaseSuffixVariant, "phase-suffix-variant", SeverityWarning, "charters", "A phase status suffix upstream does not read (hyphen or en dash, no space before the dash, an unknown status); it stays in the title and the status is inferred.", false},
	{PhaseItemShape, "phase-item-shape", SeverityWarning, "charters", "A line in ## Phases that looks like a phase but is not a column-0 \"N. Title\" item, so upstream ignores it or folds it into a body.", false},
	{NotesInObjective, "notes-in-objective", SeverityWarning, "charters", "## Notes under # Objective in a phases charter (ADR-0016/0017): upstream reads the notes as part of the Objective.", false},
	{PhaseBodyBreak, "phase-body-break", SeverityInformation, "charters", "An unindented line inside a phase body: upstream ends the body there and drops the indented lines after it.", false},
	{ObjectiveHeadingShape, "objective-heading-shape", SeverityError, "charters", "An Objective heading upstream will not find (wrong level, a colon, a closing #, setext, indented, a BOM); upstream reports the Objective missing.", false},
	{ReservedHeadingInFence, "reserved-heading-in-fence", SeverityWarning, "charters", "A line inside a code fence that upstream reads as a heading (no pi parser knows fences): it ends a section or a criterion early.", false},
	{DuplicateSection, "duplicate-section", SeverityWarning, "charters", "A second ## References, ## Scope or ## Phases heading; upstream reads only the first.", false},
	{InertGrammar, "inert-grammar", SeverityHint, "charters", "Criteria or phases in a charter whose generation no longer reads them (ADR-0018 shows them as notes).", false},

	// pi-charter .charters/<id>/ state.json and events.jsonl.
	{StateInvalid, "state-invalid", SeverityError, "charters-sidecar", "state.json is missing or breaks upstream's rules (charterId, objective, status, schemaVersion): the charter disappears from upstream's list.", false},
	{CharterIDShape, "charter-id-shape", SeverityWarning, "charters-sidecar", "The charter folder is not named <YYYYMMDD-HHMMSS>-<slug>, or state.json's charterId differs from it: upstream lists the charter but cannot address it by id.", false},
	{EventsLineInvalid, "events-line-invalid", SeverityWarning, "charters-sidecar", "A line of events.jsonl that is not JSON: upstream then reads the whole history as empty.", false},
	{GenerationMismatch, "generation-mismatch", SeverityWarning, "charters-sidecar", "The folder's evidence of its generation disagrees: charter.md in a grammar state.json's schemaVersion does not read, Status: lines under a state written by ADR-0014, or state.json and events.jsonl written by different generations.", false},
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
