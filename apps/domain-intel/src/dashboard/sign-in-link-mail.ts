import type { MailMessage } from '../mail/index.ts';

/** The one-time dashboard sign-in link, by mail to the account's address. */
export function signInLinkMail(to: string, link: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Your sign-in link for the Domain Intelligence dashboard',
    text:
      `Open this link to sign in to the dashboard of ${to}. It works once, for ${minutes} minutes:\n\n${link}\n\n` +
      `If you did not ask for it, ignore this mail: nobody can use the link without access to your mailbox.\n`,
  };
}
