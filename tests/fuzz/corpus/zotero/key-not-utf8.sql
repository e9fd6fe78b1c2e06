INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (2, 'group', 1, 1), (3, 'feed', 0, 0);
INSERT INTO groups VALUES (77, 2, 'A group', '', 1);
INSERT INTO items (itemID, itemTypeID, libraryID, key, version) VALUES (1, 22, 1, 'LIVEÿ001', 1), (2, 22, 2, 'GROUP001', 1), (3, 22, 3, 'FEED0001', 1), (4, 22, 1, 'TRASH001', 1), (5, 3, 1, 'NOTE0001', 1);
INSERT INTO deletedItems (itemID) VALUES (4);
INSERT INTO itemDataValues VALUES (1, 'An abstract.');
INSERT INTO itemData VALUES (1, 2, 1), (2, 2, 1), (3, 2, 1), (4, 2, 1), (5, 2, 1);
