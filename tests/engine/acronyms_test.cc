// Golden tests of analysis::find_acronym_definitions(): display text -> the
// (short form, long form) pairs it defines. The definitions are the styles found
// in the bundled corpus (grep -o "[A-Za-z -]\{0,60\}([A-Z][A-Za-z0-9-]*s\?)"
// corpus/*.txt), and so are most of the parentheses that define nothing.
#include "engine/analysis/acronyms.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "abstracts/abstract.h"

namespace abstracts::analysis {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs definitions(std::string_view text) {
  Pairs out;
  for (const auto& d : find_acronym_definitions(text)) out.emplace_back(d.short_form, d.long_form);
  return out;
}

struct Case {
  const char* text;
  Pairs expected;
};

void PrintTo(const Case& c, std::ostream* os) { *os << '`' << c.text << '`'; }

class AcronymGolden : public ::testing::TestWithParam<Case> {};

TEST_P(AcronymGolden, FindsDefinitions) {
  const Case& c = GetParam();
  EXPECT_EQ(definitions(c.text), c.expected) << "text: " << c.text;
}

const Case kDefinitions[] = {
    // Initials, plural short form.
    {"Large language models (LLMs) are increasingly used for support.",
     {{"LLMs", "Large language models"}}},
    {"a scarce source of training data for large language models (LLMs). Existing corpora",
     {{"LLMs", "large language models"}}},
    {"Protein language models (pLMs) have shown strong potential.",
     {{"pLMs", "Protein language models"}}},
    {"the predictive success of deep neural networks (DNNs) remains elusive",
     {{"DNNs", "deep neural networks"}}},
    // Hyphens split words for the initials, and stay in the long form.
    {"a capability known as in-context learning (ICL). A common interpretation",
     {{"ICL", "in-context learning"}}},
    {"follow the heavy-tailed High-Temperature Marchenko-Pastur (HTMP) law",
     {{"HTMP", "High-Temperature Marchenko-Pastur"}}},
    // Stop words may sit between the initials.
    {"Mixture-of-Experts (MoE) architectures are central", {{"MoE", "Mixture-of-Experts"}}},
    // The shortest run of words: "the" is not part of the long form.
    {"we introduce the Routing Reconstruction Task (RRT), a probe",
     {{"RRT", "Routing Reconstruction Task"}}},
    {"We introduce the Stanford EDGAR Filings Dataset (SFD), a corpus",
     {{"SFD", "Stanford EDGAR Filings Dataset"}}},
    // Letters inside words (Schwartz & Hearst).
    {"We adapt pretrained Vision Transformers (ViT) to satellite images.",
     {{"ViT", "Vision Transformers"}}},
    {"completes the predict-update loop via the maximum-entropy (MaxEnt) closure",
     {{"MaxEnt", "maximum-entropy"}}},
    {"we propose Token-Regularized Finetuning (TReFT), which",
     {{"TReFT", "Token-Regularized Finetuning"}}},
    {"We then propose the Route-Aware FFN (RA-FFN), a drop-in block",
     {{"RA-FFN", "Route-Aware FFN"}}},
    // Markdown emphasis around the long form is not part of it.
    {"we propose **Discrete Latent Reasoning** (DLR), which",
     {{"DLR", "Discrete Latent Reasoning"}}},
    {"we propose **Discrete Latent Reasoning (DLR)**, which",
     {{"DLR", "Discrete Latent Reasoning"}}},
    {"two objectives: (i) *generative process identification* (GPI) and (ii) *conditional "
     "forecasting* (CF).",
     {{"GPI", "generative process identification"}, {"CF", "conditional forecasting"}}},
    // Several definitions in one text; a clause boundary ends the long form.
    {"large language models (LLMs) and in-context learning (ICL)",
     {{"LLMs", "large language models"}, {"ICL", "in-context learning"}}},
    {"Anomaly detection (AD) is hard. Earth Observation (EO) too.",
     {{"AD", "Anomaly detection"}, {"EO", "Earth Observation"}}},
};
INSTANTIATE_TEST_SUITE_P(Definitions, AcronymGolden, ::testing::ValuesIn(kDefinitions));

const Case kNotDefinitions[] = {
    // The words before do not spell the short form.
    {"considerable gaps between generalist (LLM), specialist (RL), and", {}},
    {"Across vision (CIFAR-100) and language", {}},
    {"gains extend further to mathematics (GSM8K)", {}},
    // Not a short form: one letter, no capitals, punctuation, too long.
    {"performs this sampling in time O(D)", {}},
    {"many tasks (e.g. foo) and more", {}},
    {"as shown before (see Fig. 2)", {}},
    {"our method (ours) wins", {}},
    {"a single letter (A) is no acronym", {}},
    {"the quick brown fox jumps over lazy dogs (TQBFJOLDSXY)", {}},
    // Nothing before the parenthesis, or no closing one.
    {"(LLMs) are large language models", {}},
    {"large language models (LLMs", {}},
    // A long form starting with a stop word is no definition.
    {"robots in the wild (ITW) fail", {}},
    // The long form must end right before the parenthesis.
    {"large language models, (LLMs)", {}},
};
INSTANTIATE_TEST_SUITE_P(NotDefinitions, AcronymGolden, ::testing::ValuesIn(kNotDefinitions));

// The indexer looks for definitions in display text, after LaTeX is removed.
TEST(AcronymDefinitions, AreFoundInDisplayTextOfLatex) {
  std::string raw = R"(The resulting $\textbf{Score Kalman Filter}$ (SKF) is accurate.)";
  EXPECT_EQ(definitions(display_text(raw)), (Pairs{{"SKF", "Score Kalman Filter"}}));
}

}  // namespace
}  // namespace abstracts::analysis
