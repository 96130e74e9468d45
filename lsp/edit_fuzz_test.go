package lsp

import (
	"io/fs"
)

// emptyFS is a disk with no files: documents exist only as open documents.
type emptyFS struct{}

func (emptyFS) ReadFile(string) ([]byte, error)       { return nil, fs.ErrNotExist }
func (emptyFS) Stat(string) (fs.FileInfo, error)      { return nil, fs.ErrNotExist }
func (emptyFS) ReadDir(string) ([]fs.DirEntry, error) { return nil, fs.ErrNotExist }
