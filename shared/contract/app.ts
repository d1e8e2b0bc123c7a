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
  'app:notify': {
    // The desktop's notification of new mail (issue 28), which the page decides (shared/new-mail-notice.ts) and
    // the main process shows with Electron's Notification; plain text. `shown` is false where there is none
    // (browser mode: the page shows the browser's own).
    request: z.object({ title: z.string().min(1).max(100), body: z.string().max(1000) }).strict(),
    response: z.object({ shown: z.boolean() }),
  },
} as const;

export const linkChannels = {
  'link:open': {
    // Called only after the user has seen the real URL in Skimmer's own confirmation.
    request: z.object({ url: z.string().min(1).max(8192) }).strict(),
    response: z.object({ opened: z.boolean(), url: z.string() }),
  },
} as const;
