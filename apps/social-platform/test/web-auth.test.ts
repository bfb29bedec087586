import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';
import { signUp, WebClient } from './web-client.ts';

async function withApp(target: Parameters<typeof createTestApp>[0]['target'], run: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ target });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const SESSION_COOKIE = '__Host-sp_session';

for (const target of databaseTargets()) {
  describe(`web pages: accounts and sessions (${target.name})`, { skip: target.skip }, () => {
    it('shows every problem of a sign-up form next to its field, keeping what was typed but the password', () =>
      withApp(target, async (t) => {
        const visitor = new WebClient(t.app);
        await visitor.get('/signup');
        const response = await visitor.post('/signup', {
          fullName: '',
          userName: 'x',
          email: 'not-an-email',
          password: 'short',
          countryIso: 'Germany',
          gender: '',
        });
        assert.equal(response.statusCode, 400);
        for (const field of ['fullName', 'userName', 'email', 'password', 'countryIso']) {
          assert.match(response.body, new RegExp(`id="field-${field}-error"`), `${field} has an error`);
          assert.match(response.body, new RegExp(`id="field-${field}"[^>]*aria-invalid="true"`));
        }
        assert.match(response.body, /value="not-an-email"/);
        assert.doesNotMatch(response.body, /value="short"/);
        assert.equal(visitor.cookies.has(SESSION_COOKIE), false);
      }));

    it('refuses a taken user name or e-mail with 409 on that field', () =>
      withApp(target, async (t) => {
        await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const visitor = new WebClient(t.app);
        await visitor.get('/signup');
        const form = { fullName: 'Other Ada', password: 'long enough pass', countryIso: '', gender: '' };
        const sameName = await visitor.post('/signup', { ...form, userName: 'ADA', email: 'other@example.com' });
        assert.equal(sameName.statusCode, 409);
        assert.match(sameName.body, /id="field-userName-error">The user name &quot;ada&quot; is already taken/);
        const sameEmail = await visitor.post('/signup', { ...form, userName: 'ada2', email: 'ada@example.com' });
        assert.equal(sameEmail.statusCode, 409);
        assert.match(sameEmail.body, /id="field-email-error"/);
      }));

    it('signs up into a database session with a hardened cookie, and logs out for good', () =>
      withApp(target, async (t) => {
        const visitor = new WebClient(t.app);
        await visitor.get('/signup');
        const response = await visitor.post('/signup', {
          fullName: 'Grace Hopper',
          userName: 'grace',
          email: 'grace@example.com',
          password: 'compilers rule',
          countryIso: 'us',
          gender: 'female',
        });
        assert.equal(response.statusCode, 303);
        assert.equal(response.headers.location, '/');
        const setCookie = String(response.headers['set-cookie']);
        assert.match(setCookie, /__Host-sp_session=sps_[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax/);
        const cookieValue = visitor.cookies.get(SESSION_COOKIE)!;
        const rows = await t.ctx.database.db
          .withTables<{ web_sessions: { id_hash: string } }>()
          .selectFrom('web_sessions')
          .select('id_hash')
          .execute();
        assert.equal(rows.length, 1);
        assert.notEqual(rows[0]!.id_hash, cookieValue, 'only a hash of the cookie is stored');

        const home = await visitor.get('/');
        assert.match(home.body, /Hello, Grace Hopper/);
        const user = await t.ctx.users.findByUserName('grace');
        assert.equal(user?.country_iso, 'US');

        const stolen = new WebClient(t.app);
        stolen.cookies.set(SESSION_COOKIE, cookieValue);
        assert.equal((await stolen.get('/mail')).statusCode, 200);
        const logout = await visitor.post('/logout', {});
        assert.equal(logout.statusCode, 303);
        assert.equal(visitor.cookies.has(SESSION_COOKIE), false);
        const afterLogout = await stolen.get('/mail');
        assert.equal(afterLogout.statusCode, 303, 'the old cookie no longer opens a session');
        assert.equal(afterLogout.headers.location, '/login?next=%2Fmail');
      }));

    it('logs in by user name or e-mail, refuses a wrong password, and returns only to local paths', () =>
      withApp(target, async (t) => {
        await signUp(t.app, { userName: 'linus', fullName: 'Linus T', password: 'penguins everywhere' });
        const visitor = new WebClient(t.app);
        await visitor.get('/login?next=/photos');
        const empty = await visitor.post('/login', { login: '', password: '', next: '/photos' });
        assert.equal(empty.statusCode, 400);
        assert.match(empty.body, /Enter your user name or e-mail/);
        const wrong = await visitor.post('/login', { login: 'linus', password: 'wrong password', next: '/photos' });
        assert.equal(wrong.statusCode, 401);
        assert.match(wrong.body, /do not match an account/);
        assert.equal(visitor.cookies.has(SESSION_COOKIE), false);
        const ok = await visitor.post('/login', {
          login: 'LINUS@example.com',
          password: 'penguins everywhere',
          next: '/photos',
        });
        assert.equal(ok.statusCode, 303);
        assert.equal(ok.headers.location, '/photos');

        const other = new WebClient(t.app);
        await other.get('/login');
        const offsite = await other.post('/login', {
          login: 'linus',
          password: 'penguins everywhere',
          next: '//evil.example/',
        });
        assert.equal(offsite.headers.location, '/');
      }));

    it('refuses a form without a valid token with 403 and changes nothing', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        await ada.get('/mail');
        const forged = await ada.post('/mail', { to: 'bob', body: 'forged', _csrf: 'not-a-token' });
        assert.equal(forged.statusCode, 403);
        assert.match(forged.body, /This form has expired/);
        const missing = await t.app.inject({
          method: 'POST',
          url: '/mail',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            cookie: `${SESSION_COOKIE}=${ada.cookies.get(SESSION_COOKIE)}`,
          },
          payload: 'to=bob&body=forged',
        });
        assert.equal(missing.statusCode, 403);

        // A token minted for a visitor before logging in is not accepted for the session after it.
        const visitor = new WebClient(t.app);
        await visitor.get('/login');
        const anonymousToken = visitor.csrfToken();
        await visitor.post('/login', { login: 'ada', password: 'correct horse battery', next: '/' });
        const replayed = await visitor.post('/mail', { to: 'bob', body: 'forged', _csrf: anonymousToken });
        assert.equal(replayed.statusCode, 403);

        const bob = await t.ctx.users.findByUserName('bob');
        assert.equal(await t.ctx.mail.unseenCount(bob!.id), 0);
      }));

    it('makes a form token only for a page that prints one: no cookie on an anonymous 404, a working one on the login page', () =>
      withApp(target, async (t) => {
        const visitor = new WebClient(t.app);
        const missing = await visitor.get('/wp-admin/setup.php');
        assert.equal(missing.statusCode, 404);
        assert.doesNotMatch(missing.body, /_csrf/);
        assert.equal(missing.headers['set-cookie'], undefined, 'no form token, so no sp_csrf cookie');
        const login = await visitor.get('/login');
        assert.match(String(login.headers['set-cookie']), /sp_csrf=/);
        assert.match(login.body, /name="_csrf" value="[^"]+"/);
        await signUp(t.app, { userName: 'grace', fullName: 'Grace Hopper' });
        const loggedIn = await visitor.post('/login', { login: 'grace', password: 'correct horse battery', next: '/' });
        assert.equal(loggedIn.statusCode, 303, 'the token printed on the page is accepted');
      }));

    it('slows down repeated log-in attempts from one address with a 429 page', () =>
      withApp(target, async (t) => {
        const visitor = new WebClient(t.app);
        await visitor.get('/login');
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 21; attempt++) {
          statuses.push((await visitor.post('/login', { login: 'nobody', password: '' })).statusCode);
        }
        assert.deepEqual(new Set(statuses.slice(0, 20)), new Set([400]));
        assert.equal(statuses[20], 429);
        assert.match(visitor.lastPage, /Slow down/);
      }));

    it('sends visitors to the login page and sets the page security headers', () =>
      withApp(target, async (t) => {
        const visitor = new WebClient(t.app);
        for (const path of ['/friends', '/mail', '/notifications', '/photos', '/apps', '/developer', '/u/anyone']) {
          const response = await visitor.get(path);
          assert.equal(response.statusCode, 303, path);
          assert.equal(response.headers.location, `/login?next=${encodeURIComponent(path)}`);
        }
        const page = await visitor.get('/login');
        const csp = String(page.headers['content-security-policy']);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.match(csp, /frame-src 'none'/);
        assert.match(csp, /script-src 'none'/);
        assert.equal(page.headers['x-frame-options'], 'DENY');
        assert.equal(page.headers['cache-control'], 'no-store');
        const css = await visitor.get('/assets/platform.css');
        assert.equal(css.statusCode, 200);
        assert.match(String(css.headers['content-type']), /text\/css/);
      }));
  });
}
