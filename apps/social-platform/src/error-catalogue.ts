import { defineErrorCatalogue } from '@repo/server-kit';

/**
 * Every error code the social platform answers with (Application API and web pages), written
 * once: status, meaning, what the caller should do. The api.php reference, its OpenAPI error
 * schemas and the web error pages take them from here; errors are raised only through
 * `appError(code, message, options)`, so an unlisted code does not compile. server-kit adds the
 * framework codes (not_found, method_not_allowed, invalid_url, …) it answers itself.
 */
export const errorCatalogue = defineErrorCatalogue({
  // token.php and api.php authentication
  missing_key: {
    status: 400,
    meaning: 'token.php was called without key.',
    action: 'Pass the one-time key from the canvas URL as key.',
  },
  invalid_key: {
    status: 401,
    meaning: 'The key is malformed or unknown.',
    action: 'Open the app again from the platform for a new key.',
  },
  key_expired: {
    status: 401,
    meaning: 'The key is older than KEY_TTL_SECONDS.',
    action: 'Open the app again for a new key; trade it at once.',
  },
  key_already_used: {
    status: 401,
    meaning: 'The key was exchanged before; the token it gave is now revoked.',
    action: 'Open the app again for a new key; trade each key once.',
  },
  missing_token: {
    status: 401,
    meaning: 'api.php was called without token.',
    action: 'Pass the token from token.php as token.',
  },
  invalid_token: {
    status: 401,
    meaning: 'The token is malformed or unknown.',
    action: 'Trade a new key at token.php.',
  },
  token_expired: {
    status: 401,
    meaning: 'The token is older than TOKEN_TTL_SECONDS.',
    action: 'Open the app again for a new key and token.',
  },
  token_revoked: {
    status: 401,
    meaning: 'The key of this token was replayed, the user removed the app, or the app was deleted.',
    action: 'Use the newest token, or open the app again.',
  },
  signature_required: {
    status: 401,
    meaning: 'The app requires a signed exchange and token.php was called without sig; the key is still unused.',
    action: 'Send sig: lowercase hex HMAC-SHA256 of the key with the app secret (the app guide shows it).',
  },
  invalid_signature: {
    status: 401,
    meaning: 'sig is not the HMAC-SHA256 of the key with the app secret; the key is still unused.',
    action: 'Sign the key exactly as it came (UTF-8) with the current app secret, in lowercase hex.',
  },
  app_disabled: {
    status: 403,
    meaning: 'The application has been disabled.',
    action: 'Its developer can enable it again on the Developer page.',
  },
  // api.php methods and parameters
  missing_method: {
    status: 400,
    meaning: 'method is missing.',
    action: 'Pass method=module.name, e.g. user.getUser.',
  },
  invalid_method: {
    status: 400,
    meaning: 'method is not of the form module.name.',
    action: 'Pass method=module.name, e.g. user.getUser.',
  },
  unknown_method: { status: 400, meaning: 'No such method.', action: 'Use a method the message lists.' },
  post_required: {
    status: 405,
    meaning: 'The method needs POST (photo.addPhoto).',
    action: 'Send it as a multipart/form-data POST (the Allow header says POST).',
  },
  missing_parameter: {
    status: 400,
    meaning: 'A required parameter is missing; output.error.parameter names it.',
    action: 'Add the parameter.',
  },
  invalid_parameter: {
    status: 400,
    meaning:
      'A parameter is malformed (page=-1, user_id=abc …) or given more than once; output.error.parameter names it.',
    action: 'Give the parameter once, in the form the reference shows.',
  },
  invalid_batch: {
    status: 400,
    meaning: 'method=batch: calls is not JSON, not an array, or holds no call (the whole batch is refused).',
    action: 'Send calls as a JSON array of {"method": "module.name", "params": {…}}, 1 to 25 of them.',
  },
  batch_too_large: {
    status: 400,
    meaning: 'method=batch: calls holds more than 25 calls (the whole batch is refused).',
    action: 'Split the calls into batches of at most 25.',
  },
  invalid_batch_call: {
    status: 400,
    meaning: "One call of a batch is not an object with a method (text); that call's envelope says so, the others run.",
    action: 'Give each call as {"method": "module.name", "params": {…}}.',
  },
  nested_batch: {
    status: 400,
    meaning: "One call of a batch is itself method=batch; that call's envelope says so, the others run.",
    action: 'Put the calls of the inner batch into the outer one (at most 25 in all).',
  },
  not_batchable: {
    status: 400,
    meaning:
      "One call of a batch uploads a file (photo.addPhoto), which a batch cannot carry; that call's envelope says so.",
    action: 'Call photo.addPhoto on its own, as a multipart/form-data POST.',
  },
  user_not_found: {
    status: 404,
    meaning: 'user_id, friend_user_id or the user name names no user.',
    action: 'Check the id or name.',
  },
  permission_denied: {
    status: 403,
    meaning:
      "The method needs a permission the user has not granted the app (output.error.permission names it), or private data of another user, or a friends list its owner doesn't share with you.",
    action:
      'Declare the permission in the developer console (users are asked at their next opening); ask only for what the token user may see.',
  },
  app_in_development: {
    status: 403,
    meaning: 'The app is in development mode and the user is neither its developer nor a tester.',
    action: 'Add the user as a tester in the developer console, or publish the app.',
  },
  consent_required: {
    status: 403,
    meaning: 'The user has not allowed every permission the app asks for; no key is issued before consent.',
    action: 'Let the user open the app from the platform and press Allow.',
  },
  rate_limited: {
    status: 429,
    meaning: 'Too many calls for this app and user, or key exchanges for this app.',
    action: 'Wait the seconds output.error.retry_after and Retry-After give.',
  },
  invalid_characters: {
    status: 400,
    meaning: 'A parameter, field or file name holds a control character (NUL …).',
    action: 'Send printable text only.',
  },
  // Uploads
  payload_too_large: {
    status: 413,
    meaning:
      'The upload is larger than UPLOAD_MAX_BYTES, or a body is larger than api.php reads (a form of 64 KiB, JSON of 1 MiB).',
    action: 'Upload a smaller file; send parameters in the query or a smaller form.',
  },
  image_too_large: {
    status: 413,
    meaning: 'The image has more pixels than UPLOAD_MAX_PIXELS.',
    action: 'Scale the image down.',
  },
  empty_file: { status: 400, meaning: 'The uploaded file is empty.', action: 'Upload the image itself.' },
  unsupported_image_type: {
    status: 415,
    meaning: 'The file is not a JPEG, PNG, WebP, GIF or AVIF image (judged by content).',
    action: 'Upload one of those formats.',
  },
  invalid_image: {
    status: 422,
    meaning: 'The image is damaged or truncated.',
    action: 'Export the image again and upload it.',
  },
  unexpected_file: {
    status: 400,
    meaning: 'A file was sent in a field other than photo, or two files in one upload.',
    action: 'Send one file, as photo.',
  },
  invalid_body: {
    status: 400,
    meaning: 'The form, JSON or multipart body is malformed (or a JSON body is empty).',
    action: 'Send a well-formed multipart/form-data or form body.',
  },
  // Services behind the web pages and the command line
  invalid_user: {
    status: 400,
    meaning: 'A sign-up or profile field is not valid; the message names it.',
    action: 'Correct the field.',
  },
  user_name_taken: { status: 409, meaning: 'The user name is already taken.', action: 'Choose another user name.' },
  email_taken: {
    status: 409,
    meaning: 'An account with this e-mail address already exists.',
    action: 'Log in, or use another address.',
  },
  invalid_notification: {
    status: 400,
    meaning: 'A notification field is not valid; the message names it.',
    action: 'Correct the field.',
  },
  notification_not_found: { status: 404, meaning: 'There is no such notification.', action: 'Reload the list.' },
  invalid_application: {
    status: 400,
    meaning: 'An application field (name, canvas URL …) is not valid; the message names it.',
    action: 'Correct the field.',
  },
  app_not_found: { status: 404, meaning: 'There is no application with this APP ID.', action: 'Check the APP ID.' },
  app_event_not_found: {
    status: 404,
    meaning: 'The app has no event with this id.',
    action: 'Reload the delivery log.',
  },
  deletion_request_not_found: {
    status: 404,
    meaning: 'There is no data deletion request with this confirmation code.',
    action: 'Use the status URL the event gave, whole.',
  },
  invalid_deletion_report: {
    status: 400,
    meaning: 'A data deletion report needs status (in_progress or completed), ts and a valid sign.',
    action: 'Sign status and ts with the app secret as the app guide shows, within 5 minutes of ts.',
  },
  cannot_befriend_self: { status: 400, meaning: 'You cannot befriend yourself.', action: 'Choose someone else.' },
  friend_request_not_found: {
    status: 404,
    meaning: 'There is no friend request from this user.',
    action: 'Reload the page.',
  },
  cannot_mail_self: { status: 400, meaning: 'You cannot send mail to yourself.', action: 'Choose someone else.' },
  empty_message: { status: 400, meaning: 'The message is empty.', action: 'Write something.' },
  message_too_long: {
    status: 400,
    meaning: 'The message is longer than allowed.',
    action: 'Shorten it to the length the message names.',
  },
  photo_not_found: { status: 404, meaning: 'There is no such photo.', action: 'Reload the page.' },
  media_link_expired: {
    status: 403,
    meaning: 'The signed URL of a friends-only or private photo has expired (MEDIA_URL_TTL_SECONDS).',
    action: 'Ask again for a fresh URL: call the method again (photo.getPhotos) or reload the page.',
  },
  media_link_invalid: {
    status: 403,
    meaning: 'The signature of a photo URL does not match: the URL was altered or cut short.',
    action: 'Use the URL the platform gave you, whole.',
  },
  invalid_visibility: {
    status: 400,
    meaning: 'Visibility must be public, friends or private.',
    action: 'Choose one of them.',
  },
  // Web pages only
  login_required: {
    status: 401,
    meaning: 'The page needs a logged-in visitor.',
    action: 'Log in (pages you open are sent to the login form).',
  },
  file_missing: { status: 400, meaning: 'No photo was chosen.', action: 'Choose a photo to upload.' },
  not_multipart: {
    status: 415,
    meaning: 'The upload was not sent as a multipart form.',
    action: 'Send the photo with the upload form.',
  },
});

export type ErrorCode = (typeof errorCatalogue.entries)[number]['code'];

/** The error to throw: `throw appError('user_not_found', 'There is no user @ann.')`. */
export const appError = errorCatalogue.appError;

/** The codes api.php and token.php answer with: the Application API's error reference. */
export const APPLICATION_API_CODES: readonly ErrorCode[] = [
  'missing_key',
  'invalid_key',
  'key_expired',
  'key_already_used',
  'signature_required',
  'invalid_signature',
  'missing_token',
  'invalid_token',
  'token_expired',
  'token_revoked',
  'app_disabled',
  'missing_method',
  'invalid_method',
  'unknown_method',
  'post_required',
  'missing_parameter',
  'invalid_parameter',
  'invalid_batch',
  'batch_too_large',
  'invalid_batch_call',
  'nested_batch',
  'not_batchable',
  'user_not_found',
  'permission_denied',
  'app_in_development',
  'consent_required',
  'rate_limited',
  'payload_too_large',
  'image_too_large',
  'empty_file',
  'unsupported_image_type',
  'invalid_image',
  'unexpected_file',
  'invalid_body',
  'unsupported_media_type',
  'invalid_characters',
  'request_timeout',
  'request_too_large',
  'invalid_request',
  'invalid_url',
  'not_found',
  'method_not_allowed',
  'internal_error',
];
