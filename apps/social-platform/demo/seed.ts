import type { Permission } from '../src/applications/permissions.ts';
import type { AppContext } from '../src/context.ts';
import type { User } from '../src/users/users-service.ts';
import { avatarImage, landscapeImage } from './demo-images.ts';

export const DEMO_PASSWORD = 'demo-password';
export const SAMPLE_APP_NAME = 'Sample App';

const PEOPLE = [
  { userName: 'alice', fullName: 'Alice Martin', countryIso: 'FR', gender: 'female', color: '#d9480f' },
  { userName: 'bob', fullName: 'Bob Okafor', countryIso: 'NG', gender: 'male', color: '#1971c2' },
  { userName: 'chloe', fullName: 'Chloé Dubois', countryIso: 'BE', gender: 'female', color: '#2f9e44' },
  { userName: 'dmitri', fullName: 'Dmitri Volkov', countryIso: 'EE', gender: 'male', color: '#7048e8' },
  { userName: 'devon', fullName: 'Devon Developer', countryIso: 'GB', gender: 'non-binary', color: '#495057' },
] as const;

type Handle = (typeof PEOPLE)[number]['userName'];

export interface DemoSeedResult {
  login: { user_name: string; password: string };
  users: Record<Handle, number>;
  app_id: number;
  app_url: string;
}

/**
 * Demo users who are friends, with mail, notifications, photos and profile pictures, and
 * the sample app installed. Idempotent: what exists is kept, what is missing is added.
 */
export async function seedDemo(ctx: AppContext): Promise<DemoSeedResult> {
  const users = {} as Record<Handle, User>;
  for (const person of PEOPLE) {
    const existing = await ctx.users.findByUserName(person.userName);
    users[person.userName] =
      existing ??
      (await ctx.users.create({
        userName: person.userName,
        fullName: person.fullName,
        email: `${person.userName}@demo.example`,
        password: DEMO_PASSWORD,
        countryIso: person.countryIso,
        gender: person.gender,
      }));
    if (!users[person.userName].picture_photo_id) {
      const initials = person.fullName
        .split(' ')
        .map((part) => part[0])
        .join('');
      await ctx.photos.setProfilePicture(users[person.userName].id, await avatarImage(initials, person.color));
    }
  }
  const { alice, bob, chloe, dmitri, devon } = users;

  for (const [a, b] of [
    [alice, bob],
    [alice, chloe],
    [bob, chloe],
    [bob, dmitri],
    [alice, devon],
  ] as const) {
    if (!(await ctx.friends.isFriend(a.id, b.id))) await ctx.friends.befriend(a.id, b.id);
  }
  if (!(await ctx.friends.isFriend(dmitri.id, alice.id))) await ctx.friends.request(dmitri.id, alice.id);

  const inbox = await ctx.mail.listConversations(alice.id, { page: 1, perPage: 1 });
  if (inbox.total === 0) {
    await ctx.mail.send(bob.id, alice.id, 'Hi Alice! Are you coming to the picnic on Saturday?');
    await ctx.mail.send(alice.id, bob.id, 'Yes, I will bring the lemonade.');
    await ctx.mail.send(bob.id, alice.id, 'Great, see you at noon by the lake.');
    await ctx.mail.send(chloe.id, alice.id, 'I uploaded the photos from our trip, have a look.');
  }

  const notifications = await ctx.notifications.list(alice.id, { page: 1, perPage: 1 });
  if (notifications.total === 0) {
    await ctx.notifications.add(alice.id, { message: 'Dmitri Volkov wants to be your friend.', link: '/friends' });
    await ctx.notifications.add(alice.id, { message: 'Chloé Dubois sent you a message.', link: '/mail' });
    await ctx.notifications.add(alice.id, { message: 'Bob Okafor sent you a message.', link: '/mail' });
  }

  const albums: Array<[User, string, string, string, 'public' | 'friends']> = [
    [alice, 'Lake at dawn', '#4dabf7', '#2b8a3e', 'public'],
    [alice, 'Hills in June', '#ffa94d', '#5c940d', 'friends'],
    [chloe, 'Road trip', '#845ef7', '#495057', 'public'],
    [bob, 'Picnic spot', '#74c0fc', '#37b24d', 'public'],
  ];
  for (const [owner, caption, sky, hill, visibility] of albums) {
    const existing = await ctx.photos.list(owner.id, owner.id, { page: 1, perPage: 50 });
    if (existing.items.some((photo) => photo.name === caption)) continue;
    await ctx.photos.addPhoto({
      ownerId: owner.id,
      name: caption,
      data: await landscapeImage(caption, sky, hill),
      visibility,
    });
  }

  const canvasUrl = ctx.config.SAMPLE_APP_URL;
  // Everything the sample app calls; each user is still asked to allow it the first time.
  const SAMPLE_APP_PERMISSIONS: Permission[] = [
    'basic_profile',
    'email',
    'friends',
    'mail_count',
    'notifications',
    'photos_read',
    'photos_upload',
    'send_notifications',
  ];
  let sampleApp = await ctx.apps.findByName(SAMPLE_APP_NAME);
  if (!sampleApp) {
    sampleApp = await ctx.apps.create({
      name: SAMPLE_APP_NAME,
      canvasUrl,
      ownerId: devon.id,
      description:
        'Shows what the Application API gives an app: your profile, friends, counts, notifications and photos.',
      permissions: SAMPLE_APP_PERMISSIONS,
      published: true,
    });
  } else if (sampleApp.canvas_url !== canvasUrl) {
    await ctx.apps.setCanvasUrl(sampleApp.id, canvasUrl);
  }

  return {
    login: { user_name: alice.user_name, password: DEMO_PASSWORD },
    users: Object.fromEntries(PEOPLE.map((person) => [person.userName, users[person.userName].id])) as Record<
      Handle,
      number
    >,
    app_id: sampleApp.id,
    app_url: canvasUrl,
  };
}
