package pi

import "testing"

func TestWeakVerifierJavaScript(t *testing.T) {
	cases := []struct {
		command string
		weak    bool
	}{
		// Title filters without a file: weak.
		{"bun test -t 'rejects expired token'", true},
		{"bun test --test-name-pattern=login", true},
		{"vitest -t login", true},
		{"jest --testNamePattern 'logs in'", true},
		{"npx jest -t login", true},
		{"npx vitest run -t login", true},
		{"npx playwright test -g checkout", true},
		{"playwright test --grep checkout", true},
		{"pnpm run test -t login", true},
		{"yarn test -t login", true},
		{"npm test -- -t login", true},
		{"deno test -t login", true},
		{"node --test --test-name-pattern login", true},
		{"mocha -g login", true},
		{"CI=1 NODE_ENV=test bun test -t login", true},
		{"bun test tests/a.test.ts && bun test -t 'x'", true}, // the weak segment of a chain
		{"bun test -t 'a && b.test.ts'", true},                // quoted phrase is one token
		{"bun test --preload ./setup.ts -t login", true},      // the preload path is no file coverage
		{"vitest --config vitest.config.ts -t login", true},   // nor is the config path
		{"jest -c jest.config.js --testNamePattern x", true},  // short config flag
		{"bun test -t login; echo done", true},                // ; splits
		{"bun test -t=login | tee out.txt", true},             // pipe splits
		{"bun test -t\nbun test tests/", true},                // newline splits
		// Not weak.
		{"bun test tests/auth.test.ts -t 'rejects expired token'", false}, // file
		{"vitest src/ -t login", false},                                   // path
		{"jest -t login 'src/**/*.spec.ts'", false},                       // glob
		{"bun test auth.spec -t x", false},                                // .spec word
		{"mocha -t 5000", false},                                          // mocha -t is timeout
		{"mocha -t 5000 -g x test/a.js", false},                           // file
		{"bun test", false},                                               // no filter
		{"bun run build && bun test", false},                              // no filter
		{"go test ./... -run TestLogin", false},                           // not a JS runner (other rule)
		{"npx eslint -t x", false},                                        // not a runner
		{"echo 'bun test -t x'", false},                                   // quoted, not a command
		{"bun test --reporter junit -t x tests/x.test.ts", false},         // reporter value consumed, file present
		{"", false},
		{"bun test -t", true}, // a title flag without a value still filters
	}
	for _, c := range cases {
		f, got := WeakVerifier(c.command)
		if got != c.weak {
			t.Errorf("WeakVerifier(%q) = %v, want %v (%+v)", c.command, got, c.weak, f)
		}
	}
	if f, _ := WeakVerifier("mocha --grep x"); f.Runner != "mocha" || f.TitleFlag != "--grep" {
		t.Errorf("finding %+v", f)
	}
}

func TestWeakTitleFilter(t *testing.T) {
	cases := []struct {
		command string
		runner  string // "" = not weak
	}{
		{"go test -run TestLogin ./auth", "go"},
		{"go test ./... -run=TestLogin", "go"},
		{"GOFLAGS=-count=1 go test -test.run TestX", "go"},
		{"go test -run '^$' -bench .", ""},
		{"go test -run '^$'", "go"},
		{"go test -run . ./...", ""},
		{"go test ./auth/...", ""},
		{"go test ./... -args -run X", ""},
		{"gotestsum --format dots -- -run TestX ./...", "go"},
		{"cargo test login", "cargo"},
		{"cargo test --exact tests::login", "cargo"},
		{"cargo test -- --exact login", "cargo"},
		{"cargo test --test integration", ""},
		{"cargo test -p core --features x", ""},
		{"dotnet test --filter FullyQualifiedName~Login", "dotnet"},
		{"dotnet test", ""},
		{"bundle exec rspec spec/auth_spec.rb -e 'logs in'", "rspec"},
		{"rspec --tag focus", "rspec"},
		{"rspec spec/", ""},
		{"vendor/bin/phpunit --filter testLogin", "phpunit"},
		{"vendor/bin/phpunit --filter testLogin --fail-on-empty-test-suite", ""},
		{"ctest -R auth", "ctest"},
		{"ctest -R auth --no-tests=error", ""},
		{"deno test --filter login", "deno"},
		{"mvn test -Dtest=LoginTest", ""},
		{"mvn test -Dtest=LoginTest -Dsurefire.failIfNoSpecifiedTests=false", "mvn"},
		{"pytest -k login", ""},
		{"python -m pytest tests/test_auth.py::test_login", ""},
		{"gradle test --tests '*Login*'", ""},
		{"cargo nextest run login", ""},
		{"sudo -E env CI=1 go test -run X", "go"},
		{"make test && go test -run TestX", "go"},
	}
	for _, c := range cases {
		f, weak := WeakTitleFilter(c.command)
		if weak != (c.runner != "") || f.Runner != c.runner {
			t.Errorf("WeakTitleFilter(%q) = %v %+v, want runner %q", c.command, weak, f, c.runner)
		}
	}
}
