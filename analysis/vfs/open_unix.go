//go:build unix

package vfs

import (
	"os"
	"syscall"
)

// readFlags open a file for reading non-blocking and without taking a
// controlling terminal, so a file swapped for a FIFO after ReadFile looked
// at it cannot make the open or a read wait. ReadFile checks the opened
// descriptor again.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY
