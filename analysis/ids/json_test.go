package ids

import (
	"runtime"
	"strings"
	"testing"
)

// Walking a JSON document costs memory in proportion to it, however deep it
// nests: each level used to copy the path above it, so a criterion-state.json
// of 54 KB nested 9,000 deep (JSON.parse reads 10,000) allocated 833 MB
// when the editor asked for its links.
func TestDeepJSONCostsInProportion(t *testing.T) {
	walk := func(depth int) (allocated uint64, size, strs int) {
		src := []byte(`{"criteria":` + strings.Repeat(`{"a":`, depth) + `"x"` + strings.Repeat("}", depth) + "}")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		eachJSONString(src, func(s jsonString) {
			if s.at("criteria", "*", "lastEvidencePath") {
				t.Error("no string is there")
			}
			strs++
		})
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, len(src), strs
	}
	small, _, n := walk(1000)
	if n != 1002 {
		t.Fatalf("%d strings at depth 1,000, want 1,002 (the keys and the value)", n)
	}
	large, size, _ := walk(8000)
	if large > 16*small {
		t.Errorf("%d KB allocated at depth 1,000, %d KB at 8,000: more than in proportion", small>>10, large>>10)
	}
	if large > uint64(1024*size) {
		t.Errorf("%d MB allocated to walk %d KB of JSON", large>>20, size>>10)
	}
}
