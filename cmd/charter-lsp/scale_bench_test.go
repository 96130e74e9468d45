package main

import (
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// BenchmarkCheckMonorepo is `charter-lsp check .` in a monorepo of
// CHARTER_BENCH_PACKAGES packages (default 200), each with a pi charter, a
// .charters/ charter and an rp1 charter (bench/gen.Monorepo): what the
// profiles of docs/performance.md's scale section were taken on.
func BenchmarkCheckMonorepo(b *testing.B) {
	n := 200
	if s := os.Getenv("CHARTER_BENCH_PACKAGES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	root := os.Getenv("CHARTER_BENCH_MONOREPO") // an existing tree, to keep it warm
	if root == "" {
		root = b.TempDir()
		if err := (gen.Monorepo{Packages: n}).Write(root); err != nil {
			b.Fatal(err)
		}
	}
	b.Chdir(root)
	b.ResetTimer()
	for b.Loop() {
		if code := run([]string{"check", "."}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("check exited %d", code)
		}
	}
}

// BenchmarkCheckHistory is `charter-lsp check .` in a project whose one pi
// charter has CHARTER_BENCH_RUNS evidence runs (default 10,000) on the
// realistic 100-VAL register (gen.History, what lspbench's history and
// curve sections write): one charter folder, so nothing is released before its check
// ends. CHARTER_BENCH_HISTORY names a folder to keep the tree warm in; it
// is written there when missing.
func BenchmarkCheckHistory(b *testing.B) {
	n := 10_000
	if s := os.Getenv("CHARTER_BENCH_RUNS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	root, kept := os.Getenv("CHARTER_BENCH_HISTORY"), true
	if root == "" {
		root, kept = b.TempDir(), false
	}
	if _, err := os.Stat(root); err != nil || !kept {
		if _, err := gen.History(n).Write(root); err != nil {
			b.Fatal(err)
		}
	}
	b.Chdir(root)
	b.ResetTimer()
	for b.Loop() {
		if code := run([]string{"check", "."}, nil, io.Discard, io.Discard); code > 1 {
			b.Fatalf("check exited %d", code)
		}
	}
}
