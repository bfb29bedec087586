import type { Redis } from '@repo/server-kit';
import type { Config } from '../config.ts';
import { CountedLimit } from '../limits/counted-limit.ts';

/** Sign-up attempts of any outcome per client address per hour: far above a person's typos, far below a flood. */
export const SIGNUP_ATTEMPTS_PER_HOUR = 60;
/** Sign-up mails (confirmation links, "you have an account") one address receives per hour. */
export const SIGNUP_MAILS_PER_ADDRESS_PER_HOUR = 3;

const minutes = (seconds: number) => `${Math.ceil(seconds / 60)} min`;

/** The three limits of sign-up (see SignupService for what each protects). */
export function createSignupLimits(config: Config, redis: Redis | undefined) {
  return {
    signupsPerClient: new CountedLimit(redis, {
      name: 'signups-per-client',
      max: config.SIGNUP_RATE_PER_HOUR,
      windowSeconds: 3_600,
      refusal: (wait) =>
        `This address (your network) has made ${config.SIGNUP_RATE_PER_HOUR} sign-ups in the last hour, the most allowed. ` +
        `Try again in ${minutes(wait)}.`,
    }),
    attemptsPerClient: new CountedLimit(redis, {
      name: 'signup-attempts-per-client',
      max: Math.max(SIGNUP_ATTEMPTS_PER_HOUR, config.SIGNUP_RATE_PER_HOUR),
      windowSeconds: 3_600,
      refusal: (wait) => `Too many sign-up attempts from this address. Try again in ${minutes(wait)}.`,
    }),
    mailsPerRecipient: new CountedLimit(redis, {
      name: 'signup-mails-per-recipient',
      max: SIGNUP_MAILS_PER_ADDRESS_PER_HOUR,
      windowSeconds: 3_600,
      refusal: (wait) =>
        `We already mailed this e-mail address ${SIGNUP_MAILS_PER_ADDRESS_PER_HOUR} times in the last hour. ` +
        `Use the link in one of those mails (each works for 24 hours; look in the spam folder too), or try again in ${minutes(wait)}.`,
    }),
  };
}
