import { z } from 'zod';

// One of your addresses (DESIGN §11): each account's own (`account` names it), and those you add for imported
// mail; what a reply is sent from, with its name and signature. Stored lower-cased.
const IdentityView = z.object({
  address: z.string(),
  name: z.string().nullable(),
  signature: z.string().nullable(),
  account: z.string().nullable(),
});
export const identityChannels = {
  'identity:list': {
    request: z.object({}).strict(),
    response: z.array(IdentityView),
  },
  'identity:add': {
    // Adds an address, or changes its name or signature: a field left out stays, null or blank clears it.
    request: z
      .object({
        address: z.string().max(320),
        name: z.string().max(200).nullable().optional(),
        signature: z.string().max(10_000).nullable().optional(),
      })
      .strict(),
    response: z.object({ identity: IdentityView, added: z.boolean() }),
  },
  'identity:remove': {
    // An account's own address is refused (invalid_request): it stays yours while the account does.
    request: z.object({ address: z.string().max(320) }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
} as const;
