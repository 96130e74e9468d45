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
