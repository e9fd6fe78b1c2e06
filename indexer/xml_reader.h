// The XML input formats: PubMed/MEDLINE XML and Atom feeds (arXiv's API), read
// by one streaming, namespace-aware expat parser.
#ifndef ABSTRACTS_INDEXER_XML_READER_H_
#define ABSTRACTS_INDEXER_XML_READER_H_

#include <memory>
#include <string>

#include "indexer/line_source.h"
#include "indexer/reader.h"

namespace abstracts::indexer {

// Opens the XML document that `src` holds (Reader::open hands over a file whose
// first non-blank line starts with '<', its lines read ahead given back). The
// root element tells the format:
// - PubmedArticleSet or MedlineCitationSet: PubMed/MEDLINE XML
//   (Format::kPubmedXml), one record per PubmedArticle (or MedlineCitation under
//   MedlineCitationSet);
// - feed in the Atom namespace (Format::kArxivAtom), one record per entry:
//   arXiv's API responses, in both the classic and the 2025 layout.
// docs/formats.md lists what each record takes from which element. A record
// without an abstract is skipped (counted in skipped()).
//
// The reader streams: it parses the file a chunk of lines at a time and keeps
// the records those lines completed, so memory holds about one record, never
// the file. A record over kMaxRecordBytes is left out (rejected(), with a
// problem) and parsed past. So is a record that is not well-formed ("not
// well-formed XML (expat's message)" on the line expat stopped at), nests over
// 256 elements deep, or is not closed before the next record's start tag: the
// reader reads on at the next record's start tag after what is wrong (with a
// new parser, which the root's start tag, as the file wrote it, opens), and
// the records before stay. Malformed XML between records, or after the root
// element, is left out the same way, as a record. No DTD or external entity is
// ever loaded, and a document that declares an entity, or a default for an
// attribute (which expat would apply from the internal subset), is refused.
//
// Throws InputError naming the file and line: for XML that is not well-formed
// before its root element, for a root element of neither format ("not a format
// abstracts reads", with `formats_hint` as the hint), for an entity
// declaration, an attribute default, or a tag, comment or declaration over 1
// MiB; and whatever LineSource throws. Errors can come from open_xml() (up to
// the root element) and from next().
std::unique_ptr<Reader> open_xml(std::unique_ptr<LineSource> src, const std::string& formats_hint);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_XML_READER_H_
