import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DashboardBrowser, testId } from './dashboard-session.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`the dashboard shows a saved filter as it was typed (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    let browser: DashboardBrowser;
    before(async () => {
      t = await createTestApp({ target, env: { TRACKED_TLDS: 'com,net' } });
      const email = `typed-${Date.now()}@example.com`;
      key = await t.keyFor('starter', email);
      browser = new DashboardBrowser(t.app);
      assert.equal((await browser.signIn(email, key)).statusCode, 303);
    });
    after(async () => t?.close());

    it('typed in another order than the canonical one: shows the typed text, and how it is read', async () => {
      const typed = 'min_da=20&tld=com&hyphens=false';
      await browser.get('/dashboard/filters');
      const saved = await browser.post('/dashboard/filters', { name: 'short com', filter: typed });
      assert.equal(saved.statusCode, 303, saved.body);
      const page = (await browser.get('/dashboard/filters')).body;
      assert.equal(testId(page, 'filter-as-typed'), 'min_da=20&amp;tld=com&amp;hyphens=false');
      assert.equal(testId(page, 'filter-canonical'), 'tld=com&amp;min_da=20&amp;hyphens=false');

      // The API keeps answering the canonical query it matches by, its record unchanged.
      const listed = (await t.app.inject({ url: '/account/filters', headers: bearer(key) })).json().data;
      assert.deepEqual(
        listed.map((filter: { filter: string }) => filter.filter),
        ['tld=com&min_da=20&hyphens=false'],
      );
      assert.equal('as_typed' in listed[0], false);
    });

    it('typed as read: shown once, without a "read as" line', async () => {
      await browser.get('/dashboard/filters');
      await browser.post('/dashboard/filters', { name: 'net', filter: 'tld=net' });
      const page = (await browser.get('/dashboard/filters')).body;
      const row = page.slice(page.indexOf('<strong>net</strong>'));
      assert.equal(testId(row, 'filter-as-typed'), 'tld=net');
      assert.doesNotMatch(row.slice(0, row.indexOf('</tr>')), /filter-canonical/);
    });

    it('given as an object through the API: shown as its canonical query', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/account/filters',
        headers: bearer(key),
        payload: { name: 'object', filter: { min_tf: 5, tld: 'com' } },
      });
      assert.equal(response.statusCode, 201, response.body);
      const page = (await browser.get('/dashboard/filters')).body;
      const row = page.slice(page.indexOf('<strong>object</strong>'));
      assert.equal(testId(row, 'filter-as-typed'), 'tld=com&amp;min_tf=5');
    });
  });
}
