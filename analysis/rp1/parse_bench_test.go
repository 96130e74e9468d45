package rp1

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkParseCheckLarge parses and checks a 1 MB charter (the finished
// upstream charter 150 times over): the cost of one keystroke in a huge file.
func BenchmarkParseCheckLarge(b *testing.B) {
	src, err := os.ReadFile("testdata/rp1-real.md")
	if err != nil {
		b.Fatal(err)
	}
	big := []byte(strings.Repeat(string(src), 150))
	b.SetBytes(int64(len(big)))
	for b.Loop() {
		Check(Parse(big), Options{RP1Style: true})
	}
}

// BenchmarkCheckBigBrainDump checks a scratch pad whose Brain Dump and
// scope answer are about 800 KB each: what the answers say about each
// section (QA) is read on every check.
func BenchmarkCheckBigBrainDump(b *testing.B) {
	line := "The problem: on-call engineers lose ten minutes searching wikis, and half are stale. " +
		"The users are on-call engineers and team leads. Unlike wikis it saves time.\n"
	dump := "We are calling it Runbook Radar.\n" + strings.Repeat(line, 5000)
	src := []byte("# Project Charter: [To Be Determined]\n\n**Version**: 1.0.0\n\n## Scratch Pad\n\n" +
		"### Q1: Brain Dump\n**Asked**: ?\n**Answer**: " + dump + "\n\n### Q2: Scope\n**Asked**: ?\n**Answer**: " + dump +
		"\n<!-- End scratch pad -->\n")
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Check(Parse(src), Options{RP1Style: true})
	}
}
