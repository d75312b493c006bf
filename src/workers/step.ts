/** A worker job: one call into the module that owns the behaviour, run every `everyTicks` ticks of the loop. */
import type { Services } from '../services.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';

export interface Step {
  name: string;
  everyTicks: number;
  /** Does one round of the job; answers how many rows it moved (logged when not zero). */
  run(): Promise<number>;
}

export interface StepDeps {
  db: Db;
  clock: Clock;
  services: Services;
}
