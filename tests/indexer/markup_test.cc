// HTML in bibliographic text (indexer/markup.h).
#include "indexer/markup.h"

#include <gtest/gtest.h>

namespace abstracts::indexer {
namespace {

TEST(Markup, TagsGoAndEntitiesDecode) {
  const struct {
    const char* in;
    const char* out;
  } cases[] = {
      {"<p>First.</p><p>Second.</p>", " First.  Second. "},
      {"CO<sub>2</sub> and <strong>bold</strong>", "CO2 and bold"},
      {"a<br/>b<br />c", "a b c"},
      {"R&amp;D &lt;3 &quot;q&quot; &#39;s&#x2013;t", "R&D <3 \"q\" 's\u2013t"},
      {"line&#13;break", "line break"},
      {"<mml:math><mml:mi>\u221e</mml:mi></mml:math>-algebra", "\u221e-algebra"},
      {"<a href=\"https://x.org/a>b\">link</a>", "link"},
      {"<a title='x>y'>x</a>", "x"},
      // Not tags: kept as written.
      {"p < 0.05 and a<b", "p < 0.05 and a<b"},
      {"x <3 y", "x <3 y"},
      {"AT&T, &unknown; &#xZZ;", "AT&T, &unknown; &#xZZ;"},
      {"no markup at all", "no markup at all"},
  };
  for (const auto& c : cases) EXPECT_EQ(strip_markup(c.in), c.out) << c.in;
}

}  // namespace
}  // namespace abstracts::indexer
