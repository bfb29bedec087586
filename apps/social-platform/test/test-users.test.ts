import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { PERMISSION_NAMES } from '../src/applications/permissions.ts';
import type { User } from '../src/users/users-service.ts';
import { type ApiBody, createTestApp, type TestApp } from './helpers.ts';
import { signUp, type WebClient } from './web-client.ts';

/** Rejects with an AppError of `code`. */
async function refusedWith(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: { code?: string }) => error.code === code);
}

for (const target of databaseTargets()) {
  describe(`Test users of an app (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let dev: WebClient;
    let rita: WebClient;
    let ritaUser: User;
    let appId: number;
    let tess: User;
    let theo: User;

    const api = async (token: string, query: Record<string, string | number | undefined>) => {
      const response = await t.app.inject({
        url: '/api.php',
        query: { token, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) },
      });
      return { status: response.statusCode, body: response.json() as ApiBody };
    };

    before(async () => {
      t = await createTestApp({ target, redis: target.name === 'postgres' && !!process.env.REDIS_URL });
      dev = await signUp(t.app, { userName: 'dev', fullName: 'Dee Veloper' });
      rita = await signUp(t.app, { userName: 'rita', fullName: 'Rita Real' });
      ritaUser = (await t.ctx.users.findByUserName('rita'))!;
      await dev.get('/developer');
      const created = await dev.post('/developer/apps', { name: 'Quiz', canvasUrl: 'https://quiz.example/canvas' });
      appId = Number(/created=(\d+)/.exec(String(created.headers.location))?.[1]);
      // What the developer declares on the console's form: every permission.
      await t.ctx.apps.update(appId, {
        name: 'Quiz',
        canvasUrl: 'https://quiz.example/canvas',
        permissions: PERMISSION_NAMES,
      });
      await dev.get(`/developer/apps/${appId}`);
      assert.equal((await dev.post(`/developer/apps/${appId}/test-users`, { value: 'Tess Tester' })).statusCode, 303);
      await dev.get(`/developer/apps/${appId}`);
      assert.equal((await dev.post(`/developer/apps/${appId}/test-users`, { value: '' })).statusCode, 303);
      [tess, theo] = (await t.ctx.testUsers.list(appId)) as [User, User];
    });
    after(() => t.close());

    it('are made, befriended and launched from the console, and listed apart from testers', async () => {
      const console = await dev.get(`/developer/apps/${appId}`);
      assert.match(console.body, /Tess Tester/);
      assert.match(console.body, /Test User 2/, 'a test user without a name is numbered');
      assert.match(console.body, /No testers\./, 'test users are not listed as testers');
      assert.equal(
        (
          await dev.post(`/developer/apps/${appId}/test-users/friends`, {
            userId: String(tess.id),
            value: String(theo.id),
          })
        ).statusCode,
        303,
      );
      assert.ok(await t.ctx.friends.isFriend(tess.id, theo.id));
      assert.equal(await t.ctx.notifications.unseenCount(theo.id), 1, 'each got a notification');

      await dev.get(`/developer/apps/${appId}`);
      const launched = await dev.post(`/developer/apps/${appId}/test-users/launch`, { userId: String(tess.id) });
      assert.equal(launched.statusCode, 200);
      const key = /data-test-user-key>([^<]+)</.exec(launched.body)?.[1];
      assert.ok(key, 'the console shows a one-time key');
      const link = new URL(
        (/href="([^"]+)"[^>]*data-test-user-launch/.exec(launched.body)?.[1] ?? '').replaceAll('&amp;', '&'),
      );
      assert.equal(link.origin + link.pathname, 'https://quiz.example/canvas');
      assert.equal(link.searchParams.get('key'), key, 'the launch the canvas would give');
      assert.equal(link.searchParams.get('user_id'), String(tess.id));
      assert.match(link.searchParams.get('sign') ?? '', /^[0-9a-f]{64}$/);
      const exchanged = await t.app.inject({ url: '/token.php', query: { key } });
      assert.equal(exchanged.statusCode, 200, exchanged.body);
      const token = exchanged.json().token as string;

      // The app sees its test users, and only them.
      assert.equal((await api(token, { method: 'user.getUser' })).body.output.user_id, tess.id);
      const friends = await api(token, { method: 'friend.getFriends' });
      assert.deepEqual(
        friends.body.output.map((friend: { user_id: number }) => friend.user_id),
        [theo.id],
      );
      assert.equal(
        (await api(token, { method: 'user.getUser', user_id: theo.id })).body.output.full_name,
        'Test User 2',
      );
      assert.equal((await api(token, { method: 'notification.getNewCount' })).body.output, 1);
      for (const query of [
        { method: 'user.getUser', user_id: ritaUser.id },
        { method: 'friend.isFriend', friend_user_id: ritaUser.id },
        { method: 'friend.getFriends', user_id: ritaUser.id },
        { method: 'photo.getPhotos', user_id: ritaUser.id },
      ]) {
        const answer = await api(token, query);
        assert.equal(answer.status, 404, JSON.stringify(query));
        assert.equal(answer.body.output.error.code, 'user_not_found');
      }
    });

    it('a test user removes the app from the console: tokens revoked, the app told (app.deauthorized)', async () => {
      await dev.get(`/developer/apps/${appId}`);
      const launched = await dev.post(`/developer/apps/${appId}/test-users/launch`, { userId: String(theo.id) });
      const key = /data-test-user-key>([^<]+)</.exec(launched.body)?.[1] ?? '';
      const token = (await t.app.inject({ url: '/token.php', query: { key } })).json().token as string;
      assert.equal((await api(token, { method: 'user.getUser' })).status, 200);
      await dev.get(`/developer/apps/${appId}`);
      const removed = await dev.post(`/developer/apps/${appId}/test-users/remove-app`, { userId: String(theo.id) });
      assert.equal(removed.statusCode, 303);
      const after = await api(token, { method: 'user.getUser' });
      assert.equal(after.status, 401);
      assert.equal(after.body.output.error.code, 'token_revoked');
      const events = await t.ctx.database.db
        .selectFrom('app_events')
        .select(['type', 'payload'])
        .where('app_id', '=', appId)
        .execute();
      const deauthorized = events.filter((event) => event.type === 'app.deauthorized');
      assert.equal(deauthorized.length, 1);
      assert.equal(JSON.parse(deauthorized[0]!.payload).data.user_id, theo.id);
    });

    it("a real user's app token never sees them: 404 as for an id nobody has", async () => {
      await dev.post(`/developer/apps/${appId}/publish`, { value: '1' });
      const token = await t.tokenFor(ritaUser.id);
      for (const query of [
        { method: 'user.getUser', user_id: tess.id },
        { method: 'friend.getFriends', user_id: tess.id },
        { method: 'friend.isFriend', friend_user_id: tess.id },
      ]) {
        const answer = await api(token, query);
        assert.equal(answer.status, 404, JSON.stringify(query));
        assert.equal(answer.body.output.error.code, 'user_not_found');
        assert.equal(answer.body.output.error.message, `There is no user with id ${tess.id}.`, 'as for an unknown id');
      }
    });

    it('real users never find, see, befriend or mail them, and they never sign in', async () => {
      const search = await rita.get('/people?q=Test');
      assert.doesNotMatch(search.body, /Tess Tester|Test User 2/);
      assert.doesNotMatch((await rita.get('/people?q=test-')).body, new RegExp(tess.user_name));
      assert.equal((await rita.get(`/u/${tess.user_name}`)).statusCode, 404);
      assert.equal((await rita.get(`/mail/${tess.user_name}`)).statusCode, 404);
      await rita.get('/people');
      assert.equal((await rita.post(`/friends/${tess.user_name}/request`, {})).statusCode, 404);
      await rita.get('/mail');
      const mailed = await rita.post('/mail', { to: tess.user_name, body: 'Hello?' });
      assert.notEqual(mailed.statusCode, 303, 'no message to a test user');
      assert.doesNotMatch((await rita.get('/friends')).body, /Tess Tester/);

      // The services refuse it both ways, whoever asks.
      await refusedWith(t.ctx.friends.request(ritaUser.id, tess.id), 'user_not_found');
      await refusedWith(t.ctx.friends.request(tess.id, ritaUser.id), 'user_not_found');
      await refusedWith(t.ctx.friends.befriend(tess.id, ritaUser.id), 'user_not_found');
      await refusedWith(t.ctx.mail.send(tess.id, ritaUser.id, 'Hi'), 'user_not_found');
      await refusedWith(t.ctx.mail.send(ritaUser.id, tess.id, 'Hi'), 'user_not_found');
      assert.equal(await t.ctx.friends.isFriend(ritaUser.id, tess.id), false);
      assert.equal(await t.ctx.mail.unseenCount(ritaUser.id), 0);

      assert.equal(await t.ctx.users.verifyPassword(tess.user_name, 'anything'), undefined);
      const login = await t.app.inject({ method: 'GET', url: '/login' });
      assert.equal(login.statusCode, 200);
    });

    it("test users of two apps never reach each other; another app's test users stay off this console", async () => {
      await dev.get('/developer');
      const second = await dev.post('/developer/apps', { name: 'Other', canvasUrl: 'https://other.example/' });
      const otherAppId = Number(/created=(\d+)/.exec(String(second.headers.location))?.[1]);
      const stranger = await t.ctx.testUsers.create(otherAppId, 'Stan Stranger');
      await refusedWith(t.ctx.friends.befriend(tess.id, stranger.id), 'user_not_found');
      await refusedWith(t.ctx.mail.send(stranger.id, tess.id, 'Hi'), 'user_not_found');
      assert.doesNotMatch((await dev.get(`/developer/apps/${appId}`)).body, /Stan Stranger/);
      await dev.get(`/developer/apps/${appId}`);
      const foreign = await dev.post(`/developer/apps/${appId}/test-users/launch`, { userId: String(stranger.id) });
      assert.equal(foreign.statusCode, 404, 'a console launches only its own test users');
      // Someone else's console is not found at all.
      await rita.get('/people');
      assert.equal((await rita.post(`/developer/apps/${appId}/test-users`, { value: 'Intruder' })).statusCode, 404);
      assert.equal((await t.ctx.testUsers.list(appId)).length, 2);
    });
  });
}
