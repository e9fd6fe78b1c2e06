INSERT INTO items (itemID, itemTypeID, libraryID, key, version) VALUES (1, 22, 1, 'BAD00001', 1);
INSERT INTO itemDataValues VALUES (1, CAST(x'41ff42' AS TEXT)), (2, CAST(x'410042' AS TEXT));
INSERT INTO itemData VALUES (1, 1, 1), (1, 2, 2);
INSERT INTO tags VALUES (1, CAST(x'c3' AS TEXT));
INSERT INTO itemTags VALUES (1, 1, 0);
