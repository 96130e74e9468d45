package main

import "runtime/debug"

// version is the version every output names (--version, SARIF's driver,
// the server's serverInfo): what the Makefile stamps with -ldflags "-X
// main.version=…" (git describe), else what the Go toolchain recorded in
// the binary (buildVersion).
var version string

func init() { version = buildVersion(version, debug.ReadBuildInfo) }

// buildVersion is stamped when the build stamped one; else the module's
// version for `go install …@v1.2.3`; else, for a build from a clone, "dev-"
// and the commit (with "-dirty" for uncommitted changes), as the toolchain
// records them; else "dev".
func buildVersion(stamped string, read func() (*debug.BuildInfo, bool)) string {
	if stamped != "" {
		return stamped
	}
	bi, ok := read()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	v := "dev-" + rev[:min(len(rev), 12)]
	if dirty {
		v += "-dirty"
	}
	return v
}
