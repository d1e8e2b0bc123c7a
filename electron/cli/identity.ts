// `skimmer identity add|list|remove`: your addresses (DESIGN §11), through the `identity:*` channels. A signature
// comes from a file the user names, read under the rule for every such file (DESIGN §13).
import { channels } from '../../shared/contract/index.ts';
import { addressKey } from '../../shared/mail-address.ts';
import type { App } from '../app.ts';
import { FileRefusal, readUserFile } from '../files/safe-open.ts';
import { bridgeCall } from './bridge-call.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';
import { familyUsageSentence } from './flags.ts';

// A signature is a text file the user names, so it is read under the rule for every such file (DESIGN §13). The
// bound is the file's; the signature's own (10,000 characters) is the bridge's.
const maxSignatureFileBytes = 1024 * 1024;
async function signatureFrom(app: App, path: string): Promise<string> {
  try {
    return (await readUserFile(path, app.places, maxSignatureFileBytes))
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } catch (e) {
    if (e instanceof FileRefusal) throw new UsageError(`The signature file cannot be read: ${e.message}`);
    throw e;
  }
}

export const identityCommand: Command = async (app, args, values, io) => {
  const [sub, address, ...rest] = args;
  const print = (o: object) => io.out(JSON.stringify(o));
  if (sub === 'list' && address === undefined) {
    const r = await bridgeCall(app, 'identity:list', {}, io);
    if (!r.ok) return r.exitCode;
    const list = channels['identity:list'].response.parse(r.value);
    for (const i of list) {
      if (values.json) print(i);
      else
        io.out(
          [i.address, i.name, i.account && `account ${i.account}`, i.signature && 'with a signature']
            .filter(Boolean)
            .join('  '),
        );
    }
    if (!values.json && list.length === 0)
      io.out('No addresses yet: add a mail account, or an address with `skimmer identity add`.');
    return 0;
  }
  if (sub === 'add' && address !== undefined && rest.length === 0) {
    const file = values['signature-file'];
    const signature = file === undefined ? undefined : await signatureFrom(app, file);
    const r = await bridgeCall(
      app,
      'identity:add',
      {
        address,
        ...(values.name === undefined ? {} : { name: values.name }),
        ...(signature === undefined ? {} : { signature }),
      },
      io,
    );
    if (!r.ok) return r.exitCode;
    const { identity, added } = channels['identity:add'].response.parse(r.value);
    if (values.json) print({ ...identity, added });
    else
      io.out(
        `${added ? 'Added' : 'Changed'} ${identity.address}${identity.name ? ` (${identity.name})` : ''}.`,
      );
    return 0;
  }
  if (sub === 'remove' && address !== undefined && rest.length === 0) {
    const r = await bridgeCall(app, 'identity:remove', { address }, io);
    if (!r.ok) return r.exitCode;
    const { removed } = channels['identity:remove'].response.parse(r.value);
    if (values.json) print({ removed });
    else if (removed) io.out(`Removed ${addressKey(address)}.`);
    else io.err(`${address} is not one of your addresses: see \`skimmer identity list\`.`);
    return removed ? 0 : 1;
  }
  throw new UsageError(familyUsageSentence('identity'));
};
