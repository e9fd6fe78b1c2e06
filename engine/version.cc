#include "abstracts/version.h"

#include <unicode/uversion.h>
#include <xapian.h>

#include "engine/schema.h"

namespace abstracts {

VersionInfo version_info() {
  UVersionInfo icu;
  u_getVersion(icu);
  char icu_text[U_MAX_VERSION_STRING_LENGTH];
  u_versionToString(icu, icu_text);
  return {ABSTRACTS_VERSION, Xapian::version_string(), icu_text,
          std::string(schema::kSchemaVersion)};
}

}  // namespace abstracts
