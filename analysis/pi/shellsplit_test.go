package pi

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// splitShellSegments splits as it did when it built every token.
func TestSplitShellSegmentsAgrees(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const alphabet = "ab '\"\t\n\r&|;x"
	inputs := []string{"", "npm test", "go test ./... && echo 'ok done'", `a"b c"d 'e'`, "'open", "x \"", "a||b&&c;d|e&f\ng\rh", "''", `""x`}
	for range 3000 {
		var b strings.Builder
		for range rng.Intn(16) {
			b.WriteByte(alphabet[rng.Intn(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for _, in := range inputs {
		if got, want := splitShellSegments(in), splitShellSegmentsRef(in); !reflect.DeepEqual(got, want) {
			t.Fatalf("splitShellSegments(%q) = %q, want %q", in, got, want)
		}
	}
}

// splitShellSegmentsRef is splitShellSegments as it was, building every
// token: the reference TestSplitShellSegmentsAgrees holds the split that
// slices unquoted tokens out of raw to. It is upstream's quote-aware split:
// quotes (no escapes) glue their content into the current token; unquoted
// spaces and tabs end a token; unquoted newlines, && || ; | and & end a
// segment.
func splitShellSegmentsRef(raw string) [][]string {
	var segments [][]string
	var current []string
	var token strings.Builder
	hasToken := false
	endToken := func() {
		if hasToken {
			current = append(current, token.String())
			token.Reset()
			hasToken = false
		}
	}
	endSegment := func() {
		endToken()
		if len(current) > 0 {
			segments = append(segments, current)
			current = nil
		}
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(raw[i+1:], c)
			if end < 0 {
				end = len(raw) - i - 1
			}
			token.WriteString(raw[i+1 : i+1+end])
			hasToken = true
			i += end + 2
		case c == '\n' || c == '\r':
			endSegment()
			i++
		case c == ' ' || c == '\t':
			endToken()
			i++
		case (c == '&' || c == '|') && i+1 < len(raw) && raw[i+1] == c:
			endSegment()
			i += 2
		case c == ';' || c == '|' || c == '&':
			endSegment()
			i++
		default:
			token.WriteByte(c)
			hasToken = true
			i++
		}
	}
	endSegment()
	return segments
}
