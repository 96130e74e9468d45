package main

import (
	"errors"
	"flag"
)

// parseFlags parses args with fs, allowing flags both before and after the
// positional arguments (`charter-lsp check examples/ --format json`), which
// the flag package alone stops at. It returns the positional arguments, or
// ok false with the exit code: 0 after -h, 2 for a bad flag (fs has already
// printed why).
func parseFlags(fs *flag.FlagSet, args []string) (positional []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0, false
			}
			return nil, 2, false
		}
		if fs.NArg() == 0 {
			return positional, 0, true
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
