#include "query/stopwords.h"

#include <string>
#include <unordered_set>

#include "engine/analysis/analyzer.h"

namespace abstracts::query {
namespace {

// Written as words and stemmed once, so the list reads naturally and always
// agrees with the analyzer.
constexpr const char* kWords[] = {
    // English function words.
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
    // The boilerplate of abstracts.
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

}  // namespace

bool is_boilerplate(std::string_view term) {
  static const std::unordered_set<std::string> kStems = [] {
    analysis::Analyzer analyzer;
    std::unordered_set<std::string> stems;
    for (const char* w : kWords) stems.insert(analyzer.stem(analysis::Analyzer::fold(w)));
    return stems;
  }();
  return kStems.count(std::string(term)) != 0;
}

}  // namespace abstracts::query
