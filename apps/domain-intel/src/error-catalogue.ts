import { FEED_QUERY_ERRORS } from '@repo/contracts/domain-intel';
import { defineErrorCatalogue } from '@repo/server-kit/error-catalogue';

/**
 * Every error code the Domain Intelligence API answers with, written once: its status, what it
 * means and what the caller should do. /docs/errors, the OpenAPI error schemas and the `docs`
 * link of each error body are rendered from it, and errors are raised only through
 * `appError(code, message, options)`, so an unlisted code does not compile. server-kit adds
 * the framework codes (not_found, method_not_allowed, invalid_url, …) it answers itself.
 */
export const errorCatalogue = defineErrorCatalogue({
  // Keys and plans
  missing_key: {
    status: 401,
    meaning: 'No Authorization header.',
    action: 'Send "Authorization: Bearer di_live_…"; sign up at /signup for a key.',
  },
  invalid_key: {
    status: 401,
    meaning: 'The Authorization header is not exactly "Bearer <key>", was sent more than once, or the key is unknown.',
    action: 'Send one header "Authorization: Bearer <key>" with a current key; the dashboard lists your keys.',
  },
  key_revoked: {
    status: 401,
    meaning: 'The key was revoked or rotated, or its cancelled subscription reached the end of its billing period.',
    action: 'Use a current key of the account, or subscribe again.',
  },
  plan_required: {
    status: 403,
    meaning: "The feature is not part of the caller's plan; details.feature names it. No quota is used.",
    action: 'Upgrade the plan, or leave the feature out.',
  },
  quota_exceeded: {
    status: 429,
    meaning: 'The daily call cap of the plan is used up.',
    action: 'Wait the seconds Retry-After gives (the quota resets at 00:00 UTC), or upgrade.',
  },
  service_unavailable: {
    status: 503,
    meaning:
      'The quota counters or rate limits (Redis) cannot be reached, so the call is refused at once instead of going uncounted. Nothing was done and no quota was used.',
    action: 'Retry after the seconds Retry-After gives.',
  },
  rate_limited: {
    status: 429,
    meaning: 'Too many requests from this address (sign-up, sign-in, the keyless preview).',
    action: 'Wait the seconds Retry-After gives, then retry.',
  },
  // Accounts
  invalid_email: {
    status: 400,
    meaning: 'The e-mail address is missing or not valid.',
    action: 'Give a full address such as you@example.com.',
  },
  invalid_plan: { status: 400, meaning: 'The plan name is unknown.', action: 'Use free, starter or enterprise.' },
  email_taken: {
    status: 409,
    meaning: 'An account with this e-mail address already exists.',
    action: 'Use the key issued for it, or sign in to the dashboard.',
  },
  signup_link_invalid: {
    status: 400,
    meaning: 'The sign-up confirmation link has expired (after 24 hours) or was already used.',
    action: 'Sign up again with the same address to get a new link.',
  },
  mail_unavailable: {
    status: 503,
    meaning:
      'The mail the request needs (a sign-up confirmation) could not be handed to the mail server. Nothing was created.',
    action: 'Retry after the seconds Retry-After gives.',
  },
  account_not_found: {
    status: 404,
    meaning: 'No account with this e-mail address.',
    action: 'Check the address, or sign up.',
  },
  key_not_found: {
    status: 404,
    meaning: 'No key with this id on the account.',
    action: 'Use a key id the account lists.',
  },
  key_already_revoked: { status: 409, meaning: 'The key is already revoked.', action: 'Nothing to do.' },
  nothing_to_cancel: {
    status: 409,
    meaning: 'The Free plan has no subscription to cancel.',
    action: 'Nothing to do: the Free plan never expires.',
  },
  already_cancelled: { status: 409, meaning: 'The subscription is already cancelled.', action: 'Nothing to do.' },
  // Billing (Stripe)
  invalid_signature: {
    status: 400,
    meaning:
      'POST /billing/webhook: the Stripe-Signature header is missing, malformed, older than the tolerance, or does not match the body.',
    action: 'Send the body exactly as Stripe signed it, with its Stripe-Signature header.',
  },
  already_subscribed: {
    status: 409,
    meaning: 'The account already has a Stripe subscription.',
    action: 'Change it in the billing portal ("Manage billing").',
  },
  no_billing_account: {
    status: 409,
    meaning: 'The account has not bought a plan through Stripe yet, so there is no billing portal.',
    action: 'Choose a paid plan first.',
  },
  checkout_not_found: {
    status: 404,
    meaning: 'No Stripe Checkout session of this account with that id.',
    action: 'Start the checkout again from the dashboard.',
  },
  // Dashboard
  sign_in_failed: {
    status: 401,
    meaning: 'The e-mail address and API key do not belong to one active account.',
    action: 'Check both, or ask for a sign-in link by e-mail.',
  },
  plan_ended: {
    status: 401,
    meaning:
      "The e-mail address and API key are right, but the account's paid plan was cancelled and ended with its billing period, and its keys with it.",
    action: 'Ask for a sign-in link by e-mail to open the dashboard and choose a plan again.',
  },
  sign_in_link_invalid: {
    status: 400,
    meaning: 'The sign-in link has expired or was already used.',
    action: 'Ask for a new link.',
  },
  not_signed_in: {
    status: 401,
    meaning: 'The dashboard session has ended.',
    action: 'Sign in again.',
  },
  invalid_csrf_token: {
    status: 403,
    meaning: 'The form has expired or was not sent from this site.',
    action: 'Reload the page and send the form again.',
  },
  invalid_key_name: {
    status: 400,
    meaning: 'A key name has at most 64 characters and no control characters.',
    action: 'Choose a shorter name.',
  },
  // Domain names
  missing_domain: {
    status: 400,
    meaning: 'No domain was given.',
    action: 'Give the name in domain (or a comma-separated list in domains).',
  },
  conflicting_parameters: {
    status: 400,
    meaning: 'Two parameters that exclude each other were both given.',
    action: 'Give one of them (the message names both).',
  },
  empty_domain_entry: {
    status: 400,
    meaning: 'The domains list has an empty entry.',
    action: 'Remove doubled or trailing commas.',
  },
  too_many_domains: {
    status: 400,
    meaning: 'More domains in one call than the API or the plan allows; details.limit gives the cap.',
    action: 'Split the list into calls of at most details.limit names.',
  },
  invalid_domain: {
    status: 400,
    meaning: 'The name is not a valid domain name (characters, hyphens, empty labels).',
    action: 'Give a name such as example.com; Unicode names may be given as such or as punycode.',
  },
  domain_too_long: { status: 400, meaning: 'The name is longer than 253 characters.', action: 'Shorten it.' },
  label_too_long: {
    status: 400,
    meaning: 'A label (the part between dots) is longer than 63 characters.',
    action: 'Shorten the label.',
  },
  ip_address_not_allowed: {
    status: 400,
    meaning: 'An IP address was given instead of a domain name.',
    action: 'Give a domain name.',
  },
  unsupported_tld: {
    status: 400,
    meaning: 'The name does not end in a public suffix we know.',
    action: 'Check the ending of the name.',
  },
  bare_tld: {
    status: 400,
    meaning: 'Only a public suffix (such as com or co.uk) was given.',
    action: 'Give a registrable name such as example.com.',
  },
  subdomain_not_allowed: {
    status: 400,
    meaning: 'A subdomain was given; registrations happen at the registrable name.',
    action: 'Give the registrable name (example.com for www.example.com).',
  },
  domain_not_registered: {
    status: 404,
    meaning: 'The registry has no record of the name: it is not registered.',
    action: 'Nothing to look up; /v1/check says whether it is available.',
  },
  no_registry_service: {
    status: 422,
    meaning: 'Neither an RDAP nor a port-43 WHOIS server is known for the TLD of the name (see GET /v1/tlds).',
    action:
      'No structured WHOIS exists for this TLD; an operator can add its server (RDAP_EXTRA_SERVERS, WHOIS_SERVERS).',
  },
  tld_not_found: {
    status: 404,
    meaning: "The TLD is not in the root zone (the built-in copy of IANA's list; GET /v1/tlds lists them).",
    action: 'Check the spelling; give the TLD without a name, e.g. io or .io.',
  },
  domain_reserved: {
    status: 404,
    meaning:
      "The name is reserved (by the registry, ICANN's Registry Agreement or this service's list): it has no registration record.",
    action: 'Nothing to look up; reserved names cannot be registered.',
  },
  upstream_unavailable: {
    status: 503,
    meaning: "The registry's RDAP server gave no usable answer.",
    action: 'Retry later; no quota is lost on a 5xx.',
  },
  // Suggestions
  keyword_required: {
    status: 400,
    meaning: 'No keyword was given.',
    action: 'Give one, e.g. ?keyword=coffee%20shop.',
  },
  keyword_too_long: {
    status: 400,
    meaning: 'The keyword is too long for a domain label.',
    action: 'Use a shorter keyword.',
  },
  keyword_unusable: {
    status: 400,
    meaning: 'The keyword has nothing a domain name could be made of.',
    action: 'Use letters or digits.',
  },
  too_many_tlds: {
    status: 400,
    meaning: 'More TLDs were asked for than one call allows.',
    action: 'Ask for fewer TLDs; details.limit gives the cap.',
  },
  // Feed and export filters (their text is the feed parameters' wire half, with each parameter)
  ...FEED_QUERY_ERRORS,
  invalid_format: { status: 400, meaning: 'The export format is unknown.', action: 'Use format=ndjson or format=csv.' },
  unknown_parameter: {
    status: 400,
    meaning:
      'A query parameter the route does not take (a misspelt or made-up name would otherwise be ignored silently); details.parameter names it and details.accepted lists the ones the route takes.',
    action: 'Correct or drop the parameter; use one of details.accepted.',
  },
  unsupported_parameter: {
    status: 400,
    meaning: 'A parameter this route does not take (the export takes no paging).',
    action: 'Leave out the parameters the message names.',
  },
  // Zone snapshots (API and the zones command line)
  snapshot_not_found: {
    status: 404,
    meaning: 'No zone snapshot of that TLD for that date.',
    action: 'List the snapshots that exist with GET /v1/snapshots/{tld}.',
  },
  zone_file_not_found: {
    status: 404,
    meaning: 'The zone file to import does not exist.',
    action: 'Check the path.',
  },
  zone_file_corrupt: {
    status: 422,
    meaning: 'The zone file is not readable gzip or text.',
    action: 'Download it again.',
  },
  zone_file_truncated: {
    status: 422,
    meaning: 'The zone file ends in the middle (its gzip stream is cut).',
    action: 'Download it again.',
  },
  zone_file_invalid: {
    status: 422,
    meaning: 'The file is not a valid zone of the TLD (a bad line, or no SOA record of the TLD).',
    action: 'Check that the file is the zone of that TLD, and download it again.',
  },
  zone_shrunk_too_much: {
    status: 422,
    meaning: 'The new zone has far fewer names than the last one, so it is refused as probably incomplete.',
    action: 'Check the file; raise ZONE_MAX_SHRINK if the shrink is real.',
  },
  czds_not_configured: {
    status: 503,
    meaning: 'No ICANN CZDS credentials are configured.',
    action: 'Set CZDS_USERNAME and CZDS_PASSWORD.',
  },
  czds_auth_failed: {
    status: 502,
    meaning: 'ICANN CZDS refused the credentials.',
    action: 'Check CZDS_USERNAME and CZDS_PASSWORD.',
  },
  czds_zone_not_approved: {
    status: 403,
    meaning: 'The CZDS account has no approved access to this zone.',
    action: 'Request access to the zone in CZDS.',
  },
  czds_download_limit: {
    status: 429,
    meaning: 'CZDS allows one download of a zone per 24 hours.',
    action: 'Retry at details.next_allowed_at.',
  },
  czds_unavailable: {
    status: 503,
    meaning: 'CZDS did not answer usably.',
    action: 'Retry later.',
  },
  invalid_name: {
    status: 400,
    meaning: 'A name of 1-64 characters without control characters is required.',
    action: 'Give a shorter plain name.',
  },
  unknown_filter_parameter: {
    status: 400,
    meaning: 'A saved filter takes only the /v1/domains filter parameters.',
    action: 'Use the parameters listed in the message.',
  },
  duplicate_filter_parameter: {
    status: 400,
    meaning: 'A filter parameter was given twice.',
    action: 'Give each filter once.',
  },
  invalid_brand_term: {
    status: 400,
    meaning:
      'A brand term is one domain label without TLD of 3-63 characters: letters (any script), digits and inner hyphens.',
    action: 'Give the brand as a label, e.g. brand=paypal (not paypal.com, not a one- or two-letter term).',
  },
  filter_name_taken: {
    status: 409,
    meaning: 'The account already has a saved filter with this name.',
    action: 'Choose another name.',
  },
  filter_not_found: {
    status: 404,
    meaning: 'No saved filter with this id on the account.',
    action: 'List your filters with GET /account/filters.',
  },
  plan_limit_reached: {
    status: 403,
    meaning: 'The plan limit of saved filters or watched domains is reached.',
    action: 'Remove one, or upgrade.',
  },
  invalid_target_kind: {
    status: 400,
    meaning: 'A delivery target is a webhook, email or sftp.',
    action: 'Send kind webhook, email or sftp.',
  },
  invalid_target: {
    status: 400,
    meaning: 'The target address is not a valid URL, e-mail address or sftp URL.',
    action: 'Fix the address.',
  },
  target_not_allowed: {
    status: 400,
    meaning: 'Webhook and SFTP targets must be public hosts; private and loopback addresses are refused.',
    action: 'Use a public host.',
  },
  target_not_found: {
    status: 404,
    meaning: 'No delivery target with this id on the account.',
    action: 'List your targets with GET /account/targets.',
  },
  delivery_not_found: {
    status: 404,
    meaning: 'No delivery with this id on the account.',
    action: 'List deliveries with GET /v1/deliveries.',
  },
  nothing_to_redeliver: {
    status: 409,
    meaning: 'The batch went to the dashboard only; it has no target.',
    action: 'Nothing to do.',
  },
  delivery_pending: {
    status: 409,
    meaning: 'The delivery is still being attempted.',
    action: 'Wait until it ends, then redeliver.',
  },
  tld_without_registry_service: {
    status: 400,
    meaning: "Neither an RDAP nor a port-43 WHOIS server is known for the name's TLD, so it cannot be followed.",
    action: 'Watch names under TLDs GET /v1/tlds lists as answered.',
  },
  watch_not_found: {
    status: 404,
    meaning: 'The account does not watch this domain.',
    action: 'List your watchlist with GET /v1/watchlist.',
  },
  // Bulk availability jobs (/account/bulk-checks)
  empty_domain_list: {
    status: 400,
    meaning: 'The bulk list holds no name: an empty domains array, or a text body without a non-blank line.',
    action: 'Send at least one name: {"domains": ["example.com"]}, or one name per line as text/plain or text/csv.',
  },
  bulk_check_not_found: {
    status: 404,
    meaning: 'The account has no bulk check with this id.',
    action: 'List your bulk checks with GET /account/bulk-checks.',
  },
  bulk_check_finished: {
    status: 409,
    meaning: 'The bulk check is already done, cancelled or failed, so there is nothing to cancel.',
    action: 'Nothing to do; its results stay downloadable.',
  },
});

export type ErrorCode = (typeof errorCatalogue.entries)[number]['code'];

/** The error to throw: `throw appError('plan_required', 'Bulk checks need …', { details })`. */
export const appError = errorCatalogue.appError;
