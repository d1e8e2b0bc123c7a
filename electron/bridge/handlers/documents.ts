// The documents channels of the bridge: import (each file succeeds or fails on its own), list, read a page (the
// search is search.ts's).
import { DocumentError } from '../../documents/document-error.ts';
import type { prepareDocuments } from '../../documents/documents.ts';
import { readDocument } from '../../documents/read.ts';
import type { Handlers } from '../dispatch.ts';

type Deps = { documents: ReturnType<typeof prepareDocuments> };

export function documentHandlers({
  documents,
}: Deps): Pick<Handlers, 'documents:import' | 'documents:list' | 'documents:read'> {
  return {
    'documents:import': async (r) => {
      const imported = [];
      const failed = [];
      for (const path of r.paths) {
        try {
          imported.push(await documents.import(path));
        } catch (e) {
          // The reasons are Skimmer's sentences (documents.ts); anything else is a bug and goes to the log.
          if (!(e instanceof DocumentError)) throw e;
          failed.push({ path, reason: e.message });
        }
      }
      return { imported, failed };
    },
    'documents:list': () => documents.list(),
    'documents:read': (r) => readDocument(documents, r),
  };
}
