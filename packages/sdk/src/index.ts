export { DomainIntelClient, type DomainIntelClientOptions } from './domain-intel-client.ts';
export type * from './domain-intel-types.ts';
export {
  ApiError,
  DomainIntelError,
  type DomainIntelErrorCode,
  hasCode,
  NetworkError,
  PlatformError,
  type PlatformErrorCode,
  TimeoutError,
} from './errors.ts';
export {
  CHECK_MAX_DOMAINS,
  DOMAIN_INTEL_OPERATIONS,
  FEED_MAX_LIMIT,
  FEED_MAX_OFFSET,
  PLATFORM_ENDPOINTS,
  PLATFORM_METHODS,
  PLATFORM_PAGE_SIZE,
} from './operations.ts';
export { type PhotoSource, PhotoTooLargeError } from './photo-source.ts';
export { type AddPhotoOptions, PlatformAppClient, type PlatformAppClientOptions } from './platform-client.ts';
export {
  type DeletionStatus,
  type HeaderSource,
  LaunchVerificationError,
  type PlatformEvent,
  type PlatformLaunch,
  SIGNED_LAUNCH_PARAMS,
  signDeletionReport,
  signedText,
  signKey,
  signWithAppSecret,
  type VerifyLaunchOptions,
  verifyLaunch,
  verifyWebhook,
  WEBHOOK_KEY_LABEL,
  WebhookVerificationError,
  webhookSecretOf,
} from './platform-signatures.ts';
export type * from './platform-types.ts';
export type { CallOptions, ClientOptions, RetryPolicy } from './transport.ts';
