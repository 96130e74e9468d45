//go:build race

package hostile

// raceEnabled: this binary was built with -race, which disables sync.Pool
// (every regular expression match and every fmt call then allocates anew).
const raceEnabled = true
