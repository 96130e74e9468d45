package feature

import (
	"fmt"
	"time"
)

// Ago renders the time between t and now the way an editor shows it:
// "just now", "5m ago", "2h ago", "3d ago" (or "in 2h" for a future time).
func Ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 0 && -d >= time.Minute:
		return "in " + Approx(-d)
	case d < time.Minute:
		return "just now"
	}
	return Approx(d) + " ago"
}

// Approx renders a duration coarsely: 5m, 2h, 3d.
func Approx(d time.Duration) string {
	switch {
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}
