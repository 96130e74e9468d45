//go:build race

package main

// raceEnabled: the race detector slows everything several times over.
const raceEnabled = true
