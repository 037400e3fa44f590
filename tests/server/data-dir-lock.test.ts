// Two servers on one embedded data directory: the second refuses before it opens the database,
// saying which process has it; the first goes on serving, and the data opens again after it stops.
// (Before the lock, the second opened PGlite on the same files and the directory later failed to open.)
import { afterAll, describe, expect, it } from 'vitest';
import { httpApi, loginAs, seededDataPlace, spawnServer, type DataPlace } from './child-server.ts';

describe('one server per embedded data directory', () => {
  const places: DataPlace[] = [];
  afterAll(async () => {
    for (const place of places) await place.cleanup();
  });

  it('refuses a second server on the same DATA_DIR, and the first one keeps its data', async () => {
    const place = await seededDataPlace('pglite');
    places.push(place);
    const first = await spawnServer(place.env);
    try {
      const admin = httpApi(first.url, await loginAs(first.url));
      const saved = await admin.ok('/api/construct/partyA/save', { name: '锁测试甲方', partyAType: 'soe', status: 'enabled' });

      // on another port, so that nothing but the lock can stop it
      const second = spawnServer(place.env).then((server) => {
        server.proc.kill('SIGKILL'); // started after all: the assertion below says so
        return server;
      });
      await expect(second).rejects.toThrow(`is in use by process ${first.proc.pid}`);

      const read = await admin.get('/api/construct/partyA/detail', { id: saved.id });
      expect(read.data.name).toBe('锁测试甲方');
    } finally {
      first.proc.kill('SIGTERM');
      await first.exited;
    }

    const again = await spawnServer(place.env);
    try {
      const admin = httpApi(again.url, await loginAs(again.url));
      const list = await admin.get('/api/construct/partyA/list', { name: '锁测试甲方' });
      expect(list.data.records.map((r: { name: string }) => r.name)).toEqual(['锁测试甲方']);
    } finally {
      again.proc.kill('SIGTERM');
      await again.exited;
    }
  }, 400_000);
});
