#!/usr/bin/env node
import { main } from '../dist/main.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
