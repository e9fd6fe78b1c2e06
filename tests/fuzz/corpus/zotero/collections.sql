INSERT INTO items (itemID, itemTypeID, libraryID, key, version) VALUES (1, 22, 1, 'COLL0001', 1);
INSERT INTO itemDataValues VALUES (1, 'An abstract in collections.');
INSERT INTO itemData VALUES (1, 2, 1);
INSERT INTO collections (collectionID, collectionName, parentCollectionID, libraryID, key) VALUES
  (1, 'Thesis', NULL, 1, 'C1'), (2, 'Chapter 2', 1, 1, 'C2'), (3, 'Loop A', 4, 1, 'C3'), (4, 'Loop B', 3, 1, 'C4');
INSERT INTO collectionItems (collectionID, itemID) VALUES (1, 1), (2, 1), (3, 1), (4, 1);
