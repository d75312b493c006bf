/**
 * The service as it is deployed, for the fault tests: its own PostgreSQL
 * cluster, the test's TCP proxy in front of it, and separate processes —
 * `svc serve` once (migrates, creates the demo company and key, then stops),
 * then `apiCount` × `svc api` and one `svc worker`, all reaching the database
 * through the proxy. `teardown()` kills what runs and removes the cluster,
 * also after a failure half-way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  apiClient,
  childEnv,
  freePort,
  retryOnTakenPort,
  spawnSvc,
  startServer,
  waitUntilReady,
  type ApiInit,
  type Deployment,
  type SvcProcess,
} from '../../helpers/server.js';
import { startCluster, type Cluster } from './cluster.js';
import { startProxy, type Proxy } from './proxy.js';

export interface RoleProcess extends SvcProcess {
  name: string;
}

export interface ApiNode extends RoleProcess {
  url: string;
  api(pathname: string, init?: ApiInit): Promise<Response>;
}

export interface Stack {
  cluster: Cluster;
  proxy: Proxy;
  deployment: Deployment;
  key: string;
  apis: ApiNode[];
  worker: RoleProcess;
  /** Every svc process started. */
  processes(): RoleProcess[];
  teardown(): Promise<void>;
}

/** The service's database on the test cluster. */
export const DATABASE = 'svc';

export async function startStack(opts: { apiCount?: number; env?: Record<string, string> } = {}): Promise<Stack> {
  const cluster = await startCluster();
  const started: RoleProcess[] = [];
  let proxy: Proxy | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-faults-'));
  const teardown = async () => {
    await Promise.all(started.map((p) => p.stop().catch(() => {})));
    await proxy?.close().catch(() => {});
    await cluster.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await cluster.query(`CREATE DATABASE ${DATABASE}`);
    proxy = await startProxy(cluster.port);
    const deployment: Deployment = {
      engine: 'postgres',
      dataDir,
      databaseUrl: `postgres://postgres@127.0.0.1:${proxy.port}/${DATABASE}`,
      destroy: async () => {},
    };
    const env = { RATE_LIMIT_PER_SECOND: '100000', ...opts.env };
    // `svc serve` migrates and writes the sandbox key; the roles then run on their own.
    const first = await startServer({ reuse: deployment, env });
    await first.stop({ keep: true });

    const apis: ApiNode[] = [];
    for (let i = 0; i < (opts.apiCount ?? 2); i++) {
      apis.push(
        await retryOnTakenPort(async () => {
          const port = await freePort();
          const proc: RoleProcess = { ...spawnSvc(['api'], childEnv(deployment, { ...env, HOST: '127.0.0.1', PORT: String(port) })), name: `api-${i + 1}` };
          started.push(proc);
          const url = `http://127.0.0.1:${port}`;
          await waitUntilReady(proc, url);
          return { ...proc, url, api: apiClient(url, first.key) };
        }),
      );
    }
    const worker: RoleProcess = { ...spawnSvc(['worker'], childEnv(deployment, env)), name: 'worker' };
    started.push(worker);
    return { cluster, proxy, deployment, key: first.key, apis, worker, processes: () => [...started], teardown };
  } catch (err) {
    await teardown();
    throw err;
  }
}

/** The processes that exited, with their exit and the end of their output; empty when all still run. */
export function exitedProcesses(stack: Stack): string[] {
  return stack
    .processes()
    .filter((p) => p.exitInfo())
    .map((p) => `${p.name} exited ${JSON.stringify(p.exitInfo())}\n${p.output().slice(-600)}`);
}
