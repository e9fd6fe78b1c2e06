// Umbrella header: the whole public API of the abstracts library.
// See docs/library.md for a tour.
#ifndef ABSTRACTS_ABSTRACTS_H_
#define ABSTRACTS_ABSTRACTS_H_

#include "abstracts/abstract.h"
#include "abstracts/error.h"
#include "abstracts/export.h"
#include "abstracts/index.h"
#include "abstracts/search.h"
#include "abstracts/source.h"
#include "abstracts/version.h"
#include "abstracts/writer.h"

#endif  // ABSTRACTS_ABSTRACTS_H_
