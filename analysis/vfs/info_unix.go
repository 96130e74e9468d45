//go:build unix

package vfs

import "syscall"

func sysIdentity(sys any) (FileID, bool) {
	if st, ok := sys.(*syscall.Stat_t); ok {
		return FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true //nolint:unconvert // int32 on some systems
	}
	return FileID{}, false
}
