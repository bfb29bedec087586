/** Absolute URLs of the platform's pages, built from PUBLIC_URL (no trailing slash). */
export declare const profileUrl: (publicUrl: string, userName: string) => string;
