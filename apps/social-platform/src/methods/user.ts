import { User } from '@repo/contracts/platform';
import { subjectOf, userIdParam } from './access.ts';
import { presentUser } from './present.ts';
import { singleMethod } from './registry.ts';

export const userMethods = [
  singleMethod({
    name: 'user.getUser',
    permission: 'basic_profile',
    httpMethod: 'GET',
    summary:
      "A user's profile, every field present: email is filled only for the token's own user and with the email " +
      'permission (null otherwise); a user without a picture has the default avatar URLs; country_iso and gender ' +
      'are null when not given.',
    output: User,
    params: { user_id: userIdParam },
    // Without an await: the token's own user, without a picture, is answered in the same turn.
    handler({ ctx, caller, params }) {
      const emailOf = caller.permissions.includes('email') ? caller.userId : undefined;
      const subject = subjectOf(ctx, caller, params.user_id);
      return subject instanceof Promise
        ? subject.then((user) => presentUser(ctx, user, emailOf))
        : presentUser(ctx, subject, emailOf);
    },
  }),
];
