//go:build !unix

package vfs

import (
	"io/fs"
	"os"
)

// openRegular opens name for reading if it is a regular file (see the unix
// version; other systems have no FIFOs to block on in a plain open).
func openRegular(name string) (*os.File, error) {
	fi, err := os.Stat(name)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			pe.Op = "open" // what the caller asked for
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{Mode: fi.Mode()}}
	}
	return os.Open(name)
}
