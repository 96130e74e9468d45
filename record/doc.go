// Package record records evidence for pi-charter VALs the way pi-charter's
// charter_record action=evidence does: one new run directory per entry,
// work/<featureId or _charter>/evidence/<stamp>/evidence.json, and an updated
// criterion-state.json holding the latest record per VAL.
//
// Plan computes the writes as plain file operations (the language server
// turns them into a WorkspaceEdit); Apply performs them under an exclusive
// lock on the charter directory. Neither ever touches charter.md or
// criteria.md, and every path they produce is checked to stay inside the
// charter directory, whatever the ids or summaries contain.
package record
