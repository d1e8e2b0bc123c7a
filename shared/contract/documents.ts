// The user's own documents beside the mail (DESIGN §10): import, list, read, search.
import { z } from 'zod';
import { EpochMs, Id, PathArg, SearchLimit, SearchQuery } from './fields.ts';

const DocumentKind = z.enum(['txt', 'md', 'pdf', 'docx']);

export const documentChannels = {
  'documents:import': {
    // Files the user chose: .txt, .md, .pdf, .docx. The same file twice is one document.
    request: z.object({ paths: z.array(PathArg).min(1).max(100) }).strict(),
    response: z.object({
      imported: z.array(
        z.object({
          id: Id,
          name: z.string(),
          chunks: z.number().int().nonnegative(),
          duplicate: z.boolean(),
        }),
      ),
      failed: z.array(z.object({ path: z.string(), reason: z.string() })),
    }),
  },
  'documents:list': {
    request: z.object({}).strict(),
    response: z.array(
      z.object({
        id: Id,
        name: z.string(),
        kind: DocumentKind,
        size: z.number().int().nonnegative(),
        importedAt: EpochMs,
        chunks: z.number().int().nonnegative(),
      }),
    ),
  },
  'documents:read': {
    // The page a document citation opens: the document's chunks as text, around `chunkId` when the whole
    // document is over 256 KiB (`note` says what is shown then).
    request: z
      .object({
        documentId: Id,
        chunkId: z
          .string()
          .regex(/^d\d+c\d+$/)
          .max(32)
          .optional(),
      })
      .strict(),
    response: z.object({
      id: Id,
      name: z.string(),
      kind: DocumentKind,
      chunks: z.array(z.object({ id: z.string(), location: z.string(), text: z.string() })),
      note: z.string().nullable(),
    }),
  },
  'documents:search': {
    // Beside mail: the chunks that match, with where they stand ("page 3") and a snippet.
    request: z
      .object({
        query: SearchQuery,
        limit: SearchLimit,
      })
      .strict(),
    response: z.array(
      z.object({
        id: z.string(),
        documentId: Id,
        name: z.string(),
        location: z.string(),
        snippet: z.string(),
      }),
    ),
  },
} as const;
