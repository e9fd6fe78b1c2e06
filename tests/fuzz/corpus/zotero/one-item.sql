INSERT INTO items (itemID, itemTypeID, libraryID, key, version) VALUES (1, 22, 1, 'AAAA1111', 1);
INSERT INTO itemDataValues VALUES (1, 'A title'), (2, 'An abstract about okapis.');
INSERT INTO itemData VALUES (1, 1, 1), (1, 2, 2);
INSERT INTO creators VALUES (1, 'Ada', 'Lovelace', 0), (2, '', 'Acme Lab', 1);
INSERT INTO itemCreators VALUES (1, 1, 8, 0), (1, 2, 8, 1);
