// LaTeX-aware cleaning of abstract text.
#ifndef ABSTRACTS_ENGINE_ANALYSIS_LATEX_H_
#define ABSTRACTS_ENGINE_ANALYSIS_LATEX_H_

#include <string>
#include <string_view>

namespace abstracts::analysis {

// Turns the LaTeX found in abstracts into plain Unicode text:
//  - accent macros become accented letters: \'e, \'{e}, {\'e} -> é; \"o -> ö;
//    \ss, \o, \ae, \l ... -> ß, ø, æ, ł;
//  - text and font commands keep their argument: \emph{x}, \textbf{x}, \mathbf{x} -> x;
//    every other command name is dropped (no command name ever reaches the text);
//  - Greek letters and common symbols become their Unicode character: \Omega -> Ω,
//    \rightarrow -> →, \leq -> ≤;
//  - math delimiters ($...$, $$...$$, \(...\), \[...\]) go, their content stays;
//    a lone '$' (currency) stays;
//  - escaped characters unescape: \% -> %, \& -> &, \_ -> _, \$ -> $;
//  - grouping braces go; "--" and "---" become "–" and "—".
// The result is NFC-normalised with runs of white space collapsed to one space
// and trimmed.
std::string latex_to_text(std::string_view raw);

}  // namespace abstracts::analysis

#endif  // ABSTRACTS_ENGINE_ANALYSIS_LATEX_H_
