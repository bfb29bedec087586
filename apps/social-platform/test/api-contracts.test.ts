import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiErrorEnvelope, TokenAnswer, User } from '@repo/contracts/platform';
import { databaseTargets, type OpenApiDocument, operationsOf, undocumentedErrors } from '@repo/server-kit/testing';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { createMethodRegistry } from '../src/methods/index.ts';
import { singleMethod } from '../src/methods/registry.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { multipartBody, solidJpeg } from './upload-helpers.ts';

/**
 * `value` is what `schema` describes: valid (types, formats, nulls), and an object has exactly
 * the schema's fields, no more (a field the code sends but the contract lacks is drift too).
 */
function assertFits(schema: TSchema, value: unknown, where: string): void {
  const errors = [...Value.Errors(schema, value)].map((error) => `${error.instancePath} ${error.message}`);
  assert.deepEqual(errors, [], `${where}: ${JSON.stringify(value)}`);
  const { properties, items } = schema as { properties?: Record<string, TSchema>; items?: TSchema };
  if (properties && typeof value === 'object' && value !== null) {
    assert.deepEqual(Object.keys(value).sort(), Object.keys(properties).sort(), `${where}: fields`);
  }
  if (items && Array.isArray(value)) {
    for (const [index, element] of value.entries()) assertFits(items, element, `${where}[${index}]`);
  }
}

// Compile-time guard (checked by `npm run typecheck`): a method whose handler returns a record
// missing a field of its contract does not compile. Never registered; it only has to type-check.
singleMethod({
  name: 'user.incomplete',
  permission: 'basic_profile',
  httpMethod: 'GET',
  summary: 'A User record without most of its fields.',
  params: {},
  output: User,
  // @ts-expect-error user_name, full_name, email … are missing: the contract says every field is there
  handler: async () => ({ user_id: 1 }),
});

for (const target of databaseTargets()) {
  describe(`every api.php answer fits its contract (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let token: string;
    let friendId: number;
    const registry = createMethodRegistry();
    const called = new Set<string>();

    before(async () => {
      t = await createTestApp({ target });
      const alice = await t.user('alice', { countryIso: 'fr' });
      const bob = await t.user('bob');
      friendId = bob.id;
      await t.ctx.friends.befriend(alice.id, bob.id);
      await t.ctx.photos.setProfilePicture(bob.id, await solidJpeg(300, 200));
      await t.ctx.notifications.add(alice.id, { message: 'Hello', link: '/mail' });
      await t.ctx.photos.addPhoto({ ownerId: alice.id, name: 'open', data: await solidJpeg(400, 300) });
      await t.ctx.photos.addPhoto({
        ownerId: alice.id,
        name: 'secret',
        data: await solidJpeg(400, 300),
        visibility: 'private',
      });
      token = await t.tokenFor(alice.id);
    });
    after(() => t.close());

    const check = (method: string, body: { api: unknown; output: unknown }) => {
      const spec = registry.resolve(method);
      assertFits(spec.output, body.output, method);
      assertFits(ApiErrorEnvelope.properties.api, body.api, `${method} api`);
      called.add(method);
    };

    it('token.php gives a TokenAnswer', async () => {
      const fresh = await t.tokenFor(friendId);
      assertFits(TokenAnswer, { token: fresh }, 'token.php');
    });

    it('GET methods: user, friends, counts, notifications, photos', async () => {
      for (const [method, params] of [
        ['user.getUser', {}],
        ['user.getUser', { user_id: friendId }],
        ['friend.getFriends', {}],
        ['friend.isFriend', { friend_user_id: friendId }],
        ['mail.getNewCount', {}],
        ['notification.getNewCount', {}],
        ['notification.get', {}],
        ['photo.getPhotos', {}],
      ] as const) {
        const { status, body } = await t.call({ token, method, ...params });
        assert.equal(status, 200, `${method}: ${JSON.stringify(body)}`);
        check(method, body);
      }
    });

    it('POST methods: notification.add and photo.addPhoto', async () => {
      const added = await t.app.inject({
        method: 'POST',
        url: '/api.php',
        payload: { token, method: 'notification.add', message: 'Your turn' },
      });
      assert.equal(added.statusCode, 200, added.body);
      check('notification.add', added.json());
      const { payload, headers } = await multipartBody(
        { token, method: 'photo.addPhoto', visibility: 'friends' },
        { name: 'sea.jpg', type: 'image/jpeg', data: await solidJpeg(800, 600) },
      );
      const uploaded = await t.app.inject({ method: 'POST', url: '/api.php', payload, headers });
      assert.equal(uploaded.statusCode, 200, uploaded.body);
      check('photo.addPhoto', uploaded.json());
    });

    it('errors fit the error envelope, with their details', async () => {
      const refusals: Record<string, string>[] = [
        { method: 'user.getUser' },
        { token, method: 'user.getUser', user_id: 'x' },
      ];
      for (const params of refusals) {
        const { status, body } = await t.call(params);
        assert.ok(status >= 400, JSON.stringify(body));
        assertFits(ApiErrorEnvelope, body, JSON.stringify(params));
      }
      const refused = await t.app.inject({ url: '/token.php', query: { key: 'nope' } });
      assertFits(ApiErrorEnvelope, refused.json(), 'token.php error');
    });

    it('every registered method was checked', () => {
      assert.deepEqual([...called].sort(), registry.names);
    });

    it('the OpenAPI document shows each method’s output record', async () => {
      const document = (await t.app.inject('/openapi.json')).json();
      const schemas = document.components.schemas;
      for (const name of ['User', 'Friend', 'Notification', 'NotificationAdded', 'Photo', 'UploadedPhoto']) {
        assert.ok(schemas[name]?.properties, `${name} is a component`);
      }
      assert.deepEqual(Object.keys(schemas.User.properties).sort(), Object.keys(User.properties).sort());
      assert.deepEqual(schemas.User.required.sort(), Object.keys(User.properties).sort(), 'every User field required');
      assert.ok(!('email' in schemas.Friend.properties), 'a friend has no e-mail');
      const api = document.paths['/api.php'].get;
      const outputs = api.responses['200'].content['application/json'].schema.properties.output.oneOf;
      const refs = JSON.stringify(outputs);
      for (const name of ['User', 'Friend', 'Notification', 'Photo', 'UploadedPhoto', 'FriendshipCheck']) {
        assert.ok(refs.includes(`#/components/schemas/${name}`), `output may be ${name}`);
      }
      assert.match(api.description, /\| GET \| `user\.getUser` \| user_id \| User \|/);
      assert.match(api.description, /\| GET \| `friend\.getFriends` \| user_id, page \| array of Friend \|/);
      const token = document.paths['/token.php'].get.responses['200'].content['application/json'].schema;
      assert.deepEqual(token.required, ['token']);
    });

    it('the OpenAPI document lists the client errors each operation’s parameters and body make possible', async () => {
      const document: OpenApiDocument = (await t.app.inject('/openapi.json')).json();
      assert.ok(operationsOf(document).length >= 3);
      assert.deepEqual(undocumentedErrors(document), []);
    });
  });
}
