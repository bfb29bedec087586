/** Just enough of an OpenAPI 3.1 document to check which answers each operation lists. */
export interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; schema?: { type?: string } }>;
  requestBody?: unknown;
  security?: unknown[];
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  security?: unknown[];
}

export interface DocumentedOperation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation of the document. */
export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/**
 * The client errors an operation can answer by its shape alone, whatever its handler does:
 * - 400 when it takes parameters or a body (a malformed one, one given twice);
 * - 404 when its path names something (`/things/{id}`: there may be no such thing);
 * - 413 and 415 when it takes a body (too large; a content type it does not read);
 * - 401 and 429 when it needs credentials (missing or wrong; a quota per caller).
 */
export function expectedErrorStatuses(document: OpenApiDocument, operation: OpenApiOperation): number[] {
  const statuses = new Set<number>();
  const parameters = operation.parameters ?? [];
  if (parameters.length > 0 || operation.requestBody) statuses.add(400);
  if (parameters.some((parameter) => parameter.in === 'path')) statuses.add(404);
  if (operation.requestBody) {
    statuses.add(413);
    statuses.add(415);
  }
  if ((operation.security ?? document.security ?? []).length > 0) {
    statuses.add(401);
    statuses.add(429);
  }
  return [...statuses].sort((a, b) => a - b);
}

/** `METHOD path: status` for each error an operation can answer but does not list. */
export function undocumentedErrors(document: OpenApiDocument): string[] {
  return operationsOf(document).flatMap(({ method, path, operation }) =>
    expectedErrorStatuses(document, operation)
      .filter((status) => !(String(status) in (operation.responses ?? {})))
      .map((status) => `${method} ${path}: ${status}`),
  );
}
