import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PERMISSIONS } from '../../applications/permissions.ts';
import type { Visibility } from '../../db/schema.ts';
import { profileSchema, type User } from '../../users/users-service.ts';
import { setFlash } from '../flash.ts';
import { type FieldErrors, fieldErrors, textFields } from '../forms.ts';
import { renderPage } from '../render.ts';
import { requireViewer } from '../viewer.ts';

const PROFILE_FIELDS = ['fullName', 'countryIso', 'gender'] as const;

/** Who may see one's friends list, in the words the settings page uses. */
export const FRIENDS_VISIBILITY_CHOICES: Array<{ value: Visibility; label: string; hint: string }> = [
  { value: 'public', label: 'Everyone', hint: 'Anyone on the platform, and apps they use.' },
  { value: 'friends', label: 'Friends', hint: 'Only your friends, and apps they use.' },
  { value: 'private', label: 'Only me', hint: 'Nobody else; apps you use still see it.' },
];

const isVisibility = (value: string): value is Visibility =>
  FRIENDS_VISIBILITY_CHOICES.some((choice) => choice.value === value);

const appParams = {
  type: 'object',
  required: ['appId'],
  properties: { appId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

/** Settings: one's profile and who sees one's friends list; the apps one allowed, and removing one. */
export async function settingsPages(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;

  const renderProfileSettings = (
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    form: { values?: Record<string, string>; errors?: FieldErrors; status?: number } = {},
  ) =>
    renderPage(
      request,
      reply,
      'settings-profile.eta',
      {
        title: 'Settings',
        values: form.values ?? {
          fullName: user.full_name,
          countryIso: user.country_iso ?? '',
          gender: user.gender ?? '',
        },
        errors: form.errors ?? {},
        userName: user.user_name,
        email: user.email,
        friendsVisibility: user.friends_visibility,
        choices: FRIENDS_VISIBILITY_CHOICES,
      },
      form.status ?? 200,
    );

  app.get('/settings', async (request, reply) => renderProfileSettings(request, reply, requireViewer(request).user));

  app.post('/settings/profile', { preHandler: app.csrfProtection }, async (request, reply) => {
    const viewer = requireViewer(request);
    const values = textFields(request.body, PROFILE_FIELDS);
    // Optional fields left empty are unset, not invalid.
    const changes = {
      fullName: values.fullName,
      countryIso: values.countryIso.trim() || undefined,
      gender: values.gender.trim() || undefined,
    };
    const parsed = profileSchema.safeParse(changes);
    if (!parsed.success) {
      return renderProfileSettings(request, reply, viewer.user, {
        values,
        errors: fieldErrors(parsed.error),
        status: 400,
      });
    }
    await ctx.users.updateProfile(viewer.user.id, changes);
    setFlash(reply, 'profile_saved', app.web.cookies.secure);
    return reply.redirect('/settings', 303);
  });

  app.post('/settings/friends-visibility', { preHandler: app.csrfProtection }, async (request, reply) => {
    const viewer = requireViewer(request);
    const { visibility } = textFields(request.body, ['visibility'] as const);
    if (!isVisibility(visibility)) {
      return renderProfileSettings(request, reply, viewer.user, {
        errors: { visibility: 'Choose who may see your friends list.' },
        status: 400,
      });
    }
    await ctx.users.setFriendsVisibility(viewer.user.id, visibility);
    setFlash(reply, 'friends_visibility_saved', app.web.cookies.secure);
    return reply.redirect('/settings', 303);
  });

  app.get('/settings/apps', async (request, reply) => {
    const viewer = requireViewer(request);
    const granted = await ctx.grants.listForUser(viewer.user.id);
    return renderPage(request, reply, 'settings-apps.eta', {
      title: 'Your apps',
      apps: granted.map((entry) => ({
        id: entry.appId,
        name: entry.name,
        iconUrl: entry.iconUrl,
        permissions: entry.permissions.map((name) => PERMISSIONS[name]),
        grantedOn: new Date(entry.grantedAt).toISOString().slice(0, 10),
      })),
    });
  });

  // Removing an app deletes the grant and revokes its tokens at once, and tells the app (app.deauthorized, and
  // user.data_deletion_requested when the user ticks the box); opening it again asks again.
  app.post<{ Params: { appId: number } }>(
    '/settings/apps/:appId/remove',
    { schema: { params: appParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const deleteData = (request.body as { deleteData?: unknown } | undefined)?.deleteData === '1';
      await ctx.appRemoval.remove(request.params.appId, viewer.user.id, { deleteData });
      setFlash(reply, 'app_removed', app.web.cookies.secure);
      return reply.redirect('/settings/apps', 303);
    },
  );
}
