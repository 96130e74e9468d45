package testfixture

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestComputeScale(t *testing.T) {
	tests := []struct {
		env  string
		race bool
		cpus int
		want float64
	}{
		{"", false, 8, 1},
		{"", true, 8, 5},
		{"", false, 2, 2},
		{"", true, 2, 10},
		{"3", true, 2, 3},
		{"0.5", false, 8, 0.5},
	}
	for _, tt := range tests {
		if got := computeScale(tt.env, tt.race, tt.cpus); got != tt.want {
			t.Errorf("computeScale(%q, race=%v, cpus=%d) = %v, want %v", tt.env, tt.race, tt.cpus, got, tt.want)
		}
	}
}

func TestComputeScaleRejectsBadOverride(t *testing.T) {
	for _, env := range []string{"x", "0", "-2", "NaN"} {
		func() {
			defer func() {
				r, _ := recover().(string)
				if !strings.Contains(r, ScaleEnv) {
					t.Errorf("computeScale(%q) panicked with %q, want a message naming %s", env, r, ScaleEnv)
				}
			}()
			computeScale(env, false, 8)
		}()
	}
}

func TestTimeoutUsesScale(t *testing.T) {
	if got, want := Timeout(2*time.Second), time.Duration(2*Scale()*float64(time.Second)); got != want {
		t.Errorf("Timeout(2s) = %v, want %v", got, want)
	}
	if Race && Scale() < 5 && os.Getenv(ScaleEnv) == "" {
		t.Errorf("race build, Scale() = %v, want at least 5", Scale())
	}
}

func TestLongRunsOnlyWhenAsked(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want bool
	}{{"", false}, {"0", false}, {"1", true}} {
		t.Setenv(LongEnv, tt.env)
		ran := false
		t.Run("env="+tt.env, func(t *testing.T) {
			Long(t)
			ran = true
		})
		if ran != tt.want {
			t.Errorf("%s=%q: long test ran = %v, want %v", LongEnv, tt.env, ran, tt.want)
		}
	}
}
