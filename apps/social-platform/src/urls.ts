/** Absolute URLs of the platform's pages, built from PUBLIC_URL (no trailing slash). */
export const profileUrl = (publicUrl: string, userName: string) => `${publicUrl}/u/${encodeURIComponent(userName)}`;
