package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/charter-lsp/charter-lsp/interview/agent"
	"github.com/charter-lsp/charter-lsp/lsp"
)

// runServe speaks LSP over stdin/stdout. stdout carries only the protocol:
// logs go to stderr or --log-file.
func runServe(e *env, args []string) int { return serve(e, args, "serve") }

// serve is runServe under the name the user typed: "serve", or "" for
// flags given without a command (`charter-lsp --stdio`, as some editors
// launch it), so an unknown flag there reads "charter-lsp: unknown flag".
func serve(e *env, args []string, name string) int {
	fl := newFlags(name, "[--log-file FILE] [--log-level LEVEL]",
		`Speaks the Language Server Protocol over stdin and stdout; editors launch this (also as plain
`+"`charter-lsp`"+` with stdin a pipe). Logs go to stderr or --log-file, never to stdout.`, e)
	fl.Bool("stdio", true, "speak LSP over stdin/stdout (the only transport; accepted for editors that pass it)")
	logFile := fl.String("log-file", "", "write logs to `file` instead of stderr")
	logLevel := newChoice("info", "debug", "info", "warn", "error")
	fl.Var(logLevel, "log-level", "log `level`: debug, info, warn or error")
	rest, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return fl.usageError("unexpected argument %q (serve takes flags only)", rest[0])
	}
	stderr := e.stderr

	logger, closeLog, err := newLogger(*logFile, logLevel.value, stderr)
	if err != nil {
		return fl.usageError("%v", err)
	}
	defer closeLog()

	// Anything printed by accident must not corrupt the protocol stream.
	if e.stdout == os.Stdout {
		os.Stdout = os.Stderr
	}
	in, ok := e.stdin.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(e.stdin)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The interview agent the user named in the server's environment
	// (editors may name one in initializationOptions instead).
	agentCfg, err := agent.FromEnv(nil)
	if err != nil {
		logger.Warn("interview agent", zap.Error(err))
	}
	defer serverGC()()
	srv := lsp.New(lsp.Options{Logger: logger, Version: version, Agent: agentCfg})
	logger.Info("charter-lsp serving on stdio", zap.String("version", version))
	code = srv.Serve(ctx, stdio{in: in, out: e.stdout})
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
