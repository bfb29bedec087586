import { type ParamSpecs, type ParamValues } from '../api/params.ts';
import type { ApiCaller } from '../auth/app-auth-service.ts';
import type { AppContext } from '../context.ts';
import type { PageResult } from '../db/paging.ts';
export interface MethodCall<P> {
  ctx: AppContext;
  caller: ApiCaller;
  params: P;
  /** The requested page (1 when not given); list methods only. */
  page: number;
}
interface MethodDefinition<S extends ParamSpecs> {
  name: string;
  /** `POST` methods refuse GET (uploads); `GET` methods take either. */
  httpMethod: 'GET' | 'POST';
  summary: string;
  /** What `output` holds, for the reference documentation. */
  output: string;
  params: S;
}
export interface ApiMethod {
  name: string;
  kind: 'single' | 'list';
  httpMethod: 'GET' | 'POST';
  summary: string;
  output: string;
  params: ParamSpecs;
  handler(call: MethodCall<Record<string, unknown>>): Promise<unknown>;
}
/** A method that returns one value; its `api` is total 1, pages 1, current_page 1. */
export declare function singleMethod<S extends ParamSpecs>(
  definition: MethodDefinition<S> & {
    handler(call: MethodCall<ParamValues<S>>): Promise<unknown>;
  },
): ApiMethod;
/** A method that returns a page of 10 items; `page` is added to its parameters. */
export declare function listMethod<S extends ParamSpecs>(
  definition: MethodDefinition<S> & {
    handler(call: MethodCall<ParamValues<S>>): Promise<PageResult<unknown>>;
  },
): ApiMethod;
/** Maps `module.name` to its method. */
export declare class MethodRegistry {
  #private;
  constructor(methods: ApiMethod[]);
  get names(): string[];
  get all(): ApiMethod[];
  resolve(name: unknown): ApiMethod;
}
