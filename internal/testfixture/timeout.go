package testfixture

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// ScaleEnv names the environment variable that replaces the computed
// timeout scale: CHARTER_TEST_TIMEOUT_SCALE=3 triples every base timeout,
// whatever the build and the machine.
const ScaleEnv = "CHARTER_TEST_TIMEOUT_SCALE"

// Timeout scales d, how long a test may wait for something that takes a
// moment on a quick machine (a publish, an answer, a process exit), to the
// build and machine it runs on: ×5 under the race detector (it makes this
// code 5-9× slower: the 10 MB hostile document, say), ×2 on fewer than four
// CPUs (a 2-core machine runs two test binaries at once and the race
// runtime's own goroutines), or the value of CHARTER_TEST_TIMEOUT_SCALE
// instead of both. A wait that runs out has found a hang, not a slow
// machine, so the base is generous and the scaled value large; timings
// themselves belong in benchmarks.
//
//	ctx, cancel := context.WithTimeout(ctx, testfixture.Timeout(10*time.Second))
func Timeout(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Scale())
}

// Scale is the factor Timeout multiplies by.
func Scale() float64 {
	scaleOnce.Do(func() { scale = computeScale(os.Getenv(ScaleEnv), Race, runtime.NumCPU()) })
	return scale
}

var (
	scaleOnce sync.Once
	scale     float64
)

func computeScale(env string, race bool, cpus int) float64 {
	if env != "" {
		f, err := strconv.ParseFloat(env, 64)
		if err != nil || !(f > 0) {
			// Fail loudly: a mistyped override must not silently leave
			// the tests on a scale the user did not ask for.
			panic(fmt.Sprintf("%s=%q: want a positive number such as 2 or 0.5", ScaleEnv, env))
		}
		return f
	}
	f := 1.0
	if race {
		f *= 5
	}
	if cpus < 4 {
		f *= 2
	}
	return f
}

// LongEnv names the environment variable that runs the long tests.
const LongEnv = "CHARTER_TEST_LONG"

// Long skips a test that stresses size rather than behaviour (a 10 MB
// document, a 17 MB refusal) unless CHARTER_TEST_LONG=1, which make
// test-long sets: under the race detector such a test takes a minute and a
// gigabyte for nothing the smaller cases do not already check for races.
func Long(t testing.TB) {
	t.Helper()
	if os.Getenv(LongEnv) != "1" {
		t.Skipf("long test: %s=1 (make test-long) runs it", LongEnv)
	}
}
