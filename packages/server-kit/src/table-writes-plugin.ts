import {
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  UpdateQueryNode,
} from 'kysely';

/** The table names an operation node names (a table, an alias of one, or a list of them). */
function tableNames(node: OperationNode | undefined, into: string[]): string[] {
  if (!node) return into;
  const value = node as unknown as Record<string, unknown>;
  if (node.kind === 'TableNode') into.push((value.table as { identifier: { name: string } }).identifier.name);
  else if (node.kind === 'AliasNode') tableNames(value.node as OperationNode, into);
  else if (node.kind === 'FromNode') for (const from of value.froms as OperationNode[]) tableNames(from, into);
  return into;
}

function writtenTables(node: RootOperationNode): string[] {
  if (InsertQueryNode.is(node)) return tableNames(node.into, []);
  if (UpdateQueryNode.is(node)) return tableNames(node.table, []);
  if (DeleteQueryNode.is(node)) return tableNames(node.from, []);
  return [];
}

/**
 * Calls `onWrite` whenever this process inserts, updates or deletes rows of one of `tables`
 * (through the Kysely instance the plugin is on): when the statement is compiled and again
 * when it has run, so an in-process cache of those tables can be dropped around the write.
 * Writes by other processes, and raw SQL, are not seen.
 */
export class TableWritesPlugin implements KyselyPlugin {
  readonly #tables: ReadonlySet<string>;
  readonly #writes = new WeakSet<object>();

  constructor(
    tables: Iterable<string>,
    private readonly onWrite: () => void,
  ) {
    this.#tables = new Set(tables);
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (writtenTables(node).some((table) => this.#tables.has(table))) {
      this.#writes.add(queryId);
      this.onWrite();
    }
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(queryId)) this.onWrite();
    return result;
  }
}
