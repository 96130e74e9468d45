package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/charter-lsp/charter-lsp/lsp"
)

// runServe speaks LSP over stdin/stdout. stdout carries only the protocol:
// logs go to stderr or --log-file.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("stdio", true, "speak LSP over stdin/stdout (the only transport; accepted for editors that pass it)")
	logFile := fs.String("log-file", "", "write logs to this file instead of stderr")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "charter-lsp serve: unexpected arguments %q\n", fs.Args())
		return 2
	}

	logger, closeLog, err := newLogger(*logFile, *logLevel, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "charter-lsp serve: %v\n", err)
		return 2
	}
	defer closeLog()

	// Anything printed by accident must not corrupt the protocol stream.
	if stdout == os.Stdout {
		os.Stdout = os.Stderr
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := lsp.New(lsp.Options{Logger: logger, Version: version})
	logger.Info("charter-lsp serving on stdio", zap.String("version", version))
	code := srv.Serve(ctx, stdio{in: os.Stdin, out: stdout})
	logger.Info("charter-lsp exiting", zap.Int("code", code))
	return code
}

// newLogger builds a zap logger writing to path (or w when path is empty).
func newLogger(path, level string, w io.Writer) (*zap.Logger, func(), error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, nil, fmt.Errorf("--log-level: %v", err)
	}
	out := zapcore.AddSync(w)
	closeFn := func() {}
	if path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %v", err)
		}
		out = zapcore.AddSync(f)
		closeFn = func() { _ = f.Close() }
	}
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	core := zapcore.NewCore(enc, zapcore.Lock(out), lvl)
	logger := zap.New(core)
	return logger, func() { _ = logger.Sync(); closeFn() }, nil
}

// stdio joins stdin and stdout into the connection the protocol runs on.
type stdio struct {
	in  io.ReadCloser
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdio) Close() error                { return s.in.Close() }
