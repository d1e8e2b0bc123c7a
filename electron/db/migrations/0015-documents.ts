import type { Migration } from '../migrate.ts';

// Documents (issue 7): .txt, .md, .pdf and .docx files the user imports, kept as text chunks with stable
// ids (`d<document>c<seq>`) and locations ("page 3", "lines 40–80"), searchable in FTS5 beside mail and
// usable as sources of a grounded answer. The same file imported twice (same content hash) is one document.
export const m0015: Migration = {
  version: 15,
  name: 'documents',
  up(db) {
    db.exec(`
      CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('txt', 'md', 'pdf', 'docx')),
        size INTEGER NOT NULL,
        content_hash TEXT NOT NULL UNIQUE,
        imported_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE document_chunks (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        location TEXT NOT NULL,
        text TEXT NOT NULL,
        UNIQUE (document_id, seq)
      ) STRICT;

      CREATE VIRTUAL TABLE document_chunks_fts USING fts5(
        text, content = 'document_chunks', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER document_chunks_fts_insert AFTER INSERT ON document_chunks BEGIN
        INSERT INTO document_chunks_fts (rowid, text) VALUES (new.id, new.text);
      END;
      CREATE TRIGGER document_chunks_fts_delete AFTER DELETE ON document_chunks BEGIN
        INSERT INTO document_chunks_fts (document_chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
      END;
    `);
  },
};
