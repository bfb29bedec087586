/** `scrypt$N$r$p$salt$hash` (base64url), self-describing so the cost can be raised later. */
export declare function hashPassword(password: string): Promise<string>;
export declare function verifyPassword(password: string, stored: string): Promise<boolean>;
