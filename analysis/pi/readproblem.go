package pi

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// ReadProblem is the diagnostic, on path itself, for a charter or
// configuration file that could not be read: file-not-regular (a FIFO,
// device node, socket or folder, skipped without being opened for
// reading), file-too-large (nothing of it read), or file-unreadable.
func ReadProblem(path string, err error) diag.Diagnostic {
	name := filepath.Base(path)
	var d diag.Diagnostic
	var nr *vfs.NotRegularError
	size, tooLarge := vfs.IsTooLarge(err)
	switch {
	case errors.As(err, &nr):
		d = diag.New(diag.FileNotRegular, source.Span{}, "%s %s; it was skipped", name, nr.Error())
	case errors.Is(err, vfs.ErrNotRegular):
		d = diag.New(diag.FileNotRegular, source.Span{}, "%s is not a regular file; it was skipped", name)
	case tooLarge:
		d = diag.New(diag.FileTooLarge, source.Span{}, "%s is %d MB, over the %d MB analysis limit; it was not analysed", name, size>>20, vfs.MaxFileSize>>20)
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is already in the diagnostic
		}
		d = diag.New(diag.FileUnreadable, source.Span{}, "%s cannot be read: %v", name, err)
	}
	d.File = path
	return d
}
