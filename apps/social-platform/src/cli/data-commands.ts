import { wholeNumber } from '@repo/server-kit';
import type { Command } from 'commander';
import { permissionsOf } from '../applications/applications-service.ts';
import { PERMISSION_NAMES } from '../applications/permissions.ts';
import type { AppContext } from '../context.ts';
import { type User, userNotFound } from '../users/users-service.ts';
import { printResult } from './output.ts';

type GetContext = () => Promise<AppContext>;

const positiveInteger = wholeNumber(1, Number.MAX_SAFE_INTEGER);

/** A user given by id (`12`) or by user name (`alice`). */
async function resolveUser(ctx: AppContext, reference: string): Promise<User> {
  if (/^\d+$/.test(reference)) return ctx.users.getById(Number(reference));
  const user = await ctx.users.findByUserName(reference);
  if (!user) throw userNotFound(`"${reference}"`);
  return user;
}

/** users, friends, mail, notifications, apps, keys and demo commands. */
export function registerDataCommands(program: Command, getContext: GetContext): void {
  const json = () => Boolean(program.opts().json);

  const users = program.command('users').description('Manage users');
  users
    .command('create')
    .description('Create a user')
    .requiredOption('--user-name <name>', 'URL-safe handle (3–32 of a-z 0-9 . _ -)')
    .requiredOption('--full-name <name>', 'Full name')
    .requiredOption('--email <email>', 'E-mail address')
    .requiredOption('--password <password>', 'Password (at least 8 characters)')
    .option('--country <iso>', 'Two-letter country code')
    .option('--gender <gender>', 'Gender, as text')
    .action(async (options) => {
      const ctx = await getContext();
      const user = await ctx.users.create({
        userName: options.userName,
        fullName: options.fullName,
        email: options.email,
        password: options.password,
        countryIso: options.country,
        gender: options.gender,
      });
      printResult(json(), { user_id: user.id, user_name: user.user_name }, `Created user ${user.user_name}.`);
    });

  program
    .command('friends')
    .description('Manage friendships')
    .command('add')
    .description('Make two users friends (no request needed)')
    .requiredOption('--user <user>', 'User id or user name')
    .requiredOption('--friend <user>', 'User id or user name')
    .action(async (options) => {
      const ctx = await getContext();
      const [user, friend] = [await resolveUser(ctx, options.user), await resolveUser(ctx, options.friend)];
      await ctx.friends.befriend(user.id, friend.id);
      printResult(
        json(),
        { user_id: user.id, friend_user_id: friend.id },
        `${user.user_name} and ${friend.user_name} are friends.`,
      );
    });

  program
    .command('mail')
    .description('Private mail')
    .command('send')
    .description('Send a message from one user to another')
    .requiredOption('--from <user>', 'Sender: user id or user name')
    .requiredOption('--to <user>', 'Recipient: user id or user name')
    .requiredOption('--text <text>', 'The message')
    .action(async (options) => {
      const ctx = await getContext();
      const [from, to] = [await resolveUser(ctx, options.from), await resolveUser(ctx, options.to)];
      const message = await ctx.mail.send(from.id, to.id, options.text);
      printResult(json(), { message_id: message.id, conversation_id: message.conversation_id }, 'Message sent.');
    });

  program
    .command('notifications')
    .description('Notifications')
    .command('add')
    .description('Notify a user')
    .requiredOption('--user <user>', 'User id or user name')
    .requiredOption('--message <text>', 'What happened')
    .requiredOption('--link <url>', 'Where it leads: an http(s) URL or a /path on the platform')
    .option('--icon <url>', 'Icon URL')
    .action(async (options) => {
      const ctx = await getContext();
      const user = await resolveUser(ctx, options.user);
      const notification = await ctx.notifications.add(user.id, {
        message: options.message,
        link: options.link,
        icon: options.icon,
      });
      printResult(json(), { notification_id: notification.id, user_id: user.id }, 'Notification added.');
    });

  const apps = program.command('apps').description('Third-party applications');
  apps
    .command('create')
    .description('Register an application; prints its APP ID')
    .requiredOption('--name <name>', 'Name shown to users')
    .requiredOption('--url <url>', 'Canvas URL, loaded in the iframe with ?key=…')
    .requiredOption('--owner <user>', 'Owner: user id or user name')
    .option('--description <text>', 'What the app does, shown on the consent page', '')
    .option(
      '--permissions <list>',
      `Comma-separated permissions it asks for (${PERMISSION_NAMES.join(', ')})`,
      'basic_profile',
    )
    .option('--publish', 'Put it in the directory at once (otherwise only its developer and testers may open it)')
    .option(
      '--require-signed-exchange',
      'token.php refuses exchanges without sig (HMAC of the key with the app secret)',
    )
    .option(
      '--callback-url <url>',
      'Where its events are posted (app.deauthorized …), signed the Standard Webhooks way',
    )
    .action(async (options) => {
      const ctx = await getContext();
      const owner = await resolveUser(ctx, options.owner);
      const application = await ctx.apps.create({
        name: options.name,
        canvasUrl: options.url,
        ownerId: owner.id,
        description: options.description,
        permissions: String(options.permissions)
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
        published: Boolean(options.publish),
        requireSignedExchange: Boolean(options.requireSignedExchange),
      });
      if (options.callbackUrl !== undefined) await ctx.appEvents.setCallbackUrl(application.id, options.callbackUrl);
      // The one time the secret is shown: only its sealed form is kept.
      printResult(
        json(),
        {
          app_id: application.id,
          name: application.name,
          canvas_url: application.canvas_url,
          permissions: permissionsOf(application),
          published: application.published === 1,
          require_signed_exchange: application.require_signed_exchange === 1,
          callback_url: options.callbackUrl ?? null,
          app_secret: application.secret,
        },
        `Created application ${application.name} (APP ID ${application.id}).\nApp secret (shown once, keep it on your server): ${application.secret}`,
      );
    });

  apps
    .command('rotate-secret')
    .description('Give an app a new secret (printed once); the old one stops working at once')
    .requiredOption('--app <id>', 'APP ID', positiveInteger)
    .action(async (options) => {
      const ctx = await getContext();
      const secret = await ctx.apps.rotateSecret(options.app);
      printResult(
        json(),
        { app_id: options.app, app_secret: secret },
        `New secret of APP ID ${options.app} (shown once; the old one no longer works): ${secret}`,
      );
    });

  program
    .command('keys')
    .description('One-time keys')
    .command('issue')
    .description(
      "Issue one-time keys as the canvas page does when a user opens an app; records the user's consent to the " +
        "app's permissions, as pressing Allow does",
    )
    .requiredOption('--app <id>', 'APP ID', positiveInteger)
    .requiredOption('--user <user>', 'User id or user name')
    .option(
      '--count <n>',
      'How many keys, 1-1000 (one per device or test); prints {"keys": [...]} with --json',
      wholeNumber(1, 1000),
    )
    .action(async (options) => {
      const ctx = await getContext();
      const user = await resolveUser(ctx, options.user);
      const application = await ctx.apps.getById(options.app);
      await ctx.consent.allow(application.id, user.id, permissionsOf(application));
      const count: number = options.count ?? 1;
      const keys: string[] = [];
      for (let index = 0; index < count; index++) keys.push(await ctx.appAuth.issueAppKey(application.id, user.id));
      const describe = `${keys.length === 1 ? 'One-time key' : `${keys.length} one-time keys`} for ${user.user_name} (valid ${ctx.config.KEY_TTL_SECONDS} s, each usable once).`;
      if (options.count !== undefined) {
        printResult(json(), { keys }, describe);
        return;
      }
      const key = keys[0]!;
      const tokenUrl = `${ctx.config.PUBLIC_URL}/token.php?key=${key}`;
      printResult(
        json(),
        { key, app_id: application.id, user_id: user.id, expires_in: ctx.config.KEY_TTL_SECONDS, token_url: tokenUrl },
        describe,
      );
    });

  program
    .command('demo')
    .description('Demo data')
    .command('seed')
    .description('Create demo users, friends, mail, notifications, photos and the sample app (idempotent)')
    .action(async () => {
      const ctx = await getContext();
      // Demo seeding lives outside src/ so the server never loads it; only this command and DEMO=1 do.
      const { seedDemo } = await import('../../demo/seed.ts');
      const result = await seedDemo(ctx);
      printResult(
        json(),
        { ...result },
        `Demo data ready. Sign in as ${result.login.user_name} / ${result.login.password}.`,
      );
    });
}
