import { type Static, type TSchema, Type } from 'typebox';
import { integerParam, type ParamSpecs, type ParamValues } from '../api/params.ts';
import type { Permission } from '../applications/permissions.ts';
import type { ApiCaller } from '../auth/app-auth-service.ts';
import type { AppContext } from '../context.ts';
import type { PageResult } from '../db/paging.ts';
import { appError } from '../error-catalogue.ts';

export interface MethodCall<P> {
  ctx: AppContext;
  caller: ApiCaller;
  params: P;
  /** The requested page (1 when not given or 0); list methods only. */
  page: number;
}

/**
 * The page a list call asked for: `page` absent or 0 is page 1. phpFox's SDK sends `page=0` by
 * default for the first page, so 0 means the first page here too; negative and non-numeric
 * pages are refused by the parameter's check (400 `invalid_parameter`).
 */
export const requestedPage = (page: number | undefined): number => (page === undefined || page === 0 ? 1 : page);

interface MethodDefinition<S extends ParamSpecs> {
  name: string;
  /** What the user must have granted the app for it to call this method. */
  permission: Permission;
  /** `POST` methods refuse GET (uploads); `GET` methods take either. */
  httpMethod: 'GET' | 'POST';
  summary: string;
  params: S;
}

export interface ApiMethod {
  name: string;
  permission: Permission;
  kind: 'single' | 'list';
  httpMethod: 'GET' | 'POST';
  summary: string;
  /** The schema of `output` (from packages/contracts): the OpenAPI document and the tests read it. */
  output: TSchema;
  params: ParamSpecs;
  /** A promise, or the value itself when the method needs to wait for nothing (no turn of the event loop). */
  handler(call: MethodCall<Record<string, unknown>>): unknown;
}

/**
 * A method that returns one value; its `api` is total 1, pages 1, current_page 1. The handler
 * must return `Static<typeof output>`: a record missing a field of its contract does not compile.
 */
export function singleMethod<S extends ParamSpecs, O extends TSchema>(
  definition: MethodDefinition<S> & {
    output: O;
    handler(call: MethodCall<ParamValues<S>>): Static<O> | Promise<Static<O>>;
  },
): ApiMethod {
  return { ...definition, kind: 'single', handler: definition.handler as ApiMethod['handler'] };
}

/**
 * A method that returns a page of 10 items, each a `Static<typeof item>`; `output` is the array
 * of them and `page` is added to its parameters.
 */
export function listMethod<S extends ParamSpecs, I extends TSchema>(
  definition: MethodDefinition<S> & {
    item: I;
    handler(call: MethodCall<ParamValues<S>>): Promise<PageResult<Static<I>>>;
  },
): ApiMethod {
  const { item, ...rest } = definition;
  return {
    ...rest,
    output: Type.Array(item),
    params: {
      ...definition.params,
      page: integerParam(false, 'Page number, from 1 (10 items a page); 0 is page 1, as phpFox sends it.', 0),
    },
    kind: 'list',
    handler: definition.handler as ApiMethod['handler'],
  };
}

const METHOD_NAME = /^[a-z]+\.[A-Za-z]+$/;

/** Maps `module.name` to its method. */
export class MethodRegistry {
  readonly #methods = new Map<string, ApiMethod>();

  constructor(methods: ApiMethod[]) {
    for (const method of methods) {
      if (this.#methods.has(method.name)) throw new Error(`Method ${method.name} is registered twice`);
      this.#methods.set(method.name, method);
    }
  }

  get names(): string[] {
    return [...this.#methods.keys()].sort();
  }

  get all(): ApiMethod[] {
    return this.names.map((name) => this.#methods.get(name)!);
  }

  /** The method of `name`, if there is one (no error for a name that is not). */
  find(name: unknown): ApiMethod | undefined {
    return typeof name === 'string' ? this.#methods.get(name) : undefined;
  }

  resolve(name: unknown): ApiMethod {
    const known = typeof name === 'string' ? this.#methods.get(name) : undefined;
    if (known) return known;
    if (name === undefined || name === '') {
      throw appError('missing_method', 'The method parameter is required, e.g. method=user.getUser.');
    }
    if (typeof name !== 'string' || !METHOD_NAME.test(name)) {
      throw appError('invalid_method', 'The method parameter must look like module.name, e.g. user.getUser.');
    }
    const method = this.#methods.get(name);
    if (!method) {
      throw appError('unknown_method', `There is no method ${name}. Known methods: ${this.names.join(', ')}.`);
    }
    return method;
  }
}

/** 403 `permission_denied` unless the caller's grant covers the method. */
export function requirePermission(method: ApiMethod, caller: ApiCaller): void {
  if (caller.permissions.includes(method.permission)) return;
  throw appError(
    'permission_denied',
    `${method.name} needs the ${method.permission} permission, which this app has not been granted. ` +
      'Declare it in the developer console; the user is asked to allow it the next time they open the app.',
    { details: { permission: method.permission } },
  );
}
