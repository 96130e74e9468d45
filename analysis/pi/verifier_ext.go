package pi

import "strings"

// WeakTitleFilter goes beyond upstream's JavaScript rule: it flags a shell
// segment that selects tests by name with a runner that exits 0 when the
// name matches no test, so the verifier "passes" on zero tests. The rules,
// per runner (documented with their reasons in VERIFIERS.md):
//
//   - go test: -run or -test.run with a pattern that is not match-all
//     ("", ".", ".*", "^.*$", ".+"); packages do not help, go test prints
//     "no tests to run" and exits 0. -run '^$' together with -bench or -fuzz
//     is the idiom for "benchmarks/fuzzing only" and is not flagged. Also
//     after gotestsum's "--".
//   - cargo test: a TESTNAME positional before "--" or a filter positional
//     after "--"; --exact does not help (an exact name that matches nothing
//     still passes). --test/--bench/--bin/--example name targets, which fail
//     when missing, and are not filters.
//   - dotnet test --filter: VSTest reports "No test matches the given
//     testcase filter" and exits 0.
//   - rspec (also bundle exec rspec, bin/rspec) -e/--example/
//     --example-matches/-t/--tag: "0 examples, 0 failures" exits 0, with or
//     without spec files.
//   - phpunit (vendor/bin/phpunit, php artisan test) --filter/--group,
//     unless --fail-on-empty-test-suite.
//   - ctest -R/--tests-regex/-L/--label-regex, unless --no-tests=error.
//   - deno test --filter (upstream's rule only knows deno's title flags).
//   - mvn -Dtest=…, only with -Dsurefire.failIfNoSpecifiedTests=false or
//     -DfailIfNoTests=false (Surefire fails on no match by default).
//
// Not flagged, because the runner fails when nothing matches: pytest -k
// (exit 5, "no tests ran"), pytest path::name (exit 4), gradle --tests
// ("No tests found for given includes"), cargo nextest (exit 4, "no tests
// to run"), mvn -Dtest without the opt-out.
func WeakTitleFilter(command string) (WeakFinding, bool) {
	cmd := strings.TrimFunc(command, isJSSpace)
	if cmd == "" {
		return WeakFinding{}, false
	}
	for _, seg := range splitShellSegments(cmd) {
		if f, ok := titleFilterSegment(seg); ok {
			f.Segment = strings.Join(seg, " ")
			return f, true
		}
	}
	return WeakFinding{}, false
}

func titleFilterSegment(tokens []string) (WeakFinding, bool) {
	tokens = tokens[skipWrappers(tokens):]
	if len(tokens) == 0 {
		return WeakFinding{}, false
	}
	at := func(i int) string {
		if i < len(tokens) {
			return tokens[i]
		}
		return ""
	}
	base := tokens[0]
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	switch {
	case base == "go" && at(1) == "test":
		return goRunFilter(tokens[2:])
	case base == "gotestsum":
		for i, t := range tokens {
			if t == "--" {
				return goRunFilter(tokens[i+1:])
			}
		}
	case base == "cargo" && at(1) == "test":
		return cargoFilter(tokens[2:])
	case base == "dotnet" && at(1) == "test":
		if flag, ok := findFlag(tokens[2:], "--filter"); ok {
			return weak("dotnet", flag, "dotnet test exits 0 when no test matches the --filter"), true
		}
	case base == "rspec" || base == "bundle" && at(1) == "exec" && at(2) == "rspec":
		if flag, ok := findFlag(tokens[1:], "-e", "--example", "--example-matches", "-t", "--tag"); ok {
			return weak("rspec", flag, "rspec reports 0 examples and exits 0 when nothing matches the filter"), true
		}
	case base == "phpunit" || base == "php" && at(1) == "artisan" && at(2) == "test":
		if _, opt := findFlag(tokens[1:], "--fail-on-empty-test-suite"); opt {
			return WeakFinding{}, false
		}
		if flag, ok := findFlag(tokens[1:], "--filter", "--group"); ok {
			return weak("phpunit", flag, "phpunit reports \"No tests executed!\" and exits 0 when nothing matches (add --fail-on-empty-test-suite)"), true
		}
	case base == "ctest":
		for _, t := range tokens[1:] {
			if t == "--no-tests=error" {
				return WeakFinding{}, false
			}
		}
		if flag, ok := findFlag(tokens[1:], "-R", "--tests-regex", "-L", "--label-regex"); ok {
			return weak("ctest", flag, "ctest exits 0 when no test matches the regex (add --no-tests=error)"), true
		}
	case base == "deno" && at(1) == "test":
		if flag, ok := findFlag(tokens[2:], "--filter"); ok {
			return weak("deno", flag, "deno test exits 0 when no test matches the --filter"), true
		}
	case base == "mvn" || base == "mvnw":
		optOut, filter := false, ""
		for _, t := range tokens[1:] {
			switch {
			case t == "-Dsurefire.failIfNoSpecifiedTests=false" || t == "-DfailIfNoTests=false" || t == "-Dsurefire.failIfNoTests=false":
				optOut = true
			case strings.HasPrefix(t, "-Dtest="):
				filter = "-Dtest"
			}
		}
		if optOut && filter != "" {
			return weak("mvn", filter, "with failIfNoSpecifiedTests=false Maven passes when -Dtest matches nothing"), true
		}
	}
	return WeakFinding{}, false
}

func weak(runner, flag, why string) WeakFinding {
	return WeakFinding{Runner: runner, TitleFlag: flag,
		Reason: "the command selects tests by name (" + flag + "); " + why + ", so the verifier can pass without running a test"}
}

// skipWrappers skips NAME=value prefixes and env/sudo/time/command wrappers.
func skipWrappers(tokens []string) int {
	i := 0
	for i < len(tokens) {
		switch t := tokens[i]; {
		case isAssignment(t):
			i++
		case t == "env" || t == "sudo" || t == "time" || t == "command" || t == "exec":
			i++
			for i < len(tokens) && strings.HasPrefix(tokens[i], "-") {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// findFlag reports the first of flags present in tokens (also as flag=value).
func findFlag(tokens []string, flags ...string) (string, bool) {
	for _, t := range tokens {
		if t == "--" {
			break
		}
		f, _ := splitFlag(t)
		for _, want := range flags {
			if f == want {
				return want, true
			}
		}
	}
	return "", false
}

func goRunFilter(args []string) (WeakFinding, bool) {
	pattern, flag, found, benchOrFuzz := "", "", false, false
	for i := 0; i < len(args) && args[i] != "-args"; i++ { // after -args: the test binary's
		f, hasEq := splitFlag(args[i])
		name := strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-")
		switch name {
		case "run", "test.run":
			found, flag = true, f
			if hasEq {
				pattern = args[i][len(f)+1:]
			} else if i+1 < len(args) {
				i++
				pattern = args[i]
			}
		case "bench", "test.bench", "fuzz", "test.fuzz":
			benchOrFuzz = true
		}
	}
	if !found {
		return WeakFinding{}, false
	}
	switch pattern {
	case "", ".", ".*", "^.*$", ".+":
		return WeakFinding{}, false
	case "^$":
		if benchOrFuzz {
			return WeakFinding{}, false
		}
	}
	return weak("go", flag, "go test prints \"no tests to run\" and exits 0 when the pattern matches nothing"), true
}

// cargoValueFlags are cargo test options that take a value (so the value is
// not a TESTNAME); libtestValueFlags the same after "--".
var (
	cargoValueFlags = map[string]bool{"-p": true, "--package": true, "--test": true, "--bench": true, "--bin": true,
		"--example": true, "--features": true, "-F": true, "--target": true, "--manifest-path": true, "-j": true,
		"--jobs": true, "--profile": true, "--color": true, "--message-format": true, "--target-dir": true,
		"-Z": true, "--config": true, "--exclude": true}
	libtestValueFlags = map[string]bool{"--skip": true, "--test-threads": true, "--format": true, "--logfile": true,
		"--color": true, "-Z": true, "--shuffle-seed": true}
)

func cargoFilter(args []string) (WeakFinding, bool) {
	flags := cargoValueFlags
	for i := 0; i < len(args); i++ {
		t := args[i]
		if t == "--" {
			flags = libtestValueFlags
			continue
		}
		f, hasEq := splitFlag(t)
		if f != "" {
			if flags[f] && !hasEq {
				i++
			}
			continue
		}
		return weak("cargo", t, "cargo test runs 0 tests and exits 0 when the name filter matches nothing"), true
	}
	return WeakFinding{}, false
}
