package analysis

import "github.com/charter-lsp/charter-lsp/analysis/vfs"

// MaxFileSize is the largest file analysed; larger ones get file-too-large.
// The limit is enforced where files are read (vfs), so it holds for every
// file any feature reads, not only for the one being checked.
const MaxFileSize = vfs.MaxFileSize
