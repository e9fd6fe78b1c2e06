// The tables and columns of a Zotero database that abstracts reads, as Zotero
// 5-9 declares them (userdata 120), without the triggers and the tables nobody
// reads here; with the user's library, the item types and fields the tests
// use. For the tests' Zotero libraries (zotero_library.h) and the Zotero
// fuzzer (tests/fuzz/zotero_fuzzer.cc), which build on it.
#ifndef ABSTRACTS_TESTS_SUPPORT_ZOTERO_SCHEMA_H_
#define ABSTRACTS_TESTS_SUPPORT_ZOTERO_SCHEMA_H_

namespace abstracts::testing {

inline constexpr const char* kZoteroSchema = R"sql(
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
  filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0, storageVersion INT NOT NULL DEFAULT 0,
  lastSync INT NOT NULL DEFAULT 0, archived INT NOT NULL DEFAULT 0);
CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL,
  description TEXT NOT NULL, version INT NOT NULL);
CREATE TABLE itemTypesCombined (itemTypeID INT NOT NULL, typeName TEXT NOT NULL, display INT DEFAULT 1 NOT NULL,
  custom INT NOT NULL, PRIMARY KEY (itemTypeID));
CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT, fieldFormatID INT,
  custom INT NOT NULL, PRIMARY KEY (fieldID));
CREATE TABLE baseFieldMappingsCombined (itemTypeID INT, baseFieldID INT, fieldID INT,
  PRIMARY KEY (itemTypeID, baseFieldID, fieldID));
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
  dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL,
  version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE INDEX itemData_fieldID ON itemData(fieldID);
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT,
  UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE itemTypeCreatorTypes (itemTypeID INT, creatorTypeID INT, primaryField INT,
  PRIMARY KEY (itemTypeID, creatorTypeID));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1,
  orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex),
  UNIQUE (itemID, orderIndex));
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL, PRIMARY KEY (itemID, tagID));
CREATE INDEX itemTags_tagID ON itemTags(tagID);
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
  parentCollectionID INT DEFAULT NULL, clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0,
  UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0,
  PRIMARY KEY (collectionID, itemID));
CREATE INDEX collectionItems_itemID ON collectionItems(itemID);
INSERT INTO version VALUES ('userdata', 120);
INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (1, 'user', 1, 1);
INSERT INTO itemTypesCombined (itemTypeID, typeName, custom) VALUES
  (1, 'annotation', 0), (2, 'attachment', 0), (3, 'note', 0), (22, 'journalArticle', 0);
INSERT INTO fieldsCombined (fieldID, fieldName, custom) VALUES
  (1, 'title', 0), (2, 'abstractNote', 0), (6, 'date', 0), (12, 'publicationTitle', 0), (13, 'url', 0),
  (16, 'extra', 0), (26, 'DOI', 0);
INSERT INTO creatorTypes VALUES (8, 'author'), (10, 'editor');
INSERT INTO itemTypeCreatorTypes VALUES (22, 8, 1), (22, 10, 0);
)sql";

}  // namespace abstracts::testing

#endif  // ABSTRACTS_TESTS_SUPPORT_ZOTERO_SCHEMA_H_
