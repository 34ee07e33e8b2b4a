// Preloaded (`node --import`) into the original checkpoint.mjs while recording: `new Date()` with no argument
// returns ULPI_FROZEN_NOW, so the documents it writes are reproducible. Date.now() stays real (lock ages, gc cutoff).
const RealDate = globalThis.Date;
const frozen = RealDate.parse(process.env.ULPI_FROZEN_NOW ?? '');
if (Number.isFinite(frozen)) {
  globalThis.Date = class FrozenDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(frozen);
      else super(...args);
    }
  };
}
