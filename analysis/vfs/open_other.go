//go:build !unix

package vfs

import "os"

// readFlags open a file for reading (see the unix version; other systems
// have no FIFOs to block on in a plain open).
const readFlags = os.O_RDONLY
