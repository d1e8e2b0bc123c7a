// A model service for grounded answers (issue 7) on 127.0.0.1, speaking Chat Completions: it reads the source
// ids from the untrusted blocks of the system prompt and answers JSON `{answer, citations}` citing what `cite`
// picks of them. It records what it was sent; while `hold` is set, answers wait for `release()`, so a Stop
// surely comes while Skimmer is waiting. Shared by the summary bridge tests and the summary e2e tests.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type CitingModel = {
  /** A base URL as a user would configure it. */
  base: string;
  /** Each request: the system prompt, the user turn, the source ids it carried, and what was cited. */
  received: { system: string; question: string; ids: string[]; cited: string[] }[];
  /** Which ids to cite, of those the sources carry; all of them unless set. */
  cite: (ids: string[]) => string[];
  hold: boolean;
  /** Answers waiting for `release`. */
  waiting(): number;
  release(): void;
  close(): Promise<void>;
};

export async function startCitingModel(
  answer: (cited: string[]) => string = (cited) => cited.map((id) => `Point [${id}].`).join(' '),
): Promise<CitingModel> {
  const held: (() => void)[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const messages = (JSON.parse(raw) as { messages: { content: string }[] }).messages;
    const system = messages[0]?.content ?? '';
    const ids = [...system.matchAll(/source="source:([A-Za-z0-9_-]+)"/g)].map((m) => m[1] as string);
    const cited = model.cite(ids);
    model.received.push({ system, question: messages[1]?.content ?? '', ids, cited });
    const content = JSON.stringify({ answer: answer(cited), citations: cited });
    const reply = () => {
      if (res.destroyed) return;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
    };
    if (model.hold) held.push(reply);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const model: CitingModel = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received: [],
    cite: (ids) => ids,
    hold: false,
    waiting: () => held.length,
    release() {
      for (const reply of held.splice(0)) reply();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return model;
}
