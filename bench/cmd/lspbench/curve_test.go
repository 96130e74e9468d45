package main

import "testing"

// TestMarkCurve: a linear curve with a fixed cost and one noisy point
// passes; a quadratic one fails every row.
func TestMarkCurve(t *testing.T) {
	for _, c := range []struct {
		name  string
		walls []float64
		ok    bool
	}{
		{"linear with a fixed cost and a noisy point", []float64{1471, 1999, 5894, 11563}, true},
		{"linear", []float64{100, 250, 500, 1000}, true},
		{"quadratic", []float64{100, 625, 2500, 10000}, false},
		{"n log n", []float64{100, 283, 616, 1333}, true},
	} {
		var tb table
		var points []curvePoint
		for i, n := range []int{1000, 2500, 5000, 10000} {
			tb.add("row", "linear", "", 1e9, "")
			tb.rows[i].ok = true
			points = append(points, curvePoint{n, c.walls[i], i})
		}
		markCurve(&tb, points)
		for _, r := range tb.rows {
			if r.ok != c.ok {
				t.Errorf("%s: row ok = %v, want %v (%s)", c.name, r.ok, c.ok, r.peer)
			}
		}
	}
}
