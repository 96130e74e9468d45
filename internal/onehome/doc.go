// Package onehome holds the test that keeps each vocabulary listed in
// docs/architecture.md's "Where each rule lives" in its one home: the
// outcome words, the .charters status tokens and phase statuses, the
// verifier names, evidence kinds and evidence sources are spelled out in the file that defines them (and in
// the editors' files generated from it), nowhere else in the server's Go
// or the editors' TypeScript and Lua.
package onehome
