INSERT INTO items (itemID, itemTypeID, libraryID, key, version) VALUES (1, 22, 1, printf('%.*c', 100000, 'K'), 1);
INSERT INTO items (itemID, itemTypeID, libraryID, key, version) VALUES (2, 22, 1, 'TAB	KEY
LINE\', 1);
INSERT INTO items (itemID, itemTypeID, libraryID, key, version, dateModified) VALUES (3, 22, 1, CAST(x'4e55004c' AS TEXT), 1, 'a	date');
INSERT INTO itemDataValues VALUES (1, 'An abstract about keys.');
INSERT INTO itemData VALUES (1, 2, 1), (2, 2, 1), (3, 2, 1);
