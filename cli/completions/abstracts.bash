# bash completion for abstracts(1): commands, their options, the values of
# --color, --sort and --by, files for --index, --queries and `index`, and the
# query fields (venue:, year:, ...) for `search`. Installed as
# share/bash-completion/completions/abstracts; the options are those of docs/cli.md,
# which tests/cli/completions_test.sh checks this file against.

_abstracts() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local commands="index search show similar stats acronyms sources forget export vectors"
  local globals="--index --allow-partial --color -h --help --version"
  local command="" i
  # The command is the first word that is neither an option nor an option's value.
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      --index | --color | --queries | --sort | --by | --shard | -g | --glob | -n | --limit | --offset | --authors | --format) ((i++)) ;;
      -*) ;;
      *) command=${COMP_WORDS[i]} && break ;;
    esac
  done

  case $prev in
    --color) mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur") && return ;;
    --sort) mapfile -t COMPREPLY < <(compgen -W "relevance date oldest" -- "$cur") && return ;;
    --authors) mapfile -t COMPREPLY < <(compgen -W "10 all" -- "$cur") && return ;;
    --format) mapfile -t COMPREPLY < <(compgen -W "bibtex biblatex ris csl-json" -- "$cur") && return ;;
    --by) mapfile -t COMPREPLY < <(compgen -W "year venue category author tag collection" -- "$cur") && return ;;
    --index | --queries)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return
      ;;
    --train-on)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return
      ;;
    --shard | -g | --glob | -n | --limit | --offset | --max-training | --epochs | --dimensions | --buckets) return ;;  # a number, K/N or a glob
  esac

  local options=""
  case $command in
    index) options="-q --quiet -v --verbose -w --watch -g --glob --zotero --shard --strict --vectors" ;;
    forget) options="-q --quiet" ;;
    search) options="-n --limit --offset --json --explain -c --count --sort --queries --no-correct --no-acronyms --no-feedback --semantic --hybrid" ;;
    similar) options="-n --limit --offset --json --explain --lexical --semantic --hybrid" ;;
    show) options="--json --authors" ;;
    export) options="--format --ids" ;;
    acronyms | sources) options="--json" ;;
    stats) options="--by --limit --json" ;;
    vectors) options="--train-on --max-training --epochs --dimensions --buckets --json -q --quiet" ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$globals $options" -- "$cur")
  elif [[ -z $command ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
  elif [[ $command == vectors ]]; then
    mapfile -t COMPREPLY < <(compgen -W "build" -- "$cur")
  elif [[ $command == index || $command == forget ]]; then
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  elif [[ $command == search || $command == export ]]; then
    # A field is completed with its colon and no space, so that its value follows.
    compopt -o nospace 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -W "venue: year: title: author: category: tag: collection: doi: arxiv: pmid: source: id:" -- "$cur")
  fi
}
complete -F _abstracts abstracts
