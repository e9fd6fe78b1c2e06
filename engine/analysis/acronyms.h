// Acronyms defined in passing: "large language models (LLMs)".
#ifndef ABSTRACTS_ENGINE_ANALYSIS_ACRONYMS_H_
#define ABSTRACTS_ENGINE_ANALYSIS_ACRONYMS_H_

#include <string>
#include <string_view>
#include <vector>

namespace abstracts::analysis {

struct AcronymDefinition {
  std::string short_form;  // as written: "LLMs"
  std::string long_form;   // as written: "large language models"
};

// Finds definitions of the form `long form (SF)` in display text. A short form is
// one word of 2 to 10 characters in parentheses with at least two capital
// letters ("LLMs", "ICL", "MoE", "ViT"). Its long form is the shortest run of
// words right before the parenthesis whose initials spell it ("Routing
// Reconstruction Task (RRT)"), stop words such as "of" and "the" allowed in
// between; failing that, the Schwartz & Hearst (2003) rule: the letters of the
// short form appear in order in the long form, the first at the start of a word
// ("maximum-entropy (MaxEnt)").
std::vector<AcronymDefinition> find_acronym_definitions(std::string_view text);

}  // namespace abstracts::analysis

#endif  // ABSTRACTS_ENGINE_ANALYSIS_ACRONYMS_H_
