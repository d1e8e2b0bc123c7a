// `skimmer service add|list|models|consent|test`: the model services, each subcommand through its `service:*`
// channel. A service is named by its name on the command line and by its id on the bridge.
import { channels } from '../../shared/contract/index.ts';
import type { App } from '../app.ts';
import { bridgeCall } from './bridge-call.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';
import { familyUsageSentence } from './flags.ts';
import { readStdin } from './read-stdin.ts';

function serviceId(app: App, name: string): number {
  const service = app.services.list().find((s) => s.name === name);
  if (!service) throw new UsageError(`There is no service named "${name}": see \`skimmer service list\`.`);
  return service.id;
}

export const serviceCommand: Command = async (app, args, values, io) => {
  const [sub, name, ...rest] = args;
  if (sub === 'list' && name === undefined) {
    const r = await bridgeCall(app, 'service:list', {}, io);
    if (!r.ok) return r.exitCode;
    const list = channels['service:list'].response.parse(r.value);
    for (const s of list) {
      if (values.json) io.out(JSON.stringify(s));
      else io.out(`${s.name}  ${s.kind}  ${s.endpoint}  ${s.hasKey ? 'key saved' : 'no key'}`);
    }
    if (!values.json && list.length === 0)
      io.out('No model services yet: add one with `skimmer service add`.');
    return 0;
  }
  if (sub === 'add' && name !== undefined && rest.length === 0) {
    if (!values.kind || !values.base) throw new UsageError('service add needs --kind and --base.');
    const key = values['key-stdin'] ? await readStdin() : undefined;
    if (values['key-stdin'] && !key)
      throw new UsageError('--key-stdin was given but standard input was empty.');
    const r = await bridgeCall(
      app,
      'service:add',
      { name, kind: values.kind, baseUrl: values.base, key },
      io,
    );
    if (!r.ok) return r.exitCode;
    const s = channels['service:add'].response.parse(r.value);
    if (values.json) io.out(JSON.stringify(s));
    else
      io.out(
        `Added ${s.name}: requests go to ${s.endpoint}${s.hasKey ? ' (key saved)' : ''}. ${app.vault.info.message}`,
      );
    return 0;
  }
  if (sub === 'consent' && name !== undefined && rest.length === 0) {
    if (values.allow === values.revoke)
      throw new UsageError('Use `skimmer service consent NAME --allow` or `--revoke`.');
    const r = await bridgeCall(app, 'service:consent', { id: serviceId(app, name), allow: values.allow }, io);
    if (!r.ok) return r.exitCode;
    const s = channels['service:consent'].response.parse(r.value);
    if (values.json) io.out(JSON.stringify(s));
    else if (!s.remote)
      io.out(`${s.name} is on this computer: mail never leaves it, so no consent is needed.`);
    else
      io.out(
        s.mailAllowed
          ? `Mail and documents may now go to ${s.endpoint}.`
          : `Mail and documents will not go to ${s.endpoint}.`,
      );
    return 0;
  }
  if (sub === 'test' && name !== undefined && rest.length === 0) {
    const r = await bridgeCall(app, 'service:test', { id: serviceId(app, name) }, io);
    if (!r.ok) return r.exitCode;
    const t = channels['service:test'].response.parse(r.value);
    if (values.json) io.out(JSON.stringify(t));
    else (t.ok ? io.out : io.err)(t.message);
    return t.ok ? 0 : 1;
  }
  if (sub === 'models' && name !== undefined && rest.length === 0) {
    const r = await bridgeCall(app, 'service:models', { id: serviceId(app, name) }, io);
    if (!r.ok) return r.exitCode;
    const models = channels['service:models'].response.parse(r.value);
    if (!models.listed) {
      io.err(models.reason);
      return 1;
    }
    for (const m of models.models)
      io.out(values.json ? JSON.stringify({ model: `${name}/${m}` }) : `${name}/${m}`);
    return 0;
  }
  throw new UsageError(familyUsageSentence('service'));
};
