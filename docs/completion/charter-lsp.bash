# bash completion for charter-lsp. Generated from the flag definitions by `go run ./internal/gendocs`; do not edit.
_charter_lsp() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac
  done
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W 'serve init check interview status record verify migrate rules explain completion version help -h --help -V --version' -- "$cur"))
    return
  fi
  case $cmd in
  serve)
    case $prev in
    --log-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --log-level) COMPREPLY=($(compgen -W 'debug info warn error' -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--log-file --log-level --stdio -h --help -V --version' -- "$cur"))
    fi
    ;;
  init)
    case $prev in
    --charter) COMPREPLY=($(compgen -W 'rp1 charters pi' -- "$cur")); return ;;
    --name) return ;;
    --now) return ;;
    --objective) return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--charter --name --now --objective -h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -f -- "$cur"))
    fi
    ;;
  check)
    case $prev in
    --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
    --config|-c) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --format|-f) COMPREPLY=($(compgen -W 'text json sarif github' -- "$cur")); return ;;
    --freshness) COMPREPLY=($(compgen -W 'mtime git' -- "$cur")); return ;;
    --ignore) return ;;
    --max-warnings) return ;;
    --severity) return ;;
    --stdin-filename) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--color --config -c --diff --fix-dry-run --fix --format -f --freshness --ignore --max-warnings --print-config --quiet -q --severity --stdin-filename --unsafe-fixes --verbose -v -h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -f -- "$cur"))
    fi
    ;;
  interview)
    case $prev in
    --agent) return ;;
    --agent-timeout) return ;;
    --answer) return ;;
    --budget) return ;;
    --check-answer) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --contract) COMPREPLY=($(compgen -W 'stateless finalizer' -- "$cur")); return ;;
    --mode) COMPREPLY=($(compgen -W 'CREATE UPDATE RESUME' -- "$cur")); return ;;
    --region) return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--agent --agent-timeout --answer --apply --budget --check-answer --contract --finish --mode --region -h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -f -- "$cur"))
    fi
    ;;
  status)
    case $prev in
    --config|-c) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --format|-f) COMPREPLY=($(compgen -W 'text json' -- "$cur")); return ;;
    --freshness) COMPREPLY=($(compgen -W 'mtime git' -- "$cur")); return ;;
    --now) return ;;
    --src) return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--config -c --format -f --freshness --now --src -h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -f -- "$cur"))
    fi
    ;;
  record)
    case $prev in
    --artifact) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --because) return ;;
    --charter) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --details) return ;;
    --feature) return ;;
    --now) return ;;
    --outcome) COMPREPLY=($(compgen -W 'pass fail partial' -- "$cur")); return ;;
    --recorded-by) return ;;
    --source) COMPREPLY=($(compgen -W 'manual verifier subagent' -- "$cur")); return ;;
    --summary) return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--artifact --because --charter --details --feature --now --outcome --recorded-by --source --summary -h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -f -- "$cur"))
    fi
    ;;
  verify)
    case $prev in
    --charter) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --timeout) return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--charter --timeout --yes -h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -f -- "$cur"))
    fi
    ;;
  migrate)
    case $prev in
    --now) return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--now --write -w -h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -f -- "$cur"))
    fi
    ;;
  rules)
    case $prev in
    --format|-f) COMPREPLY=($(compgen -W 'text json' -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--format -f -h --help -V --version' -- "$cur"))
    fi
    ;;
  explain)
    case $prev in
    --format|-f) COMPREPLY=($(compgen -W 'text json' -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--format -f -h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -W 'section-missing section-empty section-partial section-covered-by-qa status-complete-with-gaps scratchpad-malformed-entry scratchpad-duplicate-number scratchpad-out-of-order scratchpad-unknown-topic scratchpad-over-budget scratchpad-mode-mismatch scratchpad-missing-end scratchpad-answer-heading scratchpad-pending region-heading-variant status-noncanonical status-mismatch placeholder-variant mixed-placeholder duplicate-region legacy-scratch-pad legacy-sections finalizer-json generation-conflict malformed-command duplicate-command missing-verifier missing-because invalid-verifier weak-verifier-phrase-coupled weak-verifier-title-filter val-id-invalid val-id-greedy duplicate-val-id field-not-parsed val-under-h1 val-nested field-key-typo val-title-task milestone-size legacy-criteria criteria-scaffold fresh-since-loose stale-evidence freshness-unknown evidence-invalid evidence-missing-because evidence-unknown-val criterion-state-drift json-invalid report-empty-section report-missing-section file-too-large file-unreadable analysis-capped file-not-regular config-invalid unknown-disable-code unused-disable-comment objective-missing objective-empty criteria-section-missing phases-section-missing criterion-pass-empty-note criterion-status-unknown criterion-status-missing criterion-status-duplicate criterion-status-and-evidence criterion-duplicate-id depends-unknown depends-self depends-cycle criterion-heading-near-miss criterion-label-variant criterion-line-crlf depends-token note-continuation criterion-outside-criteria legacy-evidence-line duplicate-objective phase-suffix-variant phase-item-shape notes-in-objective phase-body-break objective-heading-shape reserved-heading-in-fence duplicate-section inert-grammar state-invalid charter-id-shape events-line-invalid generation-mismatch' -- "$cur"))
    fi
    ;;
  completion)
    case $prev in
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '-h --help -V --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur"))
    fi
    ;;
  version)
    case $prev in
    esac
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '-h --help -V --version' -- "$cur"))
    fi
    ;;
  esac
}
complete -o filenames -F _charter_lsp charter-lsp
