#!/usr/bin/python3
"""Reads an export back with an independent reader from Debian and prints its
records as one JSON array, each a flat object of the fields that reader gave,
for tests/cli/issue43_export_test.cc to compare with what was exported.

  export_readback.py pandoc-bibtex|pandoc-biblatex|pandoc-csljson FILE
      pandoc 2.17 (-f bibtex|biblatex|csljson -t csljson): CSL-JSON variables
  export_readback.py bibtexparser FILE
      python3-bibtexparser, LaTeX turned into Unicode (convert_to_unicode)
  export_readback.py ris2xml FILE
      bibutils' ris2xml (RIS -> MODS XML), the MODS elements named as CSL's

Fields: key, type, title, author and editor (lists of [family, given]; an
organisation is [name, ""]), issued ("2007-04-02" to the precision given),
container, volume, issue, page, publisher, DOI, URL, ISSN, ISBN, PMID, PMCID,
arxiv, keyword (one string, ", " between), abstract, note; bibtexparser gives
its raw field names besides. Only what the reader gave is in a record.
"""
import json
import html
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def csl_names(names):
    out = []
    for n in names or []:
        if "literal" in n:
            out.append([n["literal"], ""])
        else:
            # pandoc splits particles off as BibTeX does ("de Koter" -> "de" "Koter").
            family = ""
            for k in ("dropping-particle", "non-dropping-particle", "family"):
                if n.get(k):
                    # "d'" + "Enterria": an apostrophe joins without a space.
                    family += ("" if not family or family[-1] in "'\u2019-" else " ") + n[k]
            given = n.get("given", "") + (", " + n["suffix"] if n.get("suffix") else "")
            out.append([family, given])
    return out


SUPERSCRIPTS = dict(zip("0123456789+-\u2212=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱ"))
SUBSCRIPTS = dict(zip("0123456789+-\u2212=()", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎"))


def unicode_scripts(text):
    """pandoc reads CSL-JSON's superscript and subscript characters as markup,
    which it writes as such ("10⁻⁵" -> "10<sup>−5</sup>", "™" -> "<sup>TM</sup>"):
    written back as the characters."""
    text = text.replace("<sup>TM</sup>", "™")
    for tag, table in (("sup", SUPERSCRIPTS), ("sub", SUBSCRIPTS)):
        text = re.sub("<%s>([^<]*)</%s>" % (tag, tag),
                      lambda m: "".join(table[c] for c in m.group(1))
                      if all(c in table for c in m.group(1)) else m.group(0), text)
    return text


def csl_record(item, csl_input):
    """`csl_input`: pandoc read CSL-JSON, whose title and abstract are rich text."""
    r = {}
    simple = {"id": "key", "type": "type", "title": "title", "container-title": "container",
              "volume": "volume", "issue": "issue", "page": "page", "publisher": "publisher",
              "DOI": "DOI", "URL": "URL", "ISSN": "ISSN", "ISBN": "ISBN", "PMID": "PMID",
              "PMCID": "PMCID", "keyword": "keyword", "abstract": "abstract", "note": "note"}
    for k, name in simple.items():
        if k in item:
            value = str(item[k])
            if csl_input:
                value = unicode_scripts(value)
                if name in ("title", "abstract"):
                    # The export writes a "<" that could start a tag, and an "&" that
                    # could start an entity, as entities, which pandoc keeps as written
                    # (abstracts and citeproc-js read them as the characters).
                    value = html.unescape(value)
            r[name] = value
    # BibTeX's number: CSL's number, or collection-number for a paper in proceedings.
    for k in ("number", "collection-number"):
        if k in item:
            r["number"] = str(item[k])
    if "author" in item:
        r["author"] = csl_names(item["author"])
    if "editor" in item:
        r["editor"] = csl_names(item["editor"])
    parts = (item.get("issued") or {}).get("date-parts")
    if parts and parts[0]:
        r["issued"] = "-".join(str(p).zfill(2) if i else str(p) for i, p in enumerate(parts[0]))
    number = str(item.get("number", ""))
    if number.startswith("arXiv:"):
        r["arxiv"] = number[len("arXiv:"):]
    return r


def pandoc(fmt, path):
    out = subprocess.run(["pandoc", "-f", fmt, "-t", "csljson", path], check=True,
                         capture_output=True).stdout
    return [csl_record(item, fmt == "csljson") for item in json.loads(out)]


def bibtexparser_records(path):
    import bibtexparser
    from bibtexparser.bparser import BibTexParser
    from bibtexparser.customization import convert_to_unicode
    parser = BibTexParser(common_strings=True)
    parser.customization = convert_to_unicode
    with open(path, encoding="utf-8") as f:
        db = bibtexparser.load(f, parser=parser)
    out = []
    for e in db.entries:
        r = {k.lower(): v for k, v in e.items() if k not in ("ENTRYTYPE", "ID")}
        r["key"] = e["ID"]
        r["type"] = e["ENTRYTYPE"]
        out.append(r)
    return out


M = "{http://www.loc.gov/mods/v3}"


def mods_name(name):
    given = [p.text or "" for p in name.findall(M + "namePart[@type='given']")]
    family = [p.text or "" for p in name.findall(M + "namePart[@type='family']")]
    suffix = [p.text or "" for p in name.findall(M + "namePart[@type='suffix']")]
    if family or given:
        return [" ".join(family), " ".join(given + suffix)]
    return [" ".join(p.text or "" for p in name.findall(M + "namePart")), ""]


def mods_title(node):
    for info in node.findall(M + "titleInfo"):
        if info.get("type") is None:
            title = info.findtext(M + "title") or ""
            sub = info.findtext(M + "subTitle")
            if title or sub:
                # bibutils splits a title at ": " and after "?" or "!".
                return title + ((" " if title[-1:] in "?!" else ": ") + sub if sub else "")
    for info in node.findall(M + "titleInfo"):
        if info.get("type") == "abbreviated" and info.findtext(M + "title"):
            return info.findtext(M + "title")
    return ""


def mods_record(mods):
    r = {"key": mods.get("ID")}
    r["type"] = "|".join(g.text or "" for g in mods.iter(M + "genre"))
    title = mods_title(mods)
    if title:
        r["title"] = title
    authors = [mods_name(n) for n in mods.findall(M + "name")]
    if authors:
        r["author"] = authors
    hosts = list(mods.iter(M + "relatedItem"))
    editors = [mods_name(n) for h in hosts for n in h.findall(M + "name")]
    if editors:
        r["editor"] = editors
    for h in hosts:
        container = mods_title(h)
        if container:
            r["container"] = container
            break
    date = mods.findtext(M + "originInfo/" + M + "dateIssued")
    if date:
        r["issued"] = date
    for publisher in mods.iter(M + "publisher"):
        r["publisher"] = publisher.text or ""
    for ident in mods.iter(M + "identifier"):
        kind = {"doi": "DOI", "issn": "ISSN", "isbn": "ISBN", "pubmed": "PMID",
                "citekey": "key", "arXiv": "arxiv"}.get(ident.get("type"))
        if kind in ("ISSN", "ISBN") and kind in r:
            r[kind] += ", " + (ident.text or "")  # one SN line each
        elif kind:
            r[kind] = ident.text or ""
    url = mods.findtext(M + "location/" + M + "url")
    if url:
        r["URL"] = url
    # A part of the work itself, or of its host (a chapter's book).
    for part in mods.iter(M + "part"):
        for detail in part.findall(M + "detail"):
            name = {"volume": "volume", "issue": "issue", "page": "page"}.get(detail.get("type"))
            if name:
                r[name] = detail.findtext(M + "number") or ""
        extent = part.find(M + "extent")
        if extent is not None:
            start, end = extent.findtext(M + "start"), extent.findtext(M + "end")
            r["page"] = (start or "") + ("-" + end if end else "")
    abstract = mods.findtext(M + "abstract")
    if abstract is not None:
        r["abstract"] = abstract
    notes = [n.text or "" for n in mods.findall(M + "note")]
    if notes:
        r["note"] = "\n".join(notes)
    topics = [t.text or "" for t in mods.iter(M + "topic")]
    if topics:
        r["keyword"] = ", ".join(topics)
    return r


def ris2xml(path):
    out = subprocess.run(["ris2xml", "-i", "utf8", "-o", "utf8", path], check=True,
                         capture_output=True).stdout
    root = ET.fromstring(out.decode("utf-8-sig"))
    return [mods_record(m) for m in root.findall(M + "mods")]


def main():
    reader, path = sys.argv[1], sys.argv[2]
    if reader.startswith("pandoc-"):
        records = pandoc(reader[len("pandoc-"):], path)
    elif reader == "bibtexparser":
        records = bibtexparser_records(path)
    elif reader == "ris2xml":
        records = ris2xml(path)
    else:
        sys.exit("unknown reader " + reader)
    json.dump(records, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
