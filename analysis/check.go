package analysis

import "github.com/charter-lsp/charter-lsp/analysis/charterfile"

// MaxFileSize is the largest file analysed; larger ones get file-too-large.
// Every reader holds to it: the workspace's disk cache, the CLI's stdin, the
// .charters/ folder loader.
const MaxFileSize = charterfile.MaxFileSize
