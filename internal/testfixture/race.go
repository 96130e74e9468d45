//go:build race

package testfixture

// Race says whether this binary was built with -race: the race detector
// slows everything several times over and disables sync.Pool, so tests
// wait longer (Timeout) and the costliest sample their inputs.
const Race = true
