// `skimmer search QUERY`: the mail's full-text search (newest first, or by relevance with --relevance), or with
// --documents the imported documents', through the `mail:search` and `documents:search` channels. It runs on
// search-reader.ts, not the whole app: a search loads the searches alone (issue 18: the command line's start).
import type { SearchReader } from '../search-reader.ts';
import { bridgeCall } from './bridge-call.ts';
import type { Command } from './command.ts';

export const searchCommand: Command<SearchReader> = async (reader, args, values, io) => {
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (values.documents) {
    const r = await bridgeCall(reader, 'documents:search', { query: args.join(' '), limit }, io);
    if (!r.ok) return r.exitCode;
    const hits = reader.channels['documents:search'].response.parse(r.value);
    for (const h of hits)
      io.out(values.json ? JSON.stringify(h) : `${h.name}, ${h.location}  [${h.id}]\n    ${h.snippet}`);
    if (!values.json && hits.length === 0) io.out('No document matches.');
    return 0;
  }
  const order = values.relevance ? 'relevance' : 'newest';
  const r = await bridgeCall(reader, 'mail:search', { query: args.join(' '), limit, order }, io);
  if (!r.ok) return r.exitCode;
  const hits = reader.channels['mail:search'].response.parse(r.value);
  for (const h of hits) {
    if (values.json) io.out(JSON.stringify(h));
    else io.out(`${new Date(h.date).toISOString().slice(0, 10)}  ${h.from}  ${h.subject}\n    ${h.snippet}`);
  }
  if (!values.json && hits.length === 0) io.out('No messages match.');
  return 0;
};
