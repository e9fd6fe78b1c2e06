# fish completion for abstracts(1): commands, their options, the values of --color,
# --sort and --by, files for --index, --queries and `index`, and the query fields
# (venue:, year:, ...) for `search`. Installed as
# share/fish/vendor_completions.d/abstracts.fish; tests/cli/completions_test.sh
# checks its options against `abstracts --help`.

set -l commands index search show similar stats acronyms sources forget export vectors
complete -c abstracts -f
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a index -d 'Index files or directories of abstracts'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a search -d 'Search the index'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a show -d 'Print abstracts by id'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a similar -d 'Find abstracts like the given ones'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a stats -d 'Print statistics of the index'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a acronyms -d 'List the learned acronyms'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a sources -d 'List the sources of the index'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a forget -d 'Forget sources of the index'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a export -d 'Print abstracts as citations'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -a vectors -d 'Learn vectors of meaning'

# Global options, before or after the command.
complete -c abstracts -l index -r -F -d 'Index directory, or a cluster file'
complete -c abstracts -l allow-partial -d 'On a cluster, search the shards that answer'
complete -c abstracts -l color -x -a 'auto always never' -d 'Colour the output'
complete -c abstracts -s h -l help -d 'Print help and exit'
complete -c abstracts -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the versions and exit'

complete -c abstracts -n '__fish_seen_subcommand_from index forget' -s q -l quiet -d 'Print only errors'
complete -c abstracts -n '__fish_seen_subcommand_from index' -s v -l verbose -d 'Say what was done with each file'
complete -c abstracts -n '__fish_seen_subcommand_from index' -s w -l watch -d 'Then keep the index in step with its sources'
complete -c abstracts -n '__fish_seen_subcommand_from index' -l zotero -d 'Index the Zotero library too'
complete -c abstracts -n '__fish_seen_subcommand_from index' -s g -l glob -x -d 'Index only the files of a folder that match a glob'
complete -c abstracts -n '__fish_seen_subcommand_from index' -l shard -x -d 'Build shard K of N of a cluster'
complete -c abstracts -n '__fish_seen_subcommand_from index' -l strict -d 'Fail a file with a record that cannot be read'
complete -c abstracts -n '__fish_seen_subcommand_from index' -l vectors -d 'Then learn vectors of meaning'
complete -c abstracts -n '__fish_seen_subcommand_from index forget' -F

set -l results '__fish_seen_subcommand_from search similar'
complete -c abstracts -n $results -s n -l limit -x -d 'Show at most this many hits'
complete -c abstracts -n $results -l offset -x -d 'Skip this many of the best hits'
complete -c abstracts -n $results -l json -d 'Print JSON Lines'
complete -c abstracts -n $results -l explain -d 'Say how the query was understood'

set -l search '__fish_seen_subcommand_from search'
complete -c abstracts -n $search -s c -l count -d 'Print only the number of matching abstracts'
complete -c abstracts -n $search -l sort -x -a 'relevance date oldest' -d 'Order of the hits'
complete -c abstracts -n $search -l queries -r -F -d 'Run each line of a file as a query'
complete -c abstracts -n $search -l no-correct -d 'Do not search for a spelling correction'
complete -c abstracts -n $search -l no-acronyms -d 'Do not expand learned acronyms'
complete -c abstracts -n $search -l no-feedback -d 'Do not rank with pseudo-relevance feedback'
complete -c abstracts -n $results -l semantic -d 'Rank by meaning alone'
complete -c abstracts -n $results -l hybrid -d 'Mix the ranking by words with the ranking by meaning'
complete -c abstracts -n '__fish_seen_subcommand_from similar' -l lexical -d 'Find likeness by words alone'
complete -c abstracts -n $search -a 'venue: year: title: author: category: tag: collection: doi: arxiv: pmid: source: id:' -d 'Query field'

complete -c abstracts -n '__fish_seen_subcommand_from show acronyms sources' -l json -d 'Print JSON Lines'
complete -c abstracts -n '__fish_seen_subcommand_from show' -l authors -x -a '10 all' -d 'How many authors to print'

set -l stats '__fish_seen_subcommand_from stats'
complete -c abstracts -n $stats -l by -x -a 'year venue category author tag collection' -d 'Count the abstracts by a field'
complete -c abstracts -n $stats -l limit -x -d 'With --by, print at most this many values'
complete -c abstracts -n $stats -l json -d 'Print JSON'

set -l export '__fish_seen_subcommand_from export'
complete -c abstracts -n $export -l format -x -a 'bibtex biblatex ris csl-json' -d 'Citation format'
complete -c abstracts -n $export -l ids -x -d 'Export these abstracts instead of a query\'s'
complete -c abstracts -n $export -a 'venue: year: title: author: category: tag: collection: doi: arxiv: pmid: source: id:' -d 'Query field'

set -l vectors '__fish_seen_subcommand_from vectors'
complete -c abstracts -n "$vectors; and not __fish_seen_subcommand_from build" -a build -d 'Learn word vectors and give every abstract its vector'
complete -c abstracts -n $vectors -l train-on -r -F -d 'Learn from these files instead'
complete -c abstracts -n $vectors -l max-training -x -d 'Learn from at most this many abstracts'
complete -c abstracts -n $vectors -l epochs -x -d "fastText's passes over the text"
complete -c abstracts -n $vectors -l dimensions -x -d "The vectors' dimensions"
complete -c abstracts -n $vectors -l buckets -x -d "fastText's buckets of word pieces"
complete -c abstracts -n $vectors -l json -d 'Print what was done as JSON'
complete -c abstracts -n $vectors -s q -l quiet -d 'Say nothing while working'
