// One server-sent event as the transport hands it to a provider's stream mapper: the `event:` name when
// the server gave one, and the `data:` lines joined (WHATWG HTML §9.2 event stream interpretation).
export type SseFrame = { event?: string; data: string };
