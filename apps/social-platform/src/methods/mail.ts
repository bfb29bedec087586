import { NewCount } from '@repo/contracts/platform';
import { requireSelf, subjectOf, userIdParam } from './access.ts';
import { singleMethod } from './registry.ts';

export const mailMethods = [
  singleMethod({
    name: 'mail.getNewCount',
    permission: 'mail_count',
    httpMethod: 'GET',
    summary: "Number of unseen messages of the token's own user.",
    output: NewCount,
    params: { user_id: userIdParam },
    async handler({ ctx, caller, params }) {
      const subject = await subjectOf(ctx, caller, params.user_id);
      requireSelf(caller, subject, 'unseen mail count');
      return ctx.mail.unseenCount(subject.id);
    },
  }),
];
