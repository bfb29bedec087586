import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formTokenMatches, SessionStore } from '../src/sessions.ts';

describe('sample app sessions', () => {
  it('forget a session once its time is up, and sweep ended ones on the next start', () => {
    let now = 1_000_000;
    const store = new SessionStore(60_000, () => now);
    const session = store.create('spt_token', '7');
    assert.equal(store.get(session.id)?.token, 'spt_token');
    now += 59_999;
    assert.ok(store.get(session.id));
    now += 1;
    assert.equal(store.get(session.id), undefined);
    const stale = store.create('spt_other', undefined);
    now += 60_000;
    store.create('spt_third', undefined);
    assert.equal(store.size, 1, `${stale.id} was swept`);
    assert.equal(store.get(undefined), undefined);
  });

  it('accept only the exact form token of the session', () => {
    const session = new SessionStore(60_000).create('spt_token', undefined);
    assert.equal(formTokenMatches(session, session.formToken), true);
    assert.equal(formTokenMatches(session, `${session.formToken}x`), false);
    assert.equal(formTokenMatches(session, undefined), false);
    assert.equal(formTokenMatches(session, ['a']), false);
  });
});
