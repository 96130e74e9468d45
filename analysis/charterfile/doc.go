// Package charterfile reads pi-charter's charters since ADR-0014:
// .charters/<YYYYMMDD-HHMMSS-slug>/ with one charter.md, state.json and
// events.jsonl (FORMATS.md §1, §2.0–§2.4). It is named after upstream's
// src/domain/charter-file.ts, whose four versions it follows:
//
//	FI14  file interface, Evidence: lines     charter-file.ts@11ebdca7  ParseFI14
//	FI15  file interface, Status: lines       charter-file.ts@494a765e  ParseFI15
//	PH    # Objective and ## Phases           charter-file.ts@72dd53d8  ParsePhases
//	OBJ   # Objective only (current)          charter-file.ts@a7780831  ParseObjective
//
// Each parser reads the file exactly as upstream's does: HTML comments
// replaced by their newlines, lines split on LF only (a CRLF line keeps its
// CR), upstream's regexes with JavaScript semantics (regex.go, jstext.go),
// the same first- or last-wins rules, and upstream's warnings with their
// text. Spans are byte offsets into the file as given.
//
// Decide chooses the generation (era.go) from all the folder holds: the
// text, state.json's schemaVersion and snapshot shape, the journal's field
// names; the result (Era) says which, why, and what would change it.
// LoadDir reads a folder (state.json with the loader's validity rules,
// events.jsonl as readEvents reads it), Check reports every file's
// diagnostics, CheckCharter one charter.md's. A diagnostic whose repair is
// one obvious edit carries it as a diag.Fix.
//
// The codes of FORMATS.md §3 are, in our names:
//
//	PCF001 criterion-heading-near-miss   PCP001 phase-suffix-variant
//	PCF002 criterion-label-variant       PCP002 phase-item-shape
//	PCF003 criterion-status-unknown      PCP003 notes-in-objective
//	PCF004 note-continuation             PCP004 phase-body-break
//	PCF005 criterion-line-crlf           PCO001 objective-heading-shape
//	PCF006 depends-token                 PCO002 reserved-heading-in-fence
//	PCF007 criterion-outside-criteria    PCO003 duplicate-section
//	PCF008 legacy-evidence-line          PCO004 inert-grammar
//	PCF009 duplicate-objective           PCS001 state-invalid
//	                                     PCS002 charter-id-shape
//	                                     PCS003 events-line-invalid
//	                                     PCS004 generation-mismatch
//
// and upstream's own warnings: objective-missing, objective-empty,
// criteria-section-missing, phases-section-missing,
// criterion-pass-empty-note, criterion-status-unknown (with the nearest
// token offered), criterion-status-missing, criterion-status-duplicate,
// criterion-status-and-evidence, criterion-duplicate-id, depends-unknown,
// depends-self, depends-cycle.
package charterfile
