import type { MailMessage } from '../mail/index.ts';

/** "Confirm your address": the link that creates the account and shows its key once. */
export function confirmationMail(to: string, link: string, hours: number): MailMessage {
  return {
    to,
    subject: 'Confirm your e-mail address for the Domain Intelligence API',
    text:
      `Someone (we hope you) signed up for a Free Domain Intelligence API account with ${to}.\n\n` +
      `Open this link to confirm the address; the page it opens creates the account and shows its API key, once:\n\n` +
      `${link}\n\n` +
      `The link works for ${hours} hours. If you did not sign up, ignore this mail: no account exists until the link is used.\n`,
  };
}

/** A sign-up for an address that already has an account: the owner is told, nobody else learns it. */
export function alreadyRegisteredMail(to: string, dashboardUrl: string): MailMessage {
  return {
    to,
    subject: 'You already have a Domain Intelligence API account',
    text:
      `Someone (we hope you) tried to sign up with ${to}, which already has an account, so no new one was made.\n\n` +
      `Sign in to the dashboard with one of its API keys, or ask there for a one-time sign-in link by e-mail if you ` +
      `lost them: ${dashboardUrl}\n\n` +
      `If it was not you, ignore this mail; nothing changed.\n`,
  };
}
