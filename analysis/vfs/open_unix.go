//go:build unix

package vfs

import (
	"io/fs"
	"os"
	"syscall"
)

// openRegular opens name for reading if it is a regular file. It looks
// before it opens, so a device node is never opened at all (opening one can
// have effects of its own), and it opens non-blocking and without taking a
// controlling terminal, so a file swapped for a FIFO in between cannot make
// the open or a read wait. ReadFile checks the opened descriptor again.
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
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
