/** Parameter schemas shared by the web pages. */

/** The 1-based `page` query parameter of every paged list. */
export const pageProperty = { type: 'integer', minimum: 1, maximum: 100_000, default: 1 } as const;

export const pageQuery = {
  type: 'object',
  properties: { page: pageProperty },
} as const;

/** `/…/:userName` routes (a profile, a conversation, a gallery). */
export const userParams = {
  type: 'object',
  required: ['userName'],
  properties: { userName: { type: 'string', maxLength: 64 } },
} as const;
