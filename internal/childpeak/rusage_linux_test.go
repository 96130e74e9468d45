package childpeak_test

import (
	"os"
	"syscall"
)

func rusageMaxrss(s *os.ProcessState) int64 { return s.SysUsage().(*syscall.Rusage).Maxrss * 1024 }
