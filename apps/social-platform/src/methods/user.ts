import { subjectOf, userIdParam } from './access.ts';
import { presentUsers } from './present.ts';
import { singleMethod } from './registry.ts';

export const userMethods = [
  singleMethod({
    name: 'user.getUser',
    httpMethod: 'GET',
    summary: "A user's profile. email is given only for the token's own user.",
    output: 'User record',
    params: { user_id: userIdParam },
    async handler({ ctx, caller, params }) {
      const subject = await subjectOf(ctx, caller, params.user_id);
      const [record] = await presentUsers(ctx, [subject], caller.userId);
      return record;
    },
  }),
];
