package main

import (
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal and returns its terminal side (what
// a program sees as a tty) and the controlling side, to read what the
// program wrote.
func openTerminal(t *testing.T) (tty, control *os.File) {
	t.Helper()
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	control = os.NewFile(uintptr(fd), "/dev/ptmx")
	t.Cleanup(func() { control.Close() })
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skip("unlockpt:", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skip("ptsname:", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip("open pts:", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty, control
}
