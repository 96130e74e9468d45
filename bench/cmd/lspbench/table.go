package main

import (
	"fmt"
	"io"
	"strings"
)

type row struct {
	target, goal, measured, peer string
	value, limit                 float64
	ok                           bool
}

type table struct {
	title string
	rows  []row
}

// add records a row; limit is the value the measurement must not exceed.
func (t *table) add(target, goal, measured string, limit float64, peer string) {
	var v float64
	fmt.Sscanf(measured, "%g", &v)
	t.rows = append(t.rows, row{target: target, goal: goal, measured: measured, peer: peer, value: v, limit: limit, ok: v <= limit})
}

func (t *table) print(w io.Writer) {
	fmt.Fprintln(w, t.title)
	head := []string{"target", "goal", "measured", "ok", "peers (same run)"}
	cells := [][]string{head}
	for _, r := range t.rows {
		ok := "yes"
		if !r.ok || r.value > r.limit {
			ok = "NO"
		}
		cells = append(cells, []string{r.target, r.goal, r.measured, ok, r.peer})
	}
	width := make([]int, len(head))
	for _, c := range cells {
		for i, s := range c {
			width[i] = max(width[i], len([]rune(s)))
		}
	}
	for n, c := range cells {
		var b strings.Builder
		for i, s := range c {
			b.WriteString("| " + s + strings.Repeat(" ", width[i]-len([]rune(s))) + " ")
		}
		fmt.Fprintln(w, b.String()+"|")
		if n == 0 {
			var sep strings.Builder
			for _, wd := range width {
				sep.WriteString("|" + strings.Repeat("-", wd+2))
			}
			fmt.Fprintln(w, sep.String()+"|")
		}
	}
}
