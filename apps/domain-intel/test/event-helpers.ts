import type { TestApp } from './helpers.ts';

/**
 * The account events of one type recorded for an account (their `data`), oldest first. Account
 * events are reported in the background of the call that caused them, so this waits (up to 10 s)
 * until at least `atLeast` are stored.
 */
export async function recordedEvents(
  t: TestApp,
  accountId: string,
  type: string,
  atLeast = 1,
): Promise<Array<Record<string, unknown>>> {
  const read = async () =>
    (
      await t.app.ctx.database.db
        .selectFrom('delivery_messages')
        .select('payload')
        .where('account_id', '=', accountId)
        .where('type', '=', type)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((row) => (JSON.parse(row.payload) as { data: Record<string, unknown> }).data);
  const until = Date.now() + 10_000;
  let events = await read();
  while (events.length < atLeast && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    events = await read();
  }
  return events;
}
