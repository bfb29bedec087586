/** Parameter schemas shared by the web pages. */
/** The 1-based `page` query parameter of every paged list. */
export declare const pageProperty: {
  readonly type: 'integer';
  readonly minimum: 1;
  readonly maximum: 100000;
  readonly default: 1;
};
export declare const pageQuery: {
  readonly type: 'object';
  readonly properties: {
    readonly page: {
      readonly type: 'integer';
      readonly minimum: 1;
      readonly maximum: 100000;
      readonly default: 1;
    };
  };
};
/** `/…/:userName` routes (a profile, a conversation, a gallery). */
export declare const userParams: {
  readonly type: 'object';
  readonly required: readonly ['userName'];
  readonly properties: {
    readonly userName: {
      readonly type: 'string';
      readonly maxLength: 64;
    };
  };
};
