UPDATE version SET version = 'abc' WHERE schema = 'userdata';
