// A DNS server of the tests' own on 127.0.0.1 (dns2, over UDP), answering from a table the test writes: A records
// that map a test domain's host names to loopback, SRV and MX records. Code under test reaches it through a
// `dns.promises.Resolver` whose servers are set to it (`resolverFor`); the system's resolver is never touched.
// `startSilentDns` is one that reads every question and never answers, for timeouts.
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import { afterAll } from 'vitest';

const { Packet } = dns2;

// RFC 2782: "name compression is not to be used" for an SRV record's target, and c-ares refuses an answer that
// compresses it (EBADRESP). dns2 compresses every name it writes, so its SRV writer writes this one in full.
type Writer = { names?: Map<string, number> | undefined };
const srvCodec = (Packet.Resource as unknown as Record<string, { encode(r: unknown, w: Writer): void }>).SRV;
if (srvCodec) {
  const encode = srvCodec.encode;
  srvCodec.encode = (record, writer) => {
    const names = writer.names;
    writer.names = undefined;
    try {
      encode(record, writer);
    } finally {
      writer.names = names;
    }
  };
}

type Srv = { priority: number; weight: number; port: number; target: string };
export type Zone = {
  a?: Record<string, string>;
  srv?: Record<string, Srv[]>;
  mx?: Record<string, { priority: number; exchange: string }[]>;
};

export type DnsServer = {
  port: number;
  zone: Required<Zone>;
  /** Every question asked, `TYPE name` (`SRV _imaps._tcp.example.test`), in order. */
  asked: string[];
  close(): Promise<void>;
};

const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

export async function startDnsServer(zone: Zone = {}): Promise<DnsServer> {
  const table: Required<Zone> = { a: {}, srv: {}, mx: {}, ...zone };
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (!question) return send(response);
      const name = key(question.name);
      const base = { name: question.name, class: Packet.CLASS.IN, ttl: 1 };
      // dns2's types want Resource instances; its encoder reads plain objects of these fields.
      const answer = (r: object) => response.answers.push(r as unknown as dns2.Packet.Resource);
      let known = false;
      if (question.type === Packet.TYPE.A) {
        asked.push(`A ${name}`);
        const address = table.a[name];
        if (address) answer({ ...base, type: Packet.TYPE.A, address });
        known = address !== undefined;
      } else if (question.type === Packet.TYPE.SRV) {
        asked.push(`SRV ${name}`);
        for (const r of table.srv[name] ?? []) answer({ ...base, type: Packet.TYPE.SRV, ...r });
        known = name in table.srv;
      } else if (question.type === Packet.TYPE.MX) {
        asked.push(`MX ${name}`);
        for (const r of table.mx[name] ?? []) answer({ ...base, type: Packet.TYPE.MX, ...r });
        known = name in table.mx;
      } else {
        asked.push(`${question.type} ${name}`);
        // AAAA and the rest: the name exists when it has an A record, with no records of this type.
        known = name in table.a;
      }
      // NXDOMAIN for a name the table does not hold, as a real server answers.
      if (!known && !(name in table.a)) response.header.rcode = 3;
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (server.addresses().udp as AddressInfo).port;
  const instance: DnsServer = { port, zone: table, asked, close: () => server.close() };
  afterAll(() => instance.close());
  return instance;
}

/** A DNS server that reads every question and answers none. */
export async function startSilentDns(): Promise<{ port: number; questions: () => number }> {
  const socket = createSocket('udp4');
  let questions = 0;
  socket.on('message', () => {
    questions++;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return { port: (socket.address() as AddressInfo).port, questions: () => questions };
}

/** A resolver that asks only this server: what the code under test is given. */
export function resolverFor(port: number, timeoutMs = 2000): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  return resolver;
}
