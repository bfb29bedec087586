/**
 * Registrant names and organisations that are privacy or proxy services rather than the holder
 * (ICANN's Privacy/Proxy Services; the largest registrars' own services). Matching is on the
 * published name or organisation, case-insensitively.
 */
const PRIVACY_SERVICES = [
  /domains by proxy/i,
  /withheld for privacy/i,
  /privacyguardian\.org/i,
  /contact privacy inc/i,
  /whoisguard/i,
  /whois privacy (protection )?(service|corp)/i,
  /perfect privacy,? llc/i,
  /super privacy service/i,
  /identity protection service/i,
  /domain protection services/i,
  /private by design,? llc/i,
  /privacydotlink/i,
  /1337 services llc/i,
  /redacted for privacy purposes/i,
  /^data protected$/i,
  /proxy protection llc/i,
  /whoisprotectservice|whois protect service/i,
  /privacy protect,? llc/i,
  /domain privacy service fbo registrant/i,
  /registration private/i,
  /on behalf of .* owner/i,
];

export function isPrivacyService(...values: (string | null)[]): boolean {
  return values.some((value) => value !== null && PRIVACY_SERVICES.some((pattern) => pattern.test(value)));
}
