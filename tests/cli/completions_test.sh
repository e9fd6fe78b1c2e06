#!/usr/bin/env bash
# Issue 21: the shell completions (cli/completions/) are valid scripts for their
# shells (bash -n, zsh -n, fish -n) and complete what `--help` lists: for every
# command, each of its options (bash and fish run their completion; zsh's
# script is searched for it), the commands themselves, --color's values and
# the query fields.
#   completions_test.sh ABSTRACTS_BIN SOURCE_DIR
# zsh and fish are in install-deps' set; one that is missing is said and skipped.
set -euo pipefail
bin=$1 dir=$2/cli/completions
bash_script=$dir/abstracts.bash zsh_script=$dir/_abstracts fish_script=$dir/abstracts.fish
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

bash -n "$bash_script" || fail "bash -n $bash_script"
have_zsh=0 have_fish=0
if command -v zsh >/dev/null; then
  have_zsh=1
  zsh -n "$zsh_script" || fail "zsh -n $zsh_script"
else
  echo "zsh is not installed (scripts/install-deps installs it): zsh -n skipped"
fi
if command -v fish >/dev/null; then
  have_fish=1
  fish -n "$fish_script" || fail "fish -n $fish_script"
else
  echo "fish is not installed (scripts/install-deps installs it): fish -n skipped"
fi

# What bash and fish offer for the command line "$*" (the last word is the one
# being completed), one candidate a line.
bash_complete() {
  bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _abstracts; printf "%s\n" "${COMPREPLY[@]}"' \
    "$bash_script" "$@"
}
fish_complete() {
  fish -c 'source $argv[1]; complete -C "$argv[2]"' "$fish_script" "$*" | cut -f1
}
# expect_offered CANDIDATE WORDS...: bash and fish offer CANDIDATE for WORDS.
# (Each list is read whole before grep looks: grep -q leaving early would break
# the pipe, and pipefail make that a failure.)
expect_offered() {
  local want=$1 offered
  shift
  offered=$(bash_complete "$@")
  grep -qxF -- "$want" <<<"$offered" || fail "bash does not offer '$want' for: $*"
  if [[ $have_fish -eq 1 ]]; then
    offered=$(fish_complete "$@")
    grep -qxF -- "$want" <<<"$offered" || fail "fish does not offer '$want' for: $*"
  fi
}
# The options of a --help text, one a line (-n,--limit gives -n and --limit).
options_of() { grep -oE '^  -[-a-z,]+' | tr -d ' ' | tr ',' '\n'; }

commands=$("$bin" --help | sed -n '/^Subcommands:/,$p' | grep -oE '^  [a-z]+' | tr -d ' ')
[[ -n $commands ]] || fail "no commands in abstracts --help"
for option in $("$bin" --help | options_of); do
  expect_offered "$option" abstracts -
  [[ $have_zsh -eq 0 ]] || grep -qF -- "$option" "$zsh_script" || fail "zsh does not complete $option"
done
for command in $commands; do
  expect_offered "$command" abstracts ""
  grep -qE "^  '$command:" "$zsh_script" || fail "zsh does not complete the command $command"
  for option in $("$bin" "$command" --help | options_of); do
    expect_offered "$option" abstracts "$command" -
    [[ $have_zsh -eq 0 ]] || grep -qF -- "$option" "$zsh_script" || fail "zsh does not complete $command $option"
  done
done
for when in auto always never; do expect_offered "$when" abstracts --color ""; done
for order in relevance date; do expect_offered "$order" abstracts search --sort ""; done
for field in year venue category author; do expect_offered "$field" abstracts stats --by ""; done
expect_offered "venue:" abstracts search ven
expect_offered "year:" abstracts --index idx search y

[[ $failures -eq 0 ]] || exit 1
echo "completions: ok"
