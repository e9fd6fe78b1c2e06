INSERT INTO items (itemID, itemTypeID, libraryID, key, version) VALUES (1, 22, 1, 'TAGS0001', 1);
INSERT INTO itemDataValues VALUES (1, 'Tagged'), (2, 'An abstract with many tags.');
INSERT INTO itemData VALUES (1, 1, 1), (1, 2, 2);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 20000)
  INSERT INTO tags (name) SELECT printf('t%05d', i) FROM n;
INSERT INTO itemTags SELECT 1, tagID, 0 FROM tags;
