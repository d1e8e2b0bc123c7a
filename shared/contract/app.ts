// The app itself: what it is and how it keeps keys, and opening a link the user confirmed.
import { z } from 'zod';

export const VaultInfo = z.object({
  backend: z.enum(['safe-storage', 'file']),
  protection: z.enum(['encrypted', 'not-encrypted', 'file-permissions']),
  message: z.string(),
});
export type VaultInfo = z.infer<typeof VaultInfo>;

export const appChannels = {
  'app:info': {
    request: z.object({}).strict(),
    response: z.object({
      version: z.string(),
      mode: z.enum(['desktop', 'browser']),
      vault: VaultInfo,
      messages: z.number().int().nonnegative(),
      demoAvailable: z.boolean(),
    }),
  },
} as const;

export const linkChannels = {
  'link:open': {
    // Called only after the user has seen the real URL in Skimmer's own confirmation.
    request: z.object({ url: z.string().min(1).max(8192) }).strict(),
    response: z.object({ opened: z.boolean(), url: z.string() }),
  },
} as const;
