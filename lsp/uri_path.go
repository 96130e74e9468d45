package lsp

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"go.lsp.dev/uri"
)

// filePath turns a document URI into an OS path. Only file: URIs naming a
// local, absolute path are served: an untitled buffer has no place in a
// charter directory, and a URI must not be able to name a file the
// workspace containment (InWorkspace, vfs.Confined) judges wrongly — a
// path relative to the server's working folder, another host's file, a
// Windows device (CON, NUL, COM1, \\.\), or an alternate data stream
// (charter.md:x), whose names say nothing of where they lead.
func filePath(u uri.URI) (string, error) {
	p, err := filePathFor(u, runtime.GOOS)
	if err != nil {
		return "", err
	}
	return filepath.Clean(p), nil
}

// filePathFor is filePath's conversion for the operating system goos, so
// the Windows forms are tested on every system; the path is not cleaned.
func filePathFor(u uri.URI, goos string) (string, error) {
	if !u.IsFile() {
		return "", fmt.Errorf("%s: only file: URIs are supported", u)
	}
	platform := uri.PlatformPOSIX
	if goos == "windows" {
		platform = uri.PlatformWindows
	}
	if a := u.Authority(); a != "" && platform == uri.PlatformPOSIX {
		return "", fmt.Errorf("%s: names the host %q; only local files are served", u, a)
	}
	p := uri.FsPathFor(u, platform, false)
	if p == "" {
		return "", fmt.Errorf("%s: no file path", u)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%s: the path holds a NUL byte", u)
	}
	if platform == uri.PlatformWindows {
		if why := windowsPathProblem(p); why != "" {
			return "", fmt.Errorf("%s: %s", u, why)
		}
		return p, nil
	}
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("%s: not an absolute path", u)
	}
	return p, nil
}

// windowsPathProblem says why the Windows path p is not served, or "": it
// must be absolute (a drive letter and a backslash, or \\host\share\), not
// in the device namespaces (\\.\, \\?\), and no component may be a device
// name (CON, PRN, AUX, NUL, COM0-9, LPT0-9, CONIN$, CONOUT$, with any
// extension), hold a colon (an alternate data stream), a character Windows
// forbids, or end in a dot or a space (Windows drops them, so the name
// would be another one's alias).
func windowsPathProblem(p string) string {
	var parts []string
	switch {
	case strings.HasPrefix(p, `\\`):
		parts = strings.Split(p[2:], `\`)
		if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
			return "not a complete UNC path (\\\\host\\share\\…)"
		}
		if parts[0] == "." || parts[0] == "?" {
			return "a path in the Windows device namespace is not a file"
		}
		if strings.ContainsAny(parts[0], `:<>"/|?*`) {
			return "not a valid host name"
		}
		parts = parts[2:]
	case len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && p[2] == '\\':
		parts = strings.Split(p[3:], `\`)
	default:
		return "not an absolute path (no drive letter)"
	}
	for _, part := range parts {
		if why := windowsNameProblem(part); why != "" {
			return fmt.Sprintf("%q %s", part, why)
		}
	}
	return ""
}

// windowsReserved are the device names Windows resolves in every folder.
var windowsReserved = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
	"COM0": true, "COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true, "COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"COM¹": true, "COM²": true, "COM³": true,
	"LPT0": true, "LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true, "LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true,
	"LPT¹": true, "LPT²": true, "LPT³": true,
}

// windowsNameProblem says why one path component is not served on
// Windows, or "".
func windowsNameProblem(name string) string {
	if name == "" || name == "." || name == ".." {
		return "" // cleaned away later; containment judges the result
	}
	for _, r := range name {
		if r < 32 || strings.ContainsRune(`:<>"|?*`, r) {
			return "holds a character Windows does not allow in a name (a colon names an alternate data stream)"
		}
	}
	if strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return "ends in a dot or a space, which Windows drops"
	}
	base, _, _ := strings.Cut(name, ".")
	if windowsReserved[strings.ToUpper(strings.TrimRight(base, " "))] {
		return "is a Windows device name, not a file"
	}
	return ""
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
