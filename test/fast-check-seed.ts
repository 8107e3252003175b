import fc from 'fast-check';

/**
 * Every property test runs from one fixed seed, so `npm test` is the same run
 * on every machine. FC_SEED=<integer> replays or explores another seed
 * (FC_SEED=random draws one); fast-check prints the seed and path of a failure.
 */
const raw = process.env.FC_SEED;
const seed = raw === undefined || raw === '' ? 20261127 : raw === 'random' ? Date.now() ^ (Math.random() * 0x100000000) : Number(raw);
if (!Number.isSafeInteger(seed)) {
  throw new Error(`FC_SEED must be an integer or "random", got ${JSON.stringify(raw)}`);
}
fc.configureGlobal({ seed });
