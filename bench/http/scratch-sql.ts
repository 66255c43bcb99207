import path from 'node:path';
import { startServices } from '../../tests/setup/services';
import { benchSizes, prepareData } from './data';
import { benchPaths } from './paths';
import { buildProduct, createDatabase, productEnv, startNode, stopAll, root } from './stack';
import { statementLog, statementsDuring, withoutBackground } from './capture';

const services = await startServices();
try {
  const url = await createDatabase(services.databaseUrl, 'bench_http');
  const data = await prepareData({ databaseUrl: url, dataDir: '' }, benchSizes(2000), () => {});
  await buildProduct();
  const product = await startNode(
    'product',
    path.join(root, 'dist/server/main.js'),
    productEnv(url, services.redisUrl),
    { healthPath: '/api/health' },
  );
  const log = await statementLog(services.databaseUrl);
  const toggleOnly = process.env.SCRATCH_TOGGLE === '1';
  for (const p of benchPaths(data).flatMap((x) => (x.next ? [x, x] : toggleOnly ? [] : [x]))) {
    const st = withoutBackground(
      await statementsDuring(log!.logFile, async () => {
        const t = data.toggles[0]!;
        if (p.next) t.isPaid = !t.isPaid;
        const req = p.next
          ? {
              url: `/api/enrollments/${t.id}/pay-installment`,
              body: JSON.stringify({ installmentIndex: 0, isPaid: t.isPaid }),
            }
          : { url: p.url, body: undefined };
        const res = await fetch(product.url + req.url, {
          method: p.method,
          body: req.body,
          headers: { authorization: `Bearer ${data.token}`, 'content-type': 'application/json' },
        });
        const text = await res.text();
        console.log(
          `\n==== ${p.name} ${req.url} ${req.body ?? ''} ${res.status} ${text.length} bytes: ${toggleOnly ? text : text.slice(0, 200)}`,
        );
      }),
    );
    for (const s of st) console.log(`- ${s.text}\n    [${toggleOnly ? s.params : s.params.slice(0, 200)}]`);
  }
  await log!.off();
} finally {
  await stopAll();
  await services.stop();
}
