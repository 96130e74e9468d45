//go:build unix

package gitlog

import "syscall"

// nonBlock opens without waiting: a FIFO swapped in after the check
// cannot block the open.
const nonBlock = syscall.O_NONBLOCK | syscall.O_NOCTTY
