import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`platform smoke (${target.name})`, { skip: target.skip }, () => {
    it('trades a key for a token and answers user.getUser', async () => {
      const t = await createTestApp({ target });
      try {
        const alice = await t.user('alice', { countryIso: 'fr', gender: 'female' });
        const token = await t.tokenFor(alice.id);
        const { status, body } = await t.call({ token, method: 'user.getUser' });
        assert.equal(status, 200, JSON.stringify(body));
        assert.deepEqual(body.api, { total: 1, pages: 1, current_page: 1 });
        assert.equal(body.output.user_id, alice.id);
        assert.equal(body.output.email, alice.email);
        assert.equal(body.output.country_iso, 'FR');
      } finally {
        await t.close();
      }
    });
  });
}
