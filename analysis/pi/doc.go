// Package pi models pi-charter charters (.pi/charters/<id>/) and reports
// their diagnostics.
//
// The markdown parsers are line-based and follow upstream pi-charter's
// grammar rule for rule (SPEC §3): a file that upstream accepts parses the
// same here. Unlike upstream they also record what upstream silently drops or
// misreads (lower-case ids, bullet or bold fields, VALs under an H1), so
// diagnostics can point at it. Every position is a source.Span of byte
// offsets into the parsed text; source.Index turns them into LSP ranges.
//
// The package never executes a Command: or ## Commands line.
package pi
