/**
 * The baseline for GET /title/{id}: a bare Koa app with one route that reads
 * the stored JSON of an entry straight from the same SQLite file with
 * better-sqlite3 (one prepared statement) and returns it. No auth, no
 * TypeORM, no parse or re-stringify: the floor any engine route stands on.
 *
 * Environment: BENCH_DB (path of titled.sqlite, required).
 * Reports `{ type: 'ready', port }` over IPC.
 */
import Database from 'better-sqlite3';
import Koa from 'koa';
import Router from '@koa/router';

const file = process.env.BENCH_DB;
if (!file) throw new Error('BENCH_DB is required');
const db = new Database(file, { fileMustExist: true });
db.pragma('journal_mode = WAL');
const byId = db.prepare<[string], { doc: string }>('SELECT doc FROM entries WHERE id = ?');

const app = new Koa();
const router = new Router();
router.get('/title/:id', (ctx) => {
  const row = byId.get(ctx.params.id!);
  if (!row) {
    ctx.status = 404;
    ctx.body = { error: 'entry not found', statusCode: 404 };
    return;
  }
  ctx.type = 'application/json';
  ctx.body = row.doc;
});
app.use(router.routes()).use(router.allowedMethods());

const server = app.listen(0, '127.0.0.1', () => {
  server.keepAliveTimeout = 65_000;
  process.send?.({ type: 'ready', port: (server.address() as { port: number }).port, pid: process.pid });
});
const stop = () =>
  server.close(() => {
    db.close();
    process.exit(0);
  });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
