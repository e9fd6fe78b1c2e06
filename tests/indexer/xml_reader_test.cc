// Issue 18: the XML input formats, PubMed/MEDLINE XML and arXiv's Atom API
// responses (indexer/xml_reader.*), each quirk in a small fixture, and the
// shared real files.
#include "indexer/xml_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "indexer/document.h"
#include "indexer/reader.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer {
namespace {

namespace fs = std::filesystem;
using abstracts::testing::TempDir;
using abstracts::testing::write_file;

// Three citations as PubMed's "Send to: File, XML" writes them (DTD 2019): a
// structured abstract with inline markup and a copyright line, one without an
// abstract, and one dated by MedlineDate, with MathML and only an ISO journal
// abbreviation.
const char* const kPubmed = R"(<?xml version="1.0"?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2019//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd">
<PubmedArticleSet>

<PubmedArticle>
    <MedlineCitation Status="MEDLINE" Owner="NLM">
        <PMID Version="1">31045810</PMID>
        <DateCompleted><Year>2019</Year><Month>05</Month><Day>28</Day></DateCompleted>
        <Article PubModel="Print">
            <Journal>
                <JournalIssue CitedMedium="Internet">
                    <PubDate><Year>2018</Year><Month>Nov</Month><Day>7</Day></PubDate>
                </JournalIssue>
                <Title>Medicine</Title>
                <ISOAbbreviation>Medicine (Baltimore)</ISOAbbreviation>
            </Journal>
            <ArticleTitle>Air embolism after <i>hook-wire</i> localization: a case report.</ArticleTitle>
            <ELocationID EIdType="pii" ValidYN="Y">e15437</ELocationID>
            <ELocationID EIdType="doi" ValidYN="Y">10.1097/MD.0000000000015437</ELocationID>
            <Abstract>
                <AbstractText Label="RATIONALE" NlmCategory="BACKGROUND">Arterial air embolism is <b>rare</b>.</AbstractText>
                <AbstractText Label="PATIENT CONCERNS" NlmCategory="UNASSIGNED">A 64-year-old man had a nodule of 1 cm<sup>2</sup>.</AbstractText>
                <AbstractText>Unlabelled closing words.</AbstractText>
                <CopyrightInformation>Copyright 2019 Wolters Kluwer.</CopyrightInformation>
            </Abstract>
            <AuthorList CompleteYN="Y">
                <Author ValidYN="Y">
                    <LastName>Wang</LastName>
                    <ForeName>Ming-Yi</ForeName>
                    <Initials>MY</Initials>
                    <AffiliationInfo><Affiliation>Dalian Medical University.</Affiliation></AffiliationInfo>
                </Author>
                <Author ValidYN="Y"><LastName>Liu</LastName><Initials>YS</Initials></Author>
                <Author ValidYN="N"><LastName>Wrong</LastName><ForeName>Name</ForeName></Author>
                <Author ValidYN="Y"><CollectiveName>CPFE Study Group</CollectiveName></Author>
            </AuthorList>
        </Article>
        <MedlineJournalInfo><MedlineTA>Medicine (Baltimore)</MedlineTA></MedlineJournalInfo>
        <MeshHeadingList>
            <MeshHeading><DescriptorName UI="D004617" MajorTopicYN="Y">Embolism, Air</DescriptorName></MeshHeading>
            <MeshHeading><DescriptorName UI="D006801" MajorTopicYN="N">Humans</DescriptorName>
                <QualifierName UI="Q000000981" MajorTopicYN="N">diagnostic imaging</QualifierName></MeshHeading>
        </MeshHeadingList>
        <KeywordList Owner="NOTNLM"><Keyword MajorTopicYN="N">air embolism</Keyword><Keyword MajorTopicYN="N">Humans</Keyword></KeywordList>
        <OtherAbstract Type="Publisher" Language="chi"><AbstractText>Another language.</AbstractText></OtherAbstract>
    </MedlineCitation>
    <PubmedData>
        <ArticleIdList>
            <ArticleId IdType="pubmed">31045810</ArticleId>
            <ArticleId IdType="doi">10.1097/MD.0000000000015437</ArticleId>
        </ArticleIdList>
        <ReferenceList><Reference><Citation>A cited paper.</Citation>
            <ArticleIdList><ArticleId IdType="doi">10.9999/not-this-one</ArticleId></ArticleIdList>
        </Reference></ReferenceList>
    </PubmedData>
</PubmedArticle>

<PubmedArticle>
    <MedlineCitation Status="MEDLINE" Owner="NLM">
        <PMID Version="1">31000001</PMID>
        <Article PubModel="Print">
            <Journal><Title>Nature</Title></Journal>
            <ArticleTitle>A letter without an abstract.</ArticleTitle>
            <Abstract><CopyrightInformation>Copyright only.</CopyrightInformation></Abstract>
        </Article>
    </MedlineCitation>
</PubmedArticle>

<PubmedArticle>
    <MedlineCitation Status="MEDLINE" Owner="NLM">
        <PMID Version="1">10000002</PMID>
        <Article PubModel="Print">
            <Journal>
                <JournalIssue><PubDate><MedlineDate>1998 Dec-1999 Jan</MedlineDate></PubDate></JournalIssue>
                <ISOAbbreviation>J Chem Phys</ISOAbbreviation>
            </Journal>
            <ArticleTitle>Inline MathML.</ArticleTitle>
            <Abstract>
                <AbstractText>The ratio <mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML"><mml:mi>x</mml:mi><mml:mo>&gt;</mml:mo><mml:mn>2</mml:mn></mml:math> holds &amp; more.</AbstractText>
            </Abstract>
            <ELocationID EIdType="doi">10.1063/1.477</ELocationID>
        </Article>
    </MedlineCitation>
</PubmedArticle>

</PubmedArticleSet>
)";

// The old baseline layout (DTD 2012): MedlineCitationSet root, DateCreated, one
// Affiliation under Article, no PubDate year.
const char* const kMedline2012 = R"(<?xml version="1.0"?>
<!DOCTYPE MedlineCitationSet PUBLIC "-//NLM//DTD Medline Citation, 1st January, 2012//EN" "http://www.nlm.nih.gov/databases/dtd/nlmmedlinecitationset_120101.dtd">
<MedlineCitationSet>
<MedlineCitation Owner="NLM" Status="Publisher">
    <PMID Version="1">23117106</PMID>
    <DateCreated><Year>2012</Year><Month>11</Month><Day>5</Day></DateCreated>
    <Article PubModel="Print-Electronic">
        <Journal><JournalIssue CitedMedium="Internet"><PubDate><Season>Spring</Season></PubDate></JournalIssue>
            <Title>Respiratory physiology &amp; neurobiology</Title></Journal>
        <ArticleTitle>Respiratory mechanics in CPFE.</ArticleTitle>
        <Abstract><AbstractText>Emphysema and fibrosis affect lung mechanics.</AbstractText>
            <CopyrightInformation>Copyright © 2012. Published by Elsevier B.V.</CopyrightInformation></Abstract>
        <Affiliation>Department of Respiratory Medicine, Shizuoka, Japan.</Affiliation>
        <AuthorList><Author><LastName>Mori</LastName><ForeName>Kazutaka</ForeName><Initials>K</Initials></Author></AuthorList>
    </Article>
</MedlineCitation>
<MedlineCitation Owner="NLM" Status="MEDLINE">
    <PMID Version="1">23117107</PMID>
    <DateCreated><Year>2012</Year><Month>11</Month><Day>6</Day></DateCreated>
    <Article PubModel="Electronic">
        <Journal><JournalIssue><PubDate><Year>2012</Year></PubDate></JournalIssue><Title>Chest</Title></Journal>
        <ArticleTitle>Dated by its issue's year and its electronic date.</ArticleTitle>
        <Abstract><AbstractText>Text.</AbstractText></Abstract>
        <ArticleDate DateType="Electronic"><Year>2012</Year><Month>10</Month><Day>29</Day></ArticleDate>
    </Article>
</MedlineCitation>
</MedlineCitationSet>
)";

// arXiv's API, the 2025 layout: namespaces declared on <feed>.
const char* const kAtom2025 = R"(<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/SvoX0szoRaJjfBxkB8izyoReE9M</id>
  <title>arXiv Query: search_query=cat:astro-ph*&amp;id_list=&amp;start=0&amp;max_results=2</title>
  <updated>2026-04-25T13:22:13Z</updated>
  <opensearch:itemsPerPage>2</opensearch:itemsPerPage>
  <entry>
    <id>http://arxiv.org/abs/0704.0001v2</id>
    <title>Calculation of prompt diphoton production cross sections at Tevatron and
  LHC energies</title>
    <updated>2007-07-24T20:10:27Z</updated>
    <link href="https://arxiv.org/abs/0704.0001v2" rel="alternate" type="text/html"/>
    <summary>  A fully differential calculation in perturbative quantum chromodynamics is
presented for the production of massive photon pairs.
</summary>
    <category term="hep-ph" scheme="http://arxiv.org/schemas/atom"/>
    <category term="math.CO" scheme="http://arxiv.org/schemas/atom"/>
    <published>2007-04-02T19:18:42Z</published>
    <arxiv:comment>37 pages, 15 figures</arxiv:comment>
    <arxiv:journal_ref>Phys.Rev.D76:013009,2007</arxiv:journal_ref>
    <arxiv:doi>10.1103/PhysRevD.76.013009</arxiv:doi>
    <arxiv:primary_category term="math.CO"/>
    <author><name>C. Balázs</name><arxiv:affiliation>Argonne</arxiv:affiliation></author>
    <author><name>E. L. Berger</name></author>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/hep-th/9901001v1</id>
    <title>An old-style identifier</title>
    <updated>1999-01-01T00:00:00Z</updated>
    <summary>Strings.</summary>
    <category term="hep-th" scheme="http://arxiv.org/schemas/atom"/>
    <published>1999-01-01T00:00:00Z</published>
    <arxiv:primary_category term="hep-th"/>
    <author><name>Jan van der Berg</name></author>
  </entry>
</feed>
)";

// The classic layout (before 2025): the arxiv: namespace declared on each element.
const char* const kAtomClassic = R"(<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=all:Einstein&amp;id_list=&amp;start=0&amp;max_results=1</title>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">28637</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/0704.0001v2</id>
    <updated>2007-07-24T20:10:27Z</updated>
    <published>2007-04-02T19:18:42Z</published>
    <title>Calculation of prompt diphoton production cross sections at Tevatron and
  LHC energies</title>
    <summary>  A fully differential calculation in perturbative quantum chromodynamics is
presented for the production of massive photon pairs.
</summary>
    <author><name>C. Balázs</name></author>
    <author><name>E. L. Berger</name></author>
    <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">10.1103/PhysRevD.76.013009</arxiv:doi>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">37 pages, 15 figures</arxiv:comment>
    <arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">Phys.Rev.D76:013009,2007</arxiv:journal_ref>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="math.CO" scheme="http://arxiv.org/schemas/atom"/>
    <category term="hep-ph" scheme="http://arxiv.org/schemas/atom"/>
    <category term="math.CO" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>
)";

std::unique_ptr<Reader> open(const TempDir& dir, const std::string& name, const std::string& content) {
  write_file(dir / name, content);
  return Reader::open(dir / name);
}

std::vector<Record> all(Reader& reader) {
  std::vector<Record> records;
  while (auto r = reader.next()) records.push_back(std::move(*r));
  return records;
}

// The InputError reading `content` throws, or nullopt (a failure) if none.
std::optional<InputError> error_reading(const std::string& content) {
  TempDir dir;
  write_file(dir / "bad.xml", content);
  try {
    const auto records = read_all(dir / "bad.xml");
    ADD_FAILURE() << "read " << records.size() << " records of\n" << content;
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

TEST(Issue18Xml, PubmedCitationsWithEachQuirk) {
  TempDir dir;
  auto reader = open(dir, "pubmed_result.xml", kPubmed);
  EXPECT_EQ(reader->format(), Format::kPubmedXml);
  const auto records = all(*reader);
  EXPECT_EQ(reader->skipped(), 1u) << "the letter without an abstract (a copyright line is none)";
  ASSERT_EQ(records.size(), 2u);

  const Record& r = records[0];
  EXPECT_EQ(r.line, 5u) << "the PubmedArticle start tag";
  EXPECT_EQ(r.raw_text,
            "RATIONALE: Arterial air embolism is rare. PATIENT CONCERNS: A 64-year-old man had a nodule of 1 cm2. "
            "Unlabelled closing words.")
      << "labels kept, <b> and <sup> dropped with their text kept, no CopyrightInformation, no OtherAbstract";
  const Abstract& f = r.fields;
  EXPECT_EQ(f.pmid, "31045810");
  EXPECT_EQ(f.title, "Air embolism after hook-wire localization: a case report.");
  EXPECT_EQ(f.venue, "Medicine") << "Journal/Title first";
  EXPECT_EQ(f.year, 2018) << "PubDate before DateCompleted";
  EXPECT_EQ(f.month, 11) << "\"Nov\"";
  EXPECT_EQ(f.day, 7);
  EXPECT_EQ(f.doi, "10.1097/MD.0000000000015437") << "the article's, not a reference's";
  ASSERT_EQ(f.authors.size(), 3u) << "ValidYN=\"N\" is left out";
  EXPECT_EQ(f.authors[0].family, "Wang");
  EXPECT_EQ(f.authors[0].given, "Ming-Yi");
  EXPECT_EQ(f.authors[1].family, "Liu");
  EXPECT_EQ(f.authors[1].given, "YS") << "Initials without a ForeName";
  EXPECT_EQ(f.authors[2].family, "CPFE Study Group") << "CollectiveName";
  EXPECT_EQ(f.authors[2].given, "");
  EXPECT_EQ(f.categories, (std::vector<std::string>{"Embolism, Air", "Humans", "air embolism"}))
      << "MeSH descriptors, then keywords, each once";

  const Record& m = records[1];
  EXPECT_EQ(m.raw_text, "The ratio x>2 holds & more.") << "MathML's text kept, entities decoded";
  EXPECT_EQ(m.fields.year, 1998) << "MedlineDate \"1998 Dec-1999 Jan\"";
  EXPECT_EQ(m.fields.month, 12);
  EXPECT_EQ(m.fields.day, 0);
  EXPECT_EQ(m.fields.venue, "J Chem Phys") << "ISOAbbreviation without a Title";
  EXPECT_EQ(m.fields.doi, "10.1063/1.477") << "ELocationID without PubmedData";

  const Abstract a = make_abstract(r, "/x/pubmed_result.xml", "", 0);
  EXPECT_EQ(a.id, "10.1097/md.0000000000015437") << "the DOI names the paper first";
  EXPECT_EQ(a.pmid, "31045810");
  EXPECT_EQ(iso_date(a), "2018-11-07");
}

TEST(Issue18Xml, MedlineCitationSetAndThe2012Layout) {
  TempDir dir;
  auto reader = open(dir, "medline12n0001.xml", kMedline2012);
  EXPECT_EQ(reader->format(), Format::kPubmedXml);
  const auto records = all(*reader);
  ASSERT_EQ(records.size(), 2u);
  const Abstract& f = records[0].fields;
  EXPECT_EQ(records[0].line, 4u) << "the MedlineCitation start tag";
  EXPECT_EQ(f.pmid, "23117106");
  EXPECT_EQ(records[0].raw_text, "Emphysema and fibrosis affect lung mechanics.");
  EXPECT_EQ(f.venue, "Respiratory physiology & neurobiology");
  EXPECT_EQ(iso_date(make_abstract(records[0], "", "", 0)), "2012-11-05") << "DateCreated: no PubDate year";
  ASSERT_EQ(f.authors.size(), 1u);
  EXPECT_EQ(f.authors[0].family, "Mori");
  EXPECT_EQ(f.authors[0].given, "Kazutaka");
  EXPECT_EQ(records[1].fields.year, 2012) << "the PubDate's year, before ArticleDate";
  EXPECT_EQ(records[1].fields.month, 0) << "PubDate's precision: its year only";
}

TEST(Issue18Xml, GzipReadsTheSame) {
  TempDir dir;
  write_file(dir / "plain.xml", kPubmed);
  const auto plain = abstracts::testing::run("/bin/sh", {"-c", "gzip -c -n plain.xml > pubmed.xml.gz"}, {}, dir.path());
  ASSERT_EQ(plain.status, 0) << plain.err;
  const auto gz = read_all(dir / "pubmed.xml.gz"), xml = read_all(dir / "plain.xml");
  ASSERT_EQ(gz.size(), 2u);
  for (std::size_t i = 0; i < gz.size(); ++i) {
    EXPECT_EQ(gz[i].raw_text, xml[i].raw_text);
    EXPECT_EQ(gz[i].line, xml[i].line);
    EXPECT_EQ(gz[i].fields.doi, xml[i].fields.doi);
  }
}

// XML written without line breaks (ElementTree's default), one line of over
// 1 MiB: read in pieces, each citation whole, the same as the pretty file.
TEST(Issue18Xml, OneLineOfManyMebibytesReadsTheSame) {
  TempDir dir;
  std::string pretty = kPubmed;
  const auto open_at = pretty.find("<PubmedArticle>"), close_at = pretty.rfind("</PubmedArticleSet>");
  std::string one_line = pretty.substr(0, open_at);
  std::string citations = pretty.substr(open_at, close_at - open_at);
  std::erase(citations, '\n');
  std::size_t copies = 0;
  while (one_line.size() < (3u << 20)) {
    one_line += citations;
    ++copies;
  }
  one_line += "</PubmedArticleSet>\n";
  write_file(dir / "one-line.xml", one_line);
  write_file(dir / "pretty.xml", kPubmed);
  const auto many = read_all(dir / "one-line.xml"), few = read_all(dir / "pretty.xml");
  ASSERT_EQ(many.size(), few.size() * copies);
  for (std::size_t i = 0; i < many.size(); ++i) {
    const Record& want = few[i % few.size()];
    ASSERT_EQ(many[i].raw_text, want.raw_text) << i;
    EXPECT_EQ(many[i].fields.title, want.fields.title);
    EXPECT_EQ(many[i].fields.pmid, want.fields.pmid);
  }
}

TEST(Issue18Xml, MonthsAsNamesOrNumbers) {
  const struct {
    const char* date;
    int year, month, day;
  } cases[] = {
      {"<PubDate><Year>2019</Year><Month>May</Month></PubDate>", 2019, 5, 0},
      {"<PubDate><Year>2019</Year><Month>05</Month><Day>28</Day></PubDate>", 2019, 5, 28},
      {"<PubDate><Year>2019</Year><Day>28</Day></PubDate>", 2019, 0, 0},
      {"<PubDate><MedlineDate>2001 Nov 15-Dec 1</MedlineDate></PubDate>", 2001, 11, 15},
      {"<PubDate><MedlineDate>2000 Spring</MedlineDate></PubDate>", 2000, 0, 0},
      {"<PubDate><MedlineDate>1999-2000</MedlineDate></PubDate>", 1999, 0, 0},
  };
  for (const auto& c : cases) {
    TempDir dir;
    const std::string xml = std::string("<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article>") +
                            "<Journal><JournalIssue>" + c.date + "</JournalIssue></Journal>" +
                            "<Abstract><AbstractText>x</AbstractText></Abstract></Article></MedlineCitation>" +
                            "</PubmedArticle></PubmedArticleSet>\n";
    write_file(dir / "d.xml", xml);
    const auto records = read_all(dir / "d.xml");
    ASSERT_EQ(records.size(), 1u) << c.date;
    EXPECT_EQ(records[0].fields.year, c.year) << c.date;
    EXPECT_EQ(records[0].fields.month, c.month) << c.date;
    EXPECT_EQ(records[0].fields.day, c.day) << c.date;
  }
}

TEST(Issue18Xml, ArxivAtomBothLayoutsReadTheSame) {
  TempDir dir;
  auto modern = open(dir, "arxiv_results.xml", kAtom2025);
  EXPECT_EQ(modern->format(), Format::kArxivAtom);
  const auto records = all(*modern);
  ASSERT_EQ(records.size(), 2u);
  const Record& r = records[0];
  EXPECT_EQ(r.line, 7u) << "the entry start tag";
  const Abstract& f = r.fields;
  EXPECT_EQ(f.arxiv_id, "0704.0001") << "the version stripped";
  EXPECT_EQ(f.title, "Calculation of prompt diphoton production cross sections at Tevatron and\n  LHC energies");
  EXPECT_EQ(f.doi, "10.1103/PhysRevD.76.013009");
  EXPECT_EQ(f.venue, "arXiv") << "as for the metadata snapshot";
  EXPECT_EQ(f.year, 2007);
  EXPECT_EQ(f.month, 4) << "published, not updated";
  EXPECT_EQ(f.day, 2);
  ASSERT_EQ(f.authors.size(), 2u);
  EXPECT_EQ(f.authors[0].family, "Balázs");
  EXPECT_EQ(f.authors[0].given, "C.");
  EXPECT_EQ(f.authors[1].family, "Berger");
  EXPECT_EQ(f.categories, (std::vector<std::string>{"math.CO", "hep-ph"})) << "the primary first, each once";
  const Abstract a = make_abstract(r, "", "", 0);
  EXPECT_EQ(a.text,
            "A fully differential calculation in perturbative quantum chromodynamics is presented for the production "
            "of massive photon pairs.");
  EXPECT_EQ(a.title, "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies");

  EXPECT_EQ(records[1].fields.arxiv_id, "hep-th/9901001") << "an old-style id, its version stripped";
  ASSERT_EQ(records[1].fields.authors.size(), 1u);
  EXPECT_EQ(records[1].fields.authors[0].family, "van der Berg");

  const auto classic = all(*open(dir, "arxiv.xml", kAtomClassic));
  ASSERT_EQ(classic.size(), 1u);
  const Abstract& c = classic[0].fields;
  EXPECT_EQ(classic[0].raw_text, r.raw_text);
  EXPECT_EQ(c.title, f.title);
  EXPECT_EQ(c.arxiv_id, f.arxiv_id);
  EXPECT_EQ(c.doi, f.doi) << "arxiv:doi with the namespace declared on the element";
  EXPECT_EQ(c.categories, f.categories);
  EXPECT_EQ(c.year, f.year);
  EXPECT_EQ(c.month, f.month);
  EXPECT_EQ(c.day, f.day);
  EXPECT_EQ(c.venue, f.venue);
  ASSERT_EQ(c.authors.size(), 2u);
  EXPECT_EQ(c.authors[0].family, "Balázs");
}

TEST(Issue18Xml, AnAtomFeedNotFromArxivIsReadWithoutAnArxivId) {
  TempDir dir;
  const auto records = all(*open(dir, "feed.xml",
                                 "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
                                 "<entry><id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>\n"
                                 "<title type=\"html\">Less &lt;i&gt;is&lt;/i&gt; more</title>\n"
                                 "<summary>Plain words.</summary><updated>2003-12-13T18:30:02Z</updated>\n"
                                 "<author><name>Mark Pilgrim</name></author></entry>\n"
                                 "<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id>\n"
                                 "<title>Error</title><summary>incorrect id format for 1234</summary></entry>\n"
                                 "</feed>\n"));
  ASSERT_EQ(records.size(), 1u) << "arXiv's error entry is no paper";
  const Abstract& f = records[0].fields;
  EXPECT_EQ(f.arxiv_id, "");
  EXPECT_EQ(f.venue, "");
  EXPECT_EQ(f.title, "Less is more") << "type=\"html\": its markup dropped";
  EXPECT_EQ(f.year, 2003) << "updated, without published";
  EXPECT_EQ(make_abstract(records[0], "", "", 0).id, content_id("Plain words.")) << "the content hash";
}

TEST(Issue18Xml, MalformedXmlIsAnErrorNamingItsLine) {
  const struct {
    std::string content;
    std::uint32_t line;
    const char* says;
  } cases[] = {
      {"<?xml version=\"1.0\"?>\n<PubmedArticleSet>\n<PubmedArticle>\n</PubmedArticleSet>\n", 4, "mismatched tag"},
      {"<PubmedArticleSet>\n<PubmedArticle>\n", 2, "no element found"},
      {"<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<entry a=1/>\n</feed>\n", 2, "not well-formed"},
      {"<PubmedArticleSet></PubmedArticleSet>\n<PubmedArticleSet/>\n", 2, "junk after document element"},
      {"<PubmedArticleSet>\n\n<x>&nbsp;</x></PubmedArticleSet>\n", 3, "undefined entity"},
  };
  for (const auto& c : cases) {
    const auto e = error_reading(c.content);
    if (!e) continue;
    EXPECT_EQ(e->line(), c.line) << c.content << e->what();
    EXPECT_TRUE(abstracts::testing::contains(e->what(), "bad.xml:" + std::to_string(c.line) + ": not well-formed XML ("))
        << e->what();
    EXPECT_TRUE(abstracts::testing::contains(e->what(), c.says)) << e->what();
  }
}

TEST(Issue18Xml, LineNumbersAfterBlankLinesAndLoneCarriageReturns) {
  TempDir dir;
  write_file(dir / "p.xml",
             "\n\n<PubmedArticleSet>\r\n<PubmedArticle><MedlineCitation>"
             "<Article><Abstract>\r<AbstractText>x</AbstractText></Abstract></Article>"
             "</MedlineCitation></PubmedArticle>\n<PubmedArticle>\n</PubmedArticleSet>\n");
  auto reader = Reader::open(dir / "p.xml");
  auto first = reader->next();
  ASSERT_TRUE(first) << "a record is handed out before the rest of the file is read";
  EXPECT_EQ(first->line, 4u);
  EXPECT_FALSE(reader->next());
  const auto problems = reader->take_problems();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].line, 6u) << problems[0].what;
}

TEST(Issue18Xml, AnXmlRootOfNoKnownFormatIsRefused) {
  for (const std::string content : {
           "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel/></rss>\n",
           "<?xml version=\"1.0\"?>\n<feed><entry/></feed>\n",  // no Atom namespace
           "<html>\n<body>abstract</body></html>\n",
       }) {
    const auto e = error_reading(content);
    if (!e) continue;
    EXPECT_TRUE(abstracts::testing::contains(e->what(), "not a format abstracts reads")) << e->what();
    EXPECT_TRUE(abstracts::testing::contains(e->hint(), "PubMed XML; arXiv's Atom API")) << e->hint();
    EXPECT_EQ(e->line(), content.starts_with("<?xml") ? 2u : 1u) << e->what();
  }
}

// Billion laughs: an entity declared in the document could expand to gigabytes.
// It is refused at its declaration, before anything expands.
TEST(Issue18Xml, AnEntityBombIsRefused) {
  std::string bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE PubmedArticleSet [\n<!ENTITY lol \"lol\">\n";
  for (int i = 1; i <= 9; ++i) {
    bomb += "<!ENTITY lol" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k) bomb += "&lol" + (i == 1 ? std::string() : std::to_string(i - 1)) + ";";
    bomb += "\">\n";
  }
  bomb += "]>\n<PubmedArticleSet><PubmedArticle><MedlineCitation><Article><Abstract><AbstractText>&lol9;"
          "</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>\n";
  const auto e = error_reading(bomb);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), 3u) << e->what();
  EXPECT_TRUE(abstracts::testing::contains(e->what(), "declares the entity 'lol'")) << e->what();
}

// ---------------------------------------------------------------------------
// Issue 41: a record that is not well-formed is left out, and the records after
// it read.

// A PubMed article of `pmid` whose abstract is `text` (XML as written), on one line.
std::string article(const std::string& pmid, const std::string& text) {
  return "<PubmedArticle><MedlineCitation><PMID>" + pmid + "</PMID><Article><Abstract><AbstractText>" + text +
         "</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>\n";
}

// What reading `content` gives: the PMIDs (or arXiv ids) of its records with
// their lines, and its problems.
struct Read {
  std::vector<std::pair<std::string, std::uint32_t>> records;
  std::vector<RecordProblem> problems;
};
Read read_xml(const std::string& content) {
  TempDir dir;
  write_file(dir / "bad.xml", content);
  auto reader = Reader::open(dir / "bad.xml");
  Read out;
  while (auto r = reader->next()) {
    out.records.emplace_back(r->fields.pmid.empty() ? r->fields.arxiv_id : r->fields.pmid, r->line);
  }
  out.problems = reader->take_problems();
  EXPECT_EQ(reader->rejected(), out.problems.size());
  return out;
}

using Records = std::vector<std::pair<std::string, std::uint32_t>>;

TEST(Issue41, AMalformedXmlRecordIsLeftOutAndTheRecordsAfterItRead) {
  const std::string set = "<?xml version=\"1.0\"?>\n<PubmedArticleSet>\n";  // lines 1-2
  const std::string end = "</PubmedArticleSet>\n";
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "<b>";
  const struct {
    std::string name, content;
    Records records;
    std::uint32_t line;
    std::string says;
  } cases[] = {
      {"mismatched tag", set + article("1", "One.") + article("2", "Two.</Abstract>") + article("3", "Three.") + end,
       {{"1", 3}, {"3", 5}}, 4, "not well-formed XML (mismatched tag)"},
      {"undefined entity", set + article("1", "One.") + article("2", "Two &nbsp; words.") + article("3", "Three.") + end,
       {{"1", 3}, {"3", 5}}, 4, "not well-formed XML (undefined entity)"},
      {"a bare ampersand over lines",
       set + article("1", "One.") + article("2", "Two\n&\nwords.") + article("3", "Three.") + end,
       {{"1", 3}, {"3", 7}}, 5, "not well-formed XML"},
      // Its end tag missing, a record would take every record after it along.
      {"a record never closed",
       set + article("1", "One.") + "<PubmedArticle><MedlineCitation><PMID>2</PMID>\n" + article("3", "Three.") +
           article("4", "Four.") + end,
       {{"1", 3}, {"3", 5}, {"4", 6}}, 4, "the <PubmedArticle> that starts here is not closed before the next one, on line 5"},
      {"elements nested too deep", set + article("1", "One.") + article("2", deep) + article("3", "Three.") + end,
       {{"1", 3}, {"3", 5}}, 4, "elements nested over 256 deep"},
      {"broken between records", set + article("1", "One.") + "<x a=1/>\n" + article("3", "Three.") + end,
       {{"1", 3}, {"3", 5}}, 4, "not well-formed XML"},
      // Two efetch answers pasted into one file: the second's records are read.
      {"two documents", set + article("1", "One.") + end + set + article("2", "Two.") + end,
       {{"1", 3}, {"2", 7}}, 5, "not well-formed XML (junk after document element)"},
      {"cut short in a record", set + article("1", "One.") + "<PubmedArticle><MedlineCitation><PMID>2</PMID>\n",
       {{"1", 3}}, 4, "not well-formed XML (no element found)"},
      {"cut short after a record", set + article("1", "One.") + article("2", "Two."), {{"1", 3}, {"2", 4}}, 4,
       "not well-formed XML (no element found)"},
      // The root's start tag, on two lines, opens each new parser: the namespaces of
      // Atom and arXiv hold, and so do the lines.
      {"an Atom feed",
       "<feed xmlns=\"http://www.w3.org/2005/Atom\"\n      xmlns:arxiv=\"http://arxiv.org/schemas/atom\">\n"
       "<entry><id>http://arxiv.org/abs/2101.00001v1</id><summary>One.</summary></entry>\n"
       "<entry><id>http://arxiv.org/abs/2101.00002v1</id><summary>Two < 3.</summary></entry>\n"
       "<entry><id>http://arxiv.org/abs/2101.00003v1</id>\n<summary>Three.</summary><arxiv:doi>10.1/3</arxiv:doi>"
       "</entry>\n</feed>\n",
       {{"2101.00001", 3}, {"2101.00003", 5}}, 4, "not well-formed XML (not well-formed (invalid token))"},
      {"an Atom feed with a prefix",
       "<a:feed xmlns:a=\"http://www.w3.org/2005/Atom\">\n"
       "<a:entry><a:id>http://arxiv.org/abs/2101.00001v1</a:id><a:summary>One.</a:summary></a:entry>\n"
       "<a:entry><a:id>http://arxiv.org/abs/2101.00002v1</a:id><a:summary>Two.</a:summry></a:entry>\n"
       "<a:entry><a:id>http://arxiv.org/abs/2101.00003v1</a:id><a:summary>Three.</a:summary></a:entry>\n"
       "</a:feed>\n",
       {{"2101.00001", 2}, {"2101.00003", 4}}, 3, "not well-formed XML (mismatched tag)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const Read read = read_xml(c.content);
    EXPECT_EQ(read.records, c.records);
    ASSERT_EQ(read.problems.size(), 1u);
    EXPECT_EQ(read.problems[0].line, c.line) << read.problems[0].what;
    EXPECT_TRUE(abstracts::testing::contains(read.problems[0].what, c.says)) << read.problems[0].what;
  }
}

// The arXiv namespace, declared on the root only, holds in a parser started
// after a broken entry.
TEST(Issue41, AnAtomEntryAfterABrokenOneKeepsItsNamespaces) {
  std::string feed = kAtom2025;
  const auto second = feed.find("<entry>", feed.find("<entry>") + 1);
  feed.insert(second, "<entry><id>http://arxiv.org/abs/2101.00009v1</id><summary>&bad;</summary></entry>\n");
  TempDir dir;
  write_file(dir / "feed.xml", feed);
  auto reader = Reader::open(dir / "feed.xml");
  const auto records = all(*reader);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].fields.doi, "10.1103/PhysRevD.76.013009");
  EXPECT_EQ(records[1].fields.arxiv_id, "hep-th/9901001");
  EXPECT_EQ(records[1].fields.categories, std::vector<std::string>{"hep-th"}) << "arxiv:primary_category";
  EXPECT_EQ(reader->rejected(), 1u);
}

// The next record's start tag is found wherever the file's chunks and a long
// line's pieces cut it, however far after the broken record it comes, and what
// lies between is no tag over 1 MiB.
TEST(Issue41, TheNextXmlRecordIsFoundAcrossChunksAndPieces) {
  constexpr std::size_t kMiB = 1 << 20;
  // Two MiB of lines after what is wrong, then the next record.
  std::string far = "<PubmedArticleSet>\n" + article("1", "One.") + "<PubmedArticle><PMID>2</PMID>&bad;\n";
  for (int i = 0; i < 30000; ++i) far += "words of a broken record, words of a broken record, words\n";
  const auto far_line = static_cast<std::uint32_t>(std::count(far.begin(), far.end(), '\n')) + 1;
  far += article("3", "Three.") + "</PubmedArticleSet>\n";
  Read read = read_xml(far);
  EXPECT_EQ(read.records, (Records{{"1", 2}, {"3", far_line}}));
  ASSERT_EQ(read.problems.size(), 1u);
  EXPECT_EQ(read.problems[0].line, 3u);

  // One line of XML, read in pieces of 1 MiB: the next record's tag before the
  // first piece's end, across it, and just after it.
  const std::string tag = "<PubmedArticle>";
  for (const std::size_t before_end : {tag.size() + 1, tag.size(), tag.size() - 1, tag.size() - 2, std::size_t{7},
                                       std::size_t{1}, std::size_t{0}}) {
    SCOPED_TRACE(before_end);
    std::string one = article("1", "One."), three = article("3", "Three.");
    one.pop_back();  // the '\n' of its line: the file is one line
    three.pop_back();
    std::string line = "<PubmedArticleSet>" + one + "<PubmedArticle>&bad;";
    line.resize(kMiB - before_end, ' ');
    line += three + "</PubmedArticleSet>\n";
    read = read_xml(line);
    EXPECT_EQ(read.records, (Records{{"1", 1}, {"3", 1}}));
    EXPECT_EQ(read.problems.size(), 1u);
  }
}

// The records of a file cut short stay, its end said in a warning; indexed
// strictly, it changes nothing, whether it is the first file of a bulk build or
// goes into an index that has abstracts (as a malformed file did before).
TEST(Issue41, AnXmlFileCutShortKeepsItsRecordsUnlessStrict) {
  TempDir dir;
  const std::string cut = std::string(kPubmed).substr(0, std::string(kPubmed).rfind("</PubmedArticleSet>"));
  write_file(dir / "cut.xml", cut);
  write_file(dir / "good.xml", kAtom2025);
  auto reader = Reader::open(dir / "cut.xml");
  EXPECT_EQ(all(*reader).size(), 2u);
  const auto problems = reader->take_problems();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].what, "not well-formed XML (no element found)");
  for (const bool bulk : {true, false}) {
    SCOPED_TRACE(bulk ? "bulk" : "file by file");
    TempDir index_dir;
    auto writer = Writer::open(index_dir / "index");
    if (!bulk) writer.index_file(dir / "good.xml");
    IndexOptions strict;
    strict.strict = true;
    EXPECT_THROW(writer.index({dir / "cut.xml"}, strict), InputError);
    writer.commit();
    EXPECT_EQ(Index::open(index_dir / "index").stats().abstracts, bulk ? 0u : 2u);
    EXPECT_FALSE(Index::open(index_dir / "index").get("10.1097/md.0000000000015437"));

    IndexOptions lenient;
    std::vector<std::string> warnings;
    lenient.on_warning = [&](const std::exception& e) { warnings.push_back(e.what()); };
    EXPECT_EQ(writer.index({dir / "cut.xml"}, lenient), 0u);
    writer.commit();
    EXPECT_EQ(Index::open(index_dir / "index").stats().abstracts, bulk ? 2u : 4u);
    EXPECT_TRUE(Index::open(index_dir / "index").get("10.1097/md.0000000000015437"));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(warnings[0].starts_with((dir / "cut.xml").string() + ":")) << warnings[0];
    EXPECT_TRUE(warnings[0].ends_with(": not well-formed XML (no element found); record skipped")) << warnings[0];
  }
}

// Every record of the shared real files with a non-empty abstract is read (as
// the data's README counts them, with ElementTree), and none without one.
TEST(Issue18Xml, SharedFilesReadEveryRecordWithAnAbstract) {
  const fs::path formats = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "formats";
  if (!fs::exists(formats)) GTEST_SKIP() << "no shared data at " << formats;
  const struct {
    const char* file;
    Format format;
    std::size_t with_abstract, without;
  } files[] = {
      {"pubmed-xml/main_finding_recognition--pubmed_result.xml", Format::kPubmedXml, 102, 19},
      {"pubmed-xml/mokztk-pubmed-parser--CPFE.xml", Format::kPubmedXml, 108, 3},
      {"arxiv-atom/ReadArxiV4mENow--arxiv_results.xml", Format::kArxivAtom, 63, 0},
      {"arxiv-atom/di-proposal--arxiv.xml", Format::kArxivAtom, 10, 0},
  };
  for (const auto& f : files) {
    auto reader = Reader::open(formats / f.file);
    EXPECT_EQ(reader->format(), f.format) << f.file;
    std::size_t n = 0, with_authors = 0, with_date = 0, with_id = 0;
    while (auto r = reader->next()) {
      ++n;
      with_authors += !r->fields.authors.empty();
      with_date += r->fields.year != 0;
      with_id += !(f.format == Format::kPubmedXml ? r->fields.pmid : r->fields.arxiv_id).empty();
      EXPECT_FALSE(r->fields.title.empty()) << f.file << ":" << r->line;
      EXPECT_FALSE(r->fields.venue.empty()) << f.file << ":" << r->line;
    }
    EXPECT_EQ(n, f.with_abstract) << f.file;
    EXPECT_EQ(reader->skipped(), f.without) << f.file;
    EXPECT_GT(with_authors, n * 9 / 10) << f.file;
    EXPECT_EQ(with_date, n) << f.file;
    EXPECT_EQ(with_id, n) << f.file;
  }
}

// Issue 40: a PubMed citation and an Atom entry keep their first kMaxAuthors
// authors and count them all.
TEST(Issue40, XmlRecordsKeepTheFirstTenThousandAuthorsAndCountThemAll) {
  const std::size_t n = kMaxAuthors + 3;
  std::string pubmed =
      "<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article>"
      "<Abstract><AbstractText>Many.</AbstractText></Abstract><AuthorList>\n";
  std::string atom =
      "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><summary>Many.</summary>\n";
  for (std::size_t i = 0; i < n; ++i) {
    const std::string family = "Family" + std::to_string(i);
    pubmed += "<Author><LastName>" + family + "</LastName><ForeName>Given</ForeName></Author>\n";
    atom += "<author><name>Given " + family + "</name></author>\n";
  }
  pubmed += "</AuthorList></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>\n";
  atom += "</entry></feed>\n";
  TempDir dir;
  for (const auto& [name, content] :
       {std::pair{"authors.xml", pubmed}, std::pair{"authors.atom", atom}}) {
    SCOPED_TRACE(name);
    auto reader = open(dir, name, content);
    const auto records = all(*reader);
    ASSERT_EQ(records.size(), 1u);
    const Abstract& f = records[0].fields;
    ASSERT_EQ(f.authors.size(), kMaxAuthors);
    EXPECT_EQ(f.author_count, n);
    EXPECT_EQ(f.authors.back().family, "Family9999");
    EXPECT_EQ(f.authors.back().given, "Given");
  }
}

// Issue 40: an Atom entry over 16 MiB is left out, its text dropped as it is
// read, and the entries around it read.
TEST(Issue40, AnAtomEntryOverItsCapIsLeftOut) {
  std::string atom =
      "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<entry><summary>Before.</summary></entry>\n"
      "<entry><title>Big</title><summary>\n";
  const std::string line = "words of a summary too long to keep\n";
  while (atom.size() < (17u << 20)) atom += line;
  atom +=
      "</summary><author><name>A. Late</name></author></entry>\n"
      "<entry><summary>After.</summary></entry>\n</feed>\n";
  TempDir dir;
  auto reader = open(dir, "big.atom", atom);
  const auto records = all(*reader);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].raw_text, "Before.");
  EXPECT_EQ(records[1].raw_text, "After.");
  EXPECT_TRUE(records[1].fields.authors.empty()) << "nothing of the entry left out";
  EXPECT_EQ(records[1].fields.title, "");
  EXPECT_EQ(reader->rejected(), 1u);
  const auto problems = reader->take_problems();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].line, 3u);
  EXPECT_EQ(problems[0].what, "an XML record over 16 MiB");
}

// Issue 40: an attribute default in the internal subset would be applied to the
// text ("INJECTED: ..."), though no DTD is read: refused on its line. A
// declaration without a default changes nothing and is read.
TEST(Issue40, AnAttributeDefaultInTheInternalSubsetIsRefused) {
  const std::string article =
      "<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>7</PMID><Article><Abstract>"
      "<AbstractText>Okapis are shy.</AbstractText></Abstract></Article></MedlineCitation>"
      "</PubmedArticle></PubmedArticleSet>\n";
  const auto e = error_reading(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE PubmedArticleSet [\n"
      "<!ATTLIST AbstractText Label CDATA \"INJECTED\">\n]>\n" +
      article);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), 3u) << e->what();
  EXPECT_TRUE(abstracts::testing::contains(e->what(),
                                           "default for the attribute 'Label' of <AbstractText>"))
      << e->what();
  TempDir dir;
  auto reader = open(
      dir, "implied.xml",
      "<!DOCTYPE PubmedArticleSet [\n<!ATTLIST AbstractText Label CDATA #IMPLIED>\n]>\n" + article);
  const auto records = all(*reader);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].raw_text, "Okapis are shy.");
}

}  // namespace
}  // namespace abstracts::indexer
