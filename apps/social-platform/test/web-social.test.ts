import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';
import { signUp } from './web-client.ts';

async function withApp(target: Parameters<typeof createTestApp>[0]['target'], run: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ target });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const headerCount = (page: string, testId: string) => {
  const match = new RegExp(`data-testid="${testId}">(\\d+)`).exec(page);
  return match ? Number(match[1]) : 0;
};

for (const target of databaseTargets()) {
  describe(`web pages: friends, mail and notifications (${target.name})`, { skip: target.skip }, () => {
    it('finds people, sends, accepts, declines and ends friendships, notifying each side', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        const cyd = await signUp(t.app, { userName: 'cyd', fullName: 'Cyd Charisse' });

        const search = await bob.get('/people?q=LOVE');
        assert.equal(search.statusCode, 200);
        assert.match(search.body, /1 person found/);
        assert.match(search.body, /action="\/friends\/ada\/request"/);
        const sent = await bob.post('/friends/ada/request', { back: '/people?q=LOVE' });
        assert.equal(sent.statusCode, 303);
        assert.equal(sent.headers.location, '/people?q=LOVE');
        assert.match((await bob.get('/people?q=LOVE')).body, /Request sent/);

        const adaFriends = await ada.get('/friends');
        assert.equal(headerCount(adaFriends.body, 'nav-notifications'), 1);
        assert.match(adaFriends.body, /action="\/friends\/bob\/accept"/);
        assert.equal((await ada.post('/friends/bob/accept', { back: '/friends' })).statusCode, 303);
        assert.match((await ada.get('/friends')).body, /You are now friends/);

        const bobNotifications = await bob.get('/notifications');
        assert.match(bobNotifications.body, /Ada Lovelace accepted your friend request/);
        assert.match(bobNotifications.body, /notification-new/);
        assert.equal(headerCount((await bob.get('/')).body, 'nav-notifications'), 0, 'viewing marks them seen');

        await cyd.post('/friends/ada/request', { back: '/' });
        assert.equal((await ada.post('/friends/cyd/decline', { back: '/friends' })).statusCode, 303);
        const [adaUser, bobUser, cydUser] = await Promise.all(
          ['ada', 'bob', 'cyd'].map((name) => t.ctx.users.findByUserName(name)),
        );
        assert.equal(await t.ctx.friends.isFriend(adaUser!.id, cydUser!.id), false);
        assert.equal(await t.ctx.friends.hasPendingRequest(cydUser!.id, adaUser!.id), false);

        assert.equal((await bob.post('/friends/ada/unfriend', { back: '/friends' })).statusCode, 303);
        assert.equal(await t.ctx.friends.isFriend(adaUser!.id, bobUser!.id), false);
      }));

    it('answers a friend action on nobody or a missing request with a clear page, never a 500', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        await ada.get('/people');
        const nobody = await ada.post('/friends/nobody/request', { back: '/' });
        assert.equal(nobody.statusCode, 404);
        assert.match(nobody.body, /There is no user @nobody/);
        const noRequest = await ada.post('/friends/bob/accept', { back: '/' });
        assert.equal(noRequest.statusCode, 404);
        assert.match(noRequest.body, /There is no friend request from this user/);
        const self = await ada.post('/friends/ada/request', { back: '/' });
        assert.equal(self.statusCode, 400);
        const unknownAction = await ada.post('/friends/bob/poke', { back: '/' });
        assert.equal(unknownAction.statusCode, 400);
        const badPage = await ada.get('/people?q=a&page=0');
        assert.equal(badPage.statusCode, 400);
      }));

    it('writes, reads and counts mail: unseen in the header until the conversation is opened', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        await ada.get('/mail');
        const written = await ada.post('/mail', { to: '@bob', body: 'Hello <Bob>, see you at 5?' });
        assert.equal(written.statusCode, 303);
        assert.equal(written.headers.location, '/mail/bob');

        const inbox = await bob.get('/mail');
        assert.equal(headerCount(inbox.body, 'nav-mail'), 1);
        assert.match(inbox.body, /1 new/);
        const conversation = await bob.get('/mail/ada');
        assert.match(conversation.body, /Hello &lt;Bob&gt;, see you at 5\?/, 'message text is escaped');
        assert.equal(headerCount(conversation.body, 'nav-mail'), 0);
        assert.match((await bob.get('/notifications')).body, /Ada Lovelace sent you a message/);

        const replied = await bob.post('/mail/ada', { body: 'Yes!' });
        assert.equal(replied.statusCode, 303);
        assert.match((await ada.get('/mail/bob')).body, /Yes!/);
      }));

    it('shows what is wrong with a message form', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        await ada.get('/mail');
        const noRecipient = await ada.post('/mail', { to: '', body: 'Hi' });
        assert.equal(noRecipient.statusCode, 400);
        assert.match(noRecipient.body, /id="field-to-error">Enter a user name/);
        const unknown = await ada.post('/mail', { to: 'nobody', body: 'Hi' });
        assert.equal(unknown.statusCode, 404);
        assert.match(unknown.body, /id="field-to-error">There is no user @nobody/);
        assert.match(unknown.body, />Hi<\/textarea>/, 'the message is kept');
        const empty = await ada.post('/mail', { to: 'bob', body: '   ' });
        assert.equal(empty.statusCode, 400);
        assert.match(empty.body, /id="field-body-error">The message is empty/);
        const tooLong = await ada.post('/mail/bob', { body: 'x'.repeat(10_001) });
        assert.equal(tooLong.statusCode, 400);
        assert.match(tooLong.body, /id="field-body-error">A message can be at most/);
        const self = await ada.post('/mail', { to: 'ada', body: 'Me' });
        assert.equal(self.statusCode, 400);
        assert.equal((await ada.get('/mail/nobody')).statusCode, 404);
      }));

    it('shows a profile with facts and the friend buttons that fit', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        const own = await ada.get('/u/ada');
        assert.match(own.body, /ada@example.com/, 'own e-mail is shown to oneself');
        assert.match(own.body, /action="\/profile\/picture\?_csrf=/);
        const other = await bob.get('/u/ada');
        assert.doesNotMatch(other.body, /ada@example.com/, 'e-mail stays private');
        assert.match(other.body, /action="\/friends\/ada\/request"/);
        assert.equal((await bob.get('/u/nobody')).statusCode, 404);
      }));
  });
}
