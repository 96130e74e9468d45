//go:build !race

package testfixture

// raceEnabled: this binary was built with -race.
const raceEnabled = false
