import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../../../test/support/temp.ts';
import { m0009 } from '../../db/migrations/0009-grants-audit.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { AssistantError } from '../assistant-error.ts';
import { gateDecision } from '../chat/call-gate.ts';
import { prepareConversations } from '../chat/conversations.ts';
import type { AnyTool, Provenance, ToolEffect } from '../tools/tool.ts';
import { prepareGrants } from './grants.ts';

// Migration 0009 is registered in migrations/index.ts by whoever lands it; until then apply it here.
function open(): Db {
  const db = openDatabase(join(tempDir(), 'skimmer.db'));
  if ((db.pragma('user_version', { simple: true }) as number) < 9) db.transaction(() => m0009.up(db))();
  return db;
}

function tool(name: string, effect: ToolEffect, gate?: AnyTool['gate']): AnyTool {
  return {
    name,
    description: name,
    schema: z.object({ to: z.string().optional(), id: z.string().optional() }),
    effect,
    ...(gate ? { gate } : {}),
    run: async () => ({ output: 'ok' }),
  };
}

const clean: Provenance = { fromUntrusted: [], notNamedByUser: [] };
const archive = tool('archive', 'write');
const sendMail = tool('send_mail', 'send');
const deleteMail = tool('delete_mail', 'delete');
const search = tool('search_mail', 'read');

function setup() {
  const db = open();
  const conversations = prepareConversations(db);
  const one = conversations.create('first', 'local/m');
  const two = conversations.create('second', 'local/m');
  return { db, grants: prepareGrants(db), one, two };
}

function refusal(run: () => unknown): AssistantError {
  try {
    run();
  } catch (e) {
    if (e instanceof AssistantError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('grants', () => {
  test('refuses a grant for a send tool, for any scope, with a sentence', () => {
    const { grants, one } = setup();
    for (const scope of ['conversation', 'always'] as const) {
      const e = refusal(() => grants.grant('send_mail', 'send', scope, one));
      expect(e.reason).toBe('always_asks');
      expect(e.message).toMatch(/always asks before it sends/);
    }
    expect(grants.list()).toEqual([]);
  });

  test('refuses a grant for a delete tool, even "once"', () => {
    const { grants } = setup();
    expect(refusal(() => grants.grant('delete_mail', 'delete', 'once')).reason).toBe('always_asks');
    expect(refusal(() => grants.grant('delete_mail', 'delete', 'always')).reason).toBe('always_asks');
    expect(grants.list()).toEqual([]);
  });

  test('"once" stores nothing: it is only an approval', () => {
    const { grants } = setup();
    expect(grants.grant('archive', 'write', 'once')).toBeNull();
    expect(grants.list()).toEqual([]);
    expect(grants.decide(archive, {}, clean, null)).toEqual({ decision: 'approve', decidedBy: 'gate' });
  });

  test('a conversation grant needs an existing conversation', () => {
    const { grants } = setup();
    expect(refusal(() => grants.grant('archive', 'write', 'conversation')).reason).toBe('invalid');
    expect(refusal(() => grants.grant('archive', 'write', 'conversation', 999)).reason).toBe('not_found');
  });

  test('a conversation grant allows the tool in that conversation only', () => {
    const { grants, one, two } = setup();
    grants.grant('archive', 'write', 'conversation', one);
    expect(grants.decide(archive, { id: 'm1' }, clean, one)).toEqual({
      decision: 'allow',
      decidedBy: 'grant',
    });
    expect(grants.decide(archive, { id: 'm1' }, clean, two)).toEqual({
      decision: 'approve',
      decidedBy: 'gate',
    });
    expect(grants.decide(archive, { id: 'm1' }, clean, null).decision).toBe('approve');
    // A grant names one tool.
    expect(grants.decide(tool('label', 'write'), {}, clean, one).decision).toBe('approve');
  });

  test('an always grant allows the tool in every conversation', () => {
    const { grants, one, two } = setup();
    grants.grant('archive', 'write', 'always');
    for (const conversation of [one, two, null]) {
      expect(grants.decide(archive, {}, clean, conversation)).toEqual({
        decision: 'allow',
        decidedBy: 'grant',
      });
    }
  });

  test('granting twice keeps one grant', () => {
    const { grants } = setup();
    const first = grants.grant('archive', 'write', 'always');
    expect(grants.grant('archive', 'write', 'always')).toEqual(first);
    expect(grants.list()).toHaveLength(1);
  });

  test('lists active grants newest first, and a revoked grant stops applying', () => {
    let clock = 1000;
    const { db, one } = setup();
    const grants = prepareGrants(db, () => clock++);
    const always = grants.grant('archive', 'write', 'always');
    const conversation = grants.grant('label', 'write', 'conversation', one);
    expect(grants.list().map((g) => [g.tool, g.scope, g.conversationId])).toEqual([
      ['label', 'conversation', one],
      ['archive', 'always', null],
    ]);
    grants.revoke(always?.id as number);
    expect(grants.list()).toEqual([conversation]);
    expect(grants.decide(archive, {}, clean, one).decision).toBe('approve');
    // The row stays, marked revoked, for the record.
    expect(db.prepare('SELECT revoked_at FROM grants WHERE id = ?').pluck().get(always?.id)).toBeTypeOf(
      'number',
    );
  });

  test('revoking an unknown or already revoked grant is not_found', () => {
    const { grants } = setup();
    const g = grants.grant('archive', 'write', 'always');
    grants.revoke(g?.id as number);
    expect(refusal(() => grants.revoke(g?.id as number)).reason).toBe('not_found');
    expect(refusal(() => grants.revoke(4242)).reason).toBe('not_found');
  });

  test('deleting a conversation removes its grants', () => {
    const { db, grants, one } = setup();
    grants.grant('archive', 'write', 'conversation', one);
    db.prepare('DELETE FROM conversations WHERE id = ?').run(one);
    expect(grants.list()).toEqual([]);
  });

  test('the table refuses an unknown scope and a conversation grant without a conversation', () => {
    const { db } = setup();
    const insert = db.prepare(
      'INSERT INTO grants (tool, scope, conversation_id, created_at) VALUES (?, ?, ?, 1)',
    );
    expect(() => insert.run('archive', 'once', null)).toThrow(/CHECK/);
    expect(() => insert.run('archive', 'conversation', null)).toThrow(/CHECK/);
  });

  test('a send to a recipient the user never named is never allowed, whatever the grants', () => {
    const { db, grants, one } = setup();
    // Even a grant row written past `grant` (an older build, a hand edit) cannot allow it.
    db.prepare("INSERT INTO grants (tool, scope, created_at) VALUES ('send_mail', 'always', 1)").run();
    db.prepare(
      "INSERT INTO grants (tool, scope, conversation_id, created_at) VALUES ('send_mail', 'conversation', ?, 1)",
    ).run(one);
    const stranger: Provenance = { fromUntrusted: ['to'], notNamedByUser: ['mallory@evil.example'] };
    const permissive = tool('send_mail', 'send', () => 'allow');
    for (const t of [sendMail, permissive]) {
      expect(grants.decide(t, { to: 'mallory@evil.example' }, stranger, one)).toEqual({
        decision: 'approve',
        decidedBy: 'gate',
      });
      const wrapped = grants.withGrants(t, one);
      expect(gateDecision(wrapped, { to: 'mallory@evil.example' }, stranger)).toBe('approve');
    }
  });

  test('send and delete always ask, even to a named recipient and with a permissive gate', () => {
    const { grants } = setup();
    grants.grant('archive', 'write', 'always');
    const permissiveDelete = tool('delete_mail', 'delete', () => 'allow');
    for (const t of [sendMail, deleteMail, permissiveDelete]) {
      expect(grants.decide(t, { to: 'bob@example.com' }, clean, null).decision).toBe('approve');
    }
  });

  test('a granted write that names an address the user never wrote still asks', () => {
    const { grants, one } = setup();
    grants.grant('archive', 'write', 'always');
    const stranger: Provenance = { fromUntrusted: ['to'], notNamedByUser: ['mallory@evil.example'] };
    const wrapped = grants.withGrants(archive, one);
    expect(gateDecision(wrapped, { to: 'mallory@evil.example' }, clean)).toBe('allow');
    expect(gateDecision(wrapped, { to: 'mallory@evil.example' }, stranger)).toBe('approve');
    // A read may name anyone: it changes nothing.
    expect(gateDecision(search, { to: 'mallory@evil.example' }, stranger)).toBe('allow');
  });

  test('a grant never loosens a gate that denies', () => {
    const { grants } = setup();
    grants.grant('archive', 'write', 'always');
    const strict = tool('archive', 'write', () => 'deny');
    expect(grants.decide(strict, {}, clean, null)).toEqual({ decision: 'deny', decidedBy: 'gate' });
  });

  test('a read tool is always allowed, with or without grants', () => {
    const { grants, one } = setup();
    expect(grants.decide(search, {}, clean, one)).toEqual({ decision: 'allow', decidedBy: 'gate' });
    expect(
      grants.decide(search, {}, { fromUntrusted: ['id'], notNamedByUser: ['x@y.example'] }, null).decision,
    ).toBe('allow');
    expect(refusal(() => grants.grant('search_mail', 'read', 'always')).reason).toBe('invalid');
  });

  test('a grant covers a write whose arguments came from mail (the marks a search result leaves)', () => {
    const { grants, one } = setup();
    grants.grant('archive', 'write', 'conversation', one);
    const marked: Provenance = { fromUntrusted: ['id'], notNamedByUser: [] };
    expect(grants.decide(archive, { id: 'msg-4711' }, marked, one)).toEqual({
      decision: 'allow',
      decidedBy: 'grant',
    });
  });

  test('withGrants reads the grants at each call, so a revoke applies to the next call', () => {
    const { grants, one } = setup();
    const wrapped = grants.withGrants(archive, one);
    expect(gateDecision(wrapped, {}, clean)).toBe('approve');
    const g = grants.grant('archive', 'write', 'conversation', one);
    expect(gateDecision(wrapped, {}, clean)).toBe('allow');
    grants.revoke(g?.id as number);
    expect(gateDecision(wrapped, {}, clean)).toBe('approve');
  });
});
