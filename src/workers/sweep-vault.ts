/**
 * The vault's sweep: erases the card data of tokens that will never be spent
 * and the tokenize counters that have served (vault/sweep.ts). Run by the
 * vault's process (`svc vault`, `svc serve`), not by the worker: only the
 * vault's database role may write the vault's tables, and only the vault
 * holds the master key that the fingerprint of an old token needs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock.js';
import type { Vault } from '../modules/vault/index.js';
import type { Step } from './step.js';
import { startStepLoop } from './worker.js';

const sweepVault = (vault: Pick<Vault, 'sweeper'>, clock: Clock): Step => ({
  name: 'sweep-vault',
  // Every 5 s: a token of a failed or canceled intent keeps its card no longer than that.
  everyTicks: 5,
  run: () => vault.sweeper.sweep(clock.now()),
});

export function startVaultSweep(vault: Pick<Vault, 'sweeper'>, clock: Clock, log: FastifyBaseLogger): { stop(): Promise<void> } {
  return startStepLoop([sweepVault(vault, clock)], log);
}
