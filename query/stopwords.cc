#include "query/stopwords.h"

#include <initializer_list>
#include <iterator>
#include <string>
#include <unordered_set>

#include "engine/analysis/analyzer.h"

namespace abstracts::query {
namespace {

// English function words. Written as words and stemmed once, so the list reads naturally and always
// agrees with the analyzer.
constexpr const char* kFunctionWords[] = {
    "a", "about", "above", "across", "after", "again", "against", "all", "almost", "along",
    "also", "although", "always", "among", "an", "and", "another", "any", "are", "as", "at",
    "be", "because", "been", "before", "being", "between", "both", "but", "by", "can", "cannot",
    "could", "do", "does", "doing", "done", "due", "during", "each", "either", "else", "enough",
    "especially", "etc", "even", "ever", "every", "for", "from", "further", "furthermore",
    "had", "has", "have", "having", "here", "hence", "how", "however", "i", "if", "in", "into",
    "is", "it", "its", "itself", "just", "less", "like", "many", "may", "might", "more",
    "moreover", "most", "much", "must", "neither", "no", "nor", "not", "of", "off", "often", "on",
    "once", "one", "only", "onto", "or", "other", "others", "our", "ours", "out", "over", "own",
    "per", "rather", "same", "several", "should", "since", "so", "some", "such", "than", "that",
    "the", "their", "them", "then", "there", "thereby", "therefore", "these", "they", "this",
    "those", "though", "through", "thus", "to", "too", "toward", "towards", "two", "under",
    "unlike", "until", "up", "upon", "us", "very", "via", "was", "we", "were", "what", "when",
    "where", "whereas", "whether", "which", "while", "who", "whose", "why", "will", "with",
    "within", "without", "would", "yet", "you",
};

// The boilerplate of abstracts.
constexpr const char* kBoilerplate[] = {
    "propose", "proposed", "approach", "approaches", "result", "results", "show", "shows",
    "shown", "demonstrate", "demonstrates", "paper", "work", "method", "methods", "novel",
    "new", "present", "introduce", "study", "studies", "based", "using", "use", "used", "state",
    "art", "existing", "prior", "previous", "recent", "recently", "significant", "significantly",
    "improve", "improves", "improved", "improvement", "performance", "outperform", "outperforms",
    "achieve", "achieves", "effective", "effectively", "efficient", "key", "provide", "provides",
    "address", "problem", "problems", "experiment", "experiments", "experimental", "extensive",
    "evaluate", "evaluation", "further", "code", "available", "however", "well", "first",
    "framework", "task", "tasks", "different", "various", "across", "including", "enable",
    "enables", "allow", "allows", "make", "makes", "find", "finds", "found", "given", "large",
    "high", "low", "better", "best", "good", "important", "challenge", "challenges", "challenging",
    "remain", "remains", "often", "lead", "leads", "aim", "aims", "goal", "setting", "settings",
    "problem", "case", "cases", "general", "specific", "way", "ways", "level", "levels",
};

std::unordered_set<std::string> stems_of(std::initializer_list<const char* const*> lists,
                                         std::initializer_list<std::size_t> sizes) {
  analysis::Analyzer analyzer;
  std::unordered_set<std::string> stems;
  auto size = sizes.begin();
  for (const char* const* list : lists) {
    for (std::size_t i = 0; i < *size; ++i) stems.insert(analyzer.stem(analysis::Analyzer::fold(list[i])));
    ++size;
  }
  return stems;
}

}  // namespace

bool is_boilerplate(std::string_view term) {
  static const auto kStems = stems_of({kFunctionWords, kBoilerplate},
                                      {std::size(kFunctionWords), std::size(kBoilerplate)});
  return kStems.count(std::string(term)) != 0;
}

bool is_function_word(std::string_view term) {
  static const auto kStems = stems_of({kFunctionWords}, {std::size(kFunctionWords)});
  return kStems.count(std::string(term)) != 0;
}

}  // namespace abstracts::query
