package main

// conventions is docs/cli.md's table of the conventions people bring from
// other linters, what eslint, ruff, markdownlint-cli2 and golangci-lint do,
// and what charter-lsp does. It is written here, beside the flags it
// describes, and goes into the generated reference.
const conventions = `## Conventions

What people expect of a linter's command line from eslint, ruff, markdownlint-cli2 (and
markdownlint-cli) and golangci-lint, and what charter-lsp does.

| convention | peers | charter-lsp |
|---|---|---|
| project configuration, found up the tree | eslint ` + "`eslint.config.js`" + `, ruff ` + "`ruff.toml`/`pyproject.toml`" + `, markdownlint-cli2 ` + "`.markdownlint-cli2.jsonc`" + `, golangci-lint ` + "`.golangci.yml`" + ` | ` + "`.charter-lsp.jsonc`" + ` (or ` + "`.json`" + `) in the file's folder or above, up to the repository root; JSON with comments; a schema (` + "`$schema`" + `) |
| another configuration file | eslint ` + "`-c`" + `, ruff ` + "`--config`" + `, markdownlint-cli2 ` + "`--config`" + `, golangci-lint ` + "`-c`" + ` | ` + "`-c, --config FILE`" + ` (check, status) |
| write a starting configuration | eslint ` + "`npm init @eslint/config`" + ` (formerly ` + "`--init`" + `); ruff, markdownlint-cli2 and golangci-lint have none | ` + "`init`" + `: ` + "`.charter-lsp.jsonc`" + ` with every key at its default; ` + "`--charter rp1\\|charters\\|pi`" + ` also a new charter in its family's current format |
| show the configuration in force | eslint ` + "`--print-config FILE`" + `, ruff ` + "`--show-settings`" + `, golangci-lint ` + "`config path`" + `/` + "`config verify`" + ` | ` + "`check --print-config [PATH]`" + `: the file it came from, defaults filled in, flags applied, as JSON ` + "`--config`" + ` reads back |
| list and explain the rules | ruff ` + "`rule CODE`" + `, ` + "`linter`" + `; golangci-lint ` + "`linters`" + `, ` + "`help linters`" + `; eslint and markdownlint on their sites | ` + "`rules`" + ` and ` + "`explain CODE`" + ` (text or JSON, each with its docs URL), from the catalogue docs/diagnostics.md is made from |
| fix, and preview the fixes | eslint ` + "`--fix`" + `, ` + "`--fix-dry-run`" + `; ruff ` + "`--fix`" + `, ` + "`--diff`" + `; markdownlint-cli2 ` + "`--fix`" + `; golangci-lint ` + "`--fix`" + ` | ` + "`--fix`" + `; ` + "`--diff`" + ` (alias ` + "`--fix-dry-run`" + `): a unified diff, nothing written |
| safe and unsafe fixes | ruff: unsafe fixes only with ` + "`--unsafe-fixes`" + `; eslint: suggestions are never applied by ` + "`--fix`" + ` | every code's fixes classified safe or unsafe in the catalogue (` + "`rules`" + `' Fix column); ` + "`--fix`" + ` applies safe ones and counts the rest, ` + "`--unsafe-fixes`" + ` adds them; the editor never prefers an unsafe fix |
| output format | eslint ` + "`-f, --format`" + `; ruff ` + "`--output-format`" + ` (json, github, sarif, …); golangci-lint ` + "`--out-format`" + ` / ` + "`--output.*`" + `; markdownlint-cli2 formatters in its configuration | ` + "`-f, --format text\\|json\\|sarif\\|github`" + ` |
| annotations in CI | ruff ` + "`--output-format github`" + `, golangci-lint ` + "`github-actions`" + `, markdownlint-cli2 a SARIF formatter | ` + "`-f github`" + ` (workflow commands), ` + "`-f sarif`" + ` (code scanning) |
| report to a file | eslint ` + "`-o`" + `, ruff ` + "`-o`" + `, markdownlint-cli ` + "`-o`" + ` | not offered: redirect stdout (` + "`> charters.sarif`" + `); the summary goes to stderr |
| errors only | eslint ` + "`--quiet`" + `; ruff ` + "`-q`" + ` (less output); markdownlint-cli ` + "`-q`" + ` | ` + "`-q, --quiet`" + `: errors only, as eslint; warnings still count for ` + "`--max-warnings`" + ` |
| more detail | ruff ` + "`-v`" + `, golangci-lint ` + "`-v`" + ` | ` + "`-v, --verbose`" + `: which generation each file was read as, and why |
| fail on warnings | eslint ` + "`--max-warnings N`" + `; golangci-lint ` + "`--issues-exit-code`" + ` | ` + "`--max-warnings N`" + ` |
| exit status | eslint, ruff and markdownlint-cli2: 0 clean, 1 findings, 2 usage or configuration error | 0 clean, 1 an error (or too many warnings), 2 a usage or I/O error or a PATH with no charter |
| a path that matches nothing fails | eslint (` + "`--no-error-on-unmatched-pattern`" + ` turns it off) | exit 2: ` + "`docs holds no charter`" + `, and how many paths it skipped as ignored |
| stdin | eslint ` + "`--stdin --stdin-filename`" + `; ruff ` + "`-`" + ` with ` + "`--stdin-filename`" + `; markdownlint-cli ` + "`-s`" + ` | ` + "`-`" + ` as the PATH, with ` + "`--stdin-filename`" + ` |
| .gitignore respected | ruff (` + "`respect-gitignore`" + `, on by default); markdownlint-cli2 (` + "`gitignore`" + ` option); eslint only its own ignores | on: every ` + "`.gitignore`" + ` from the repository root down; ` + "`node_modules`" + `, ` + "`vendor`" + ` and VCS folders always skipped; a file named as a PATH is checked anyway |
| ignore patterns | eslint ` + "`--ignore-pattern`" + `; ruff ` + "`--exclude`" + `/` + "`--extend-exclude`" + `; markdownlint-cli ` + "`-i, --ignore`" + `; markdownlint-cli2 ` + "`#glob`" + ` arguments and ` + "`ignores`" + ` | ` + "`--ignore PATTERN`" + ` (gitignore syntax, relative to the current folder; repeatable) |
| globs as arguments | eslint ` + "`\"lib/**\"`" + `, markdownlint-cli2 ` + "`\"**/*.md\"`" + ` (quoted: the linter expands them) | a quoted PATH with ` + "`*`" + `, ` + "`?`" + ` or ` + "`**`" + ` selects the charter files it matches (` + "`'docs/**/charter.md'`" + `) |
| a rule's severity for one run | eslint ` + "`--rule 'no-x: off'`" + `; ruff ` + "`--select`" + `/` + "`--ignore`" + `; golangci-lint ` + "`-E`" + `/` + "`-D`" + `; markdownlint-cli ` + "`--enable`" + `/` + "`--disable`" + ` | ` + "`--severity CODE=LEVEL`" + ` (repeatable, comma-separated), over the configuration |
| disable comments | eslint ` + "`eslint-disable-next-line`" + `; markdownlint ` + "`<!-- markdownlint-disable -->`" + `; ruff ` + "`# noqa`" + `; golangci-lint ` + "`//nolint`" + ` | markdownlint's forms: ` + "`<!-- charter-lsp-disable-next-line CODE -->`" + `, ` + "`-disable`" + `/` + "`-enable`" + `, ` + "`-disable-line`" + `, ` + "`-disable-file`" + ` |
| unused disable comments reported | eslint ` + "`--report-unused-disable-directives`" + ` (a warning by default since v9); ruff ` + "`RUF100`" + `; golangci-lint ` + "`nolintlint`" + ` | ` + "`unused-disable-comment`" + `: information by default, with a safe fix that removes the comment; ` + "`--severity unused-disable-comment=warning`" + ` for CI |
| colour | eslint ` + "`--color`/`--no-color`" + `; golangci-lint ` + "`--color always\\|auto\\|never`" + `; ` + "`NO_COLOR`" + ` and ` + "`FORCE_COLOR`" + ` (ruff, Node's tools) | ` + "`--color auto\\|always\\|never`" + `; ` + "`auto`" + ` honours ` + "`NO_COLOR`" + ` and ` + "`FORCE_COLOR`" + ` (which wins, as in Node) |
| short flags | eslint ` + "`-c -f -o`" + `; ruff ` + "`-q -v -o -V`" + `; markdownlint-cli ` + "`-c -i -q -o`" + ` (its ` + "`-f`" + ` is ` + "`--fix`" + `); golangci-lint ` + "`-c -v -E -D`" + ` | ` + "`-f`" + ` format and ` + "`-c`" + ` config (as eslint), ` + "`-q -v -V`" + ` (as ruff), ` + "`-w`" + ` for migrate's ` + "`--write`" + ` (as gofmt), ` + "`-h`" + `; a mistyped flag is never answered with one that writes files |
| help | ` + "`-h, --help`" + ` everywhere | ` + "`-h, --help`" + ` on every command, on stdout, exit 0; ` + "`help COMMAND`" + `; this page is that help |
| version | eslint ` + "`-v`" + `; ruff ` + "`-V, --version`" + `, ` + "`version`" + `; golangci-lint ` + "`version`" + ` with the build's information | ` + "`version`" + `, and ` + "`-V, --version`" + ` on every command: the tag stamped by make, else the module version or commit Go recorded (` + "`go install`" + `); the .vsix carries the same version |
| shell completion | ruff ` + "`generate-shell-completion SHELL`" + `; golangci-lint ` + "`completion SHELL`" + ` | ` + "`completion bash\\|zsh\\|fish`" + `, generated from the flag definitions (also in docs/completion/) |
| man page | eslint, ruff, markdownlint-cli2 and golangci-lint ship none with their releases | docs/charter-lsp.1, generated from the flag definitions; in the release archives |
| cache between runs | eslint ` + "`--cache`" + `, ruff's cache, golangci-lint ` + "`cache`" + ` | none: a run reads each file once (docs/performance.md has the figures) |
`
